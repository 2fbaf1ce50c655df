// The vendor search: what the text entered is (an LEI, a wallet or a name) and the one query that looks it up.

export type SearchKind = 'lei' | 'wallet' | 'name';

export const MAX_NAME_LENGTH = 256;

export function kindOf(text: string): SearchKind {
  if (/^[0-9A-Za-z]{18}[0-9]{2}$/.test(text)) return 'lei';
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return 'wallet';
  return 'name';
}

export interface Candidate {
  name: string;
  lei: string | null;
  wallet: string | null;
  detail: string;
}

export const SEARCH_QUERIES: Record<SearchKind, string> = {
  lei: `query VendorByLei($text: String!) { legalEntity(lei: $text) { lei legalName leiStatus jurisdiction wallets { walletAddress } } }`,
  wallet: `query VendorByWallet($text: String!) { wallet(address: $text) { address registration { legalName lei leiStatus country } } }`,
  name: `query VendorByName($text: String!) { leiSearch(name: $text) { count matches { lei legalName leiStatus jurisdiction matchedName score } } }`,
};

export interface SearchData {
  legalEntity?: { lei: string; legalName: string; leiStatus: string; jurisdiction: string | null; wallets: Array<{ walletAddress: string }> } | null;
  wallet?: { address: string; registration: { legalName: string; lei: string | null; leiStatus: string | null; country: string | null } | null } | null;
  leiSearch?: { count: number; matches: Array<{ lei: string; legalName: string; leiStatus: string; jurisdiction: string | null; matchedName: string; score: number }> } | null;
}

/** The vendors a search answer offers to assess. */
export function candidatesOf(data: SearchData | null | undefined): Candidate[] {
  if (data?.legalEntity) {
    const entity = data.legalEntity;
    return [
      {
        name: entity.legalName,
        lei: entity.lei,
        wallet: entity.wallets[0]?.walletAddress ?? null,
        detail: `LEI ${entity.lei}, ${entity.leiStatus}${entity.jurisdiction ? `, ${entity.jurisdiction}` : ''}; ${entity.wallets.length} registered wallet(s)`,
      },
    ];
  }
  if (data?.wallet?.registration) {
    const { registration, address } = data.wallet;
    return [{ name: registration.legalName, lei: registration.lei, wallet: address, detail: `wallet ${address}${registration.lei ? `, LEI ${registration.lei}` : ''}` }];
  }
  return (data?.leiSearch?.matches ?? []).map((match) => ({
    name: match.legalName,
    lei: match.lei,
    wallet: null,
    detail: `LEI ${match.lei}, ${match.leiStatus}${match.jurisdiction ? `, ${match.jurisdiction}` : ''}; matched "${match.matchedName}" at ${match.score}`,
  }));
}

// Sanctions screening against the OFAC SDN list: names and aliases through a NameIndex, and an
// exact lookup of the digital-currency addresses OFAC lists. Built once from the parsed list.

import { NameIndex, type ScreenStatistics } from './name-index.js';
import type { SdnAliasType, SdnEntry, SdnType } from './reference-data.js';
import { SANCTIONS_MATCH_THRESHOLD } from './thresholds.js';

/** How the matched name is listed: the entry's own name, or one of its alt.csv aliases. */
export type SdnNameKind = 'name' | SdnAliasType;

export interface SanctionsNameMatch {
  entry: SdnEntry;
  matchedName: string;
  matchedAs: SdnNameKind;
  /** nameSimilarity in [0, 1]; at or above the threshold of the screen. */
  score: number;
}

export interface SanctionsScreen {
  matches: SanctionsNameMatch[];
  statistics: ScreenStatistics;
}

export interface SanctionsAddressMatch {
  entry: SdnEntry;
  currency: string;
  /** The address as OFAC lists it. */
  address: string;
}

export interface SanctionsScreenOptions {
  /** Defaults to SANCTIONS_MATCH_THRESHOLD (0.70). */
  threshold?: number;
  limit?: number;
  /** Only entries of these types (e.g. individuals for a person's name). */
  types?: readonly SdnType[];
}

export interface SanctionsIndex {
  readonly size: { entries: number; names: number; addresses: number };
  /** Settles once the name index's similar-token table is built (NameIndex.tableReady); screens are the same before. */
  readonly tableReady: Promise<void>;
  screenName(name: string, options?: SanctionsScreenOptions): SanctionsScreen;
  /** The score a screen of `query` gives the listed name `listed` (NameIndex.similarity). */
  similarity(query: string, listed: string): number;
  /** Entries listing this digital-currency address (usually one). */
  findAddress(address: string): SanctionsAddressMatch[];
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BECH32_ADDRESS = /^(bc|ltc|tb)1[0-9a-zA-Z]+$/i;

/**
 * The form an address is looked up by: trimmed; EVM addresses (0x and 40 hex digits) and bech32
 * addresses (bc1…, ltc1…) in lower case, since their letter case is only a checksum or is
 * insignificant; everything else (base58 Bitcoin, Tron, Monero …) exactly, since case is meaning.
 */
export function addressKey(address: string): string {
  const trimmed = address.trim();
  return EVM_ADDRESS.test(trimmed) || BECH32_ADDRESS.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/** Builds the name index over every entry's name and aliases, and the address table. */
/**
 * Whether the query reads as a wallet address rather than a name: one token of 25 or more letters
 * and digits with at least one digit (EVM 0x…, Bitcoin base58 and bech32, Tron T…, Monero …). No
 * entity name on the SDN list is such a token, so it is looked up as an address only.
 */
export function looksLikeWalletAddress(query: string): boolean {
  return /^(0x)?[A-Za-z0-9]{25,}$/.test(query) && /[0-9]/.test(query.replace(/^0x/, ''));
}

export function buildSanctionsIndex(entries: readonly SdnEntry[]): SanctionsIndex {
  const names = new NameIndex<SdnEntry, SdnNameKind>(
    entries.map((entry) => ({
      record: entry,
      names: [{ name: entry.name, kind: 'name' as const }, ...entry.aliases.map((alias) => ({ name: alias.name, kind: alias.type }))],
    })),
  );
  const addresses = new Map<string, SanctionsAddressMatch[]>();
  for (const entry of entries) {
    for (const { currency, address } of entry.digitalCurrencyAddresses) {
      const key = addressKey(address);
      const listed = addresses.get(key) ?? [];
      listed.push({ entry, currency, address });
      addresses.set(key, listed);
    }
  }
  return {
    size: { entries: names.size.records, names: names.size.names, addresses: addresses.size },
    tableReady: names.tableReady,
    screenName(name, options = {}) {
      const types = options.types ? new Set(options.types) : undefined;
      const { matches, statistics } = names.screen(name, {
        threshold: options.threshold ?? SANCTIONS_MATCH_THRESHOLD,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(types ? { filter: (entry: SdnEntry) => types.has(entry.type) } : {}),
      });
      return { matches: matches.map((m) => ({ entry: m.record, matchedName: m.matchedName, matchedAs: m.matchedKind, score: m.score })), statistics };
    },
    similarity: (query, listed) => names.similarity(query, listed),
    findAddress(address) {
      return addresses.get(addressKey(address)) ?? [];
    },
  };
}

// The sanctions widget's verdict (Document 2 §4 GET /widget/sanctions: "wallet or entity name in,
// APPROVED, FLAGGED or BLOCKED with signals out"), decision 0018. Pure: the index is passed in.

import { looksLikeWalletAddress, SANCTIONS_BLOCK_SCORE, type SanctionsIndex, type SdnNameKind, type SdnType } from '../../domain/index.js';

export type SanctionsVerdict = 'APPROVED' | 'FLAGGED' | 'BLOCKED';
export type ScreenedAs = 'WALLET' | 'NAME';
/** Name matches shown at most (the best first). */
export const WIDGET_MATCH_LIMIT = 5;

export type SanctionsSignal =
  | { code: 'SDN_DIGITAL_CURRENCY_ADDRESS'; uid: number; sdnName: string; programs: string[]; currency: string; address: string }
  | { code: 'SDN_NAME_MATCH' | 'SDN_NAME_POTENTIAL_MATCH'; uid: number; sdnName: string; programs: string[]; type: SdnType; matchedName: string; matchedAs: SdnNameKind; score: number };

export interface SanctionsWidgetScreen {
  query: string;
  screenedAs: ScreenedAs;
  verdict: SanctionsVerdict;
  signals: SanctionsSignal[];
}

/**
 * 1. An address OFAC lists as a digital-currency address of an SDN entry: BLOCKED, whatever it looks like.
 * 2. A wallet-shaped query not listed: APPROVED (no name screening of an address).
 * 3. A name: screened against every SDN name and alias at 0.70 or more; a match at
 *    SANCTIONS_BLOCK_SCORE (0.95) or more is BLOCKED, a weaker one FLAGGED for review, none APPROVED.
 */
export function screenForWidget(query: string, sanctions: SanctionsIndex): SanctionsWidgetScreen {
  const listed = sanctions.findAddress(query);
  if (listed.length > 0) {
    const signals: SanctionsSignal[] = listed.map(({ entry, currency, address }) => ({
      code: 'SDN_DIGITAL_CURRENCY_ADDRESS',
      uid: entry.entNum,
      sdnName: entry.name,
      programs: [...entry.programs],
      currency,
      address,
    }));
    return { query, screenedAs: 'WALLET', verdict: 'BLOCKED', signals };
  }
  if (looksLikeWalletAddress(query)) return { query, screenedAs: 'WALLET', verdict: 'APPROVED', signals: [] };
  const { matches } = sanctions.screenName(query, { limit: WIDGET_MATCH_LIMIT });
  const signals: SanctionsSignal[] = matches.map((match) => ({
    code: match.score >= SANCTIONS_BLOCK_SCORE ? 'SDN_NAME_MATCH' : 'SDN_NAME_POTENTIAL_MATCH',
    uid: match.entry.entNum,
    sdnName: match.entry.name,
    programs: [...match.entry.programs],
    type: match.entry.type,
    matchedName: match.matchedName,
    matchedAs: match.matchedAs,
    score: match.score,
  }));
  const verdict: SanctionsVerdict = signals.some((s) => s.code === 'SDN_NAME_MATCH') ? 'BLOCKED' : signals.length > 0 ? 'FLAGGED' : 'APPROVED';
  return { query, screenedAs: 'NAME', verdict, signals };
}

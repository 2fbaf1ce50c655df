// The match thresholds and score bands of Document 2 (payments-compliance-agents.md), as named
// constants and functions so no other file writes the numbers.

/** Ownership-chain sanctions matches are those at 0.70 or above (Document 2, "Ownership chain result"). */
export const SANCTIONS_MATCH_THRESHOLD = 0.7;
/**
 * A sanctions match this strong blocks; 0.70 up to it asks for review (decision 0018). The highest
 * score of any name in the shipped GLEIF snapshot against an unrelated SDN entry is 0.942 (Roni
 * Trading LLC against RONIN TRADING, an alias of RONIN MANAGEMENT B.V.): 0.95 keeps every such false alert a review, not a block.
 */
export const SANCTIONS_BLOCK_SCORE = 0.95;
/** PEP matches are those at 0.60 or above (Document 2, "PEP screening result"). */
export const PEP_MATCH_THRESHOLD = 0.6;

export const isSanctionsMatch = (similarity: number): boolean => similarity >= SANCTIONS_MATCH_THRESHOLD;
export const isPepMatch = (similarity: number): boolean => similarity >= PEP_MATCH_THRESHOLD;

/** The VoP results a name score can give (Document 2 §3); the others come from the LEI or the registry. */
export type VopNameResult = 'VERIFIED' | 'PROCEED_HIGH_CONFIDENCE' | 'PROCEED_FLAGGED' | 'PROCEED_UNVERIFIED' | 'BLOCKED';

/**
 * Lower bound of each band on the 0-100 score, highest first. The spec writes the bands as
 * integers (90-100, 75-89, 55-74, 35-54, below 35); a fractional score belongs to the band whose
 * lower bound it reaches, so 89.99 is PROCEED_HIGH_CONFIDENCE and 90 is VERIFIED.
 */
export const VOP_SCORE_BANDS: readonly { readonly from: number; readonly result: VopNameResult }[] = [
  { from: 90, result: 'VERIFIED' },
  { from: 75, result: 'PROCEED_HIGH_CONFIDENCE' },
  { from: 55, result: 'PROCEED_FLAGGED' },
  { from: 35, result: 'PROCEED_UNVERIFIED' },
];

/** The VoP result for a name score on 0-100: BLOCKED below 35 (and for a score that is not a number). */
export function vopResultForScore(score: number): VopNameResult {
  for (const band of VOP_SCORE_BANDS) {
    if (score >= band.from) return band.result;
  }
  return 'BLOCKED';
}

// Verification of payee, pure (Document 2 §2-§3): the payee verification, its name score and
// matcher, the gray-zone assessment and the name to LEI search.

export { assessNameDiscrepancy, type GrayZoneAssessment, type GrayZoneConfidence, type GrayZoneReasoning, type ProceedRecommendation } from './gray-zone.js';
export { LEI_SEARCH_LIMIT, LEI_SEARCH_MIN_SCORE, type LeiSearchEntry, type LeiSearchMatch, searchLeiByName } from './lei-search.js';
export { nameMatcher } from './name-matcher.js';
export { type PayeeNameMatcher, type PayeeVerification, type RegisteredEntity, type ResolvedBy, verifyPayee, VOP_RESULTS, type VopResult } from './verify-payee.js';
export {
  DIFFERENT_LEGAL_FORM_FACTOR,
  INEXACT_SCORE_CAP,
  joinSplitWords,
  MISSING_LEGAL_FORM_FACTOR,
  oneEditApart,
  type PayeeName,
  payeeName,
  payeeNameSimilarity,
  payeeWordSimilarity,
  SHORTEST_TYPO_WORD,
  TYPO_SIMILARITY,
} from './vop-name-score.js';

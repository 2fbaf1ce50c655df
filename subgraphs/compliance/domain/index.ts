// Public face of the compliance matching domain (docs/compliance-matching.md): pure functions and
// indexes over the reference data types. verify-payee.ts, gray-zone.ts and vendor-risk.ts, in this
// folder too, are imported by their own paths.

export type {
  Dataset, DatasetProvenance, DigitalCurrencyAddress, FatfJurisdiction, FatfList, FatfLists, LeiDataset, LeiOtherName, LeiRecord,
  LeiRelationship, PepRecord, PepSource, RegulatoryKeyDate, SdnAddress, SdnAlias, SdnAliasType, SdnEntry, SdnType,
} from './reference-data.js';

export { CONNECTING_WORDS, LEGAL_FORMS, nameTokens, normaliseName } from './normalise-name.js';
export { jaroWinkler, WINKLER_BOOST_THRESHOLD, WINKLER_PREFIX_LIMIT, WINKLER_PREFIX_SCALE } from './jaro-winkler.js';
export {
  bestAssignment, LENGTH_DIFFERENCE_WEIGHT, lengthsCanMatch, nameSimilarity, TOKEN_MATCH_FLOOR, tokenListSimilarity, tokenSimilarity,
} from './name-similarity.js';
export {
  isPepMatch, isSanctionsMatch, PEP_MATCH_THRESHOLD, SANCTIONS_MATCH_THRESHOLD, VOP_SCORE_BANDS, vopResultForScore, type VopNameResult,
} from './thresholds.js';
export { isValidLei, leiCheckDigits } from './lei.js';
export {
  BLOCK_SHARE, NameIndex, type IndexedRecord, type NameMatch, type ScreenOptions, type ScreenResult, type ScreenStatistics,
} from './name-index.js';
export {
  addressKey, buildSanctionsIndex, type SanctionsAddressMatch, type SanctionsIndex, type SanctionsNameMatch, type SanctionsScreen,
  type SanctionsScreenOptions, type SdnNameKind,
} from './sanctions-screening.js';
export { buildPepIndex, type PepIndex, type PepMatch, type PepScreenOptions } from './pep-screening.js';
export { evaluateMatcher, type LabelledNamePair, type MatcherEvaluation, type ScoredNamePair } from './evaluation.js';
export { nameMatcher } from './name-matcher.js';

// Pure logic several compliance families use (docs/compliance-matching.md): name normalisation and
// similarity, the name index, the sanctions index, the thresholds, LEI check digits, the one FATF
// lookup and the reference-data types. No I/O, no clock, no platform/; it imports no family.

export { evaluateMatcher, type LabelledNamePair, type MatcherEvaluation, type ScoredNamePair } from './evaluation.js';
export { callsForCountermeasures, type FatfStanding, fatfStandingOf, type FatfStatus, fatfStatusOf, isCountermeasuresCall } from './fatf.js';
export { jaroWinkler, WINKLER_BOOST_THRESHOLD, WINKLER_PREFIX_LIMIT, WINKLER_PREFIX_SCALE } from './jaro-winkler.js';
export { isValidLei, leiCheckDigits } from './lei.js';
export { BLOCK_SHARE, DISTINCTIVE_SHARE, type IndexedRecord, NameIndex, type NameMatch, type ScreenOptions, type ScreenResult, type ScreenStatistics } from './name-index.js';
export {
  bestAssignment,
  DIFFERENT_INITIAL_WEIGHT,
  isClosePair,
  LENGTH_DIFFERENCE_WEIGHT,
  lengthsCanMatch,
  LOOSE_PAIR_WEIGHT,
  nameScore,
  nameSimilarity,
  sameInitialSound,
  SHORTEST_FUZZY_TOKEN,
  TOKEN_MATCH_FLOOR,
  tokenListSimilarity,
  type TokenPairs,
  tokenSimilarity,
  typoAllowance,
} from './name-similarity.js';
export { equivalentWord, LEGAL_FORM_ENTRIES, LEGAL_FORMS, type LegalFormEntry, legalWord, writtenOutName } from './name-vocabulary.js';
export { canonicalLegalWording, CONNECTING_WORDS, nameTokens, nameWords, normaliseName, splitLegalForms, withoutConnectingWords } from './normalise-name.js';
export {
  type Dataset,
  type DatasetProvenance,
  type DigitalCurrencyAddress,
  type FatfJurisdiction,
  type FatfList,
  type FatfLists,
  type LeiDataset,
  type LeiOtherName,
  type LeiParentLink,
  type LeiRecord,
  type LeiRelationship,
  type PepRecord,
  type PepSource,
  type RegulatoryKeyDate,
  type SdnAddress,
  type SdnAlias,
  type SdnAliasType,
  type SdnEntry,
  type SdnType,
} from './reference-data.js';
export { listAge, STALE_LIST_DAYS } from './sanctions-list-age.js';
export {
  addressKey,
  buildSanctionsIndex,
  looksLikeWalletAddress,
  type SanctionsAddressMatch,
  type SanctionsIndex,
  type SanctionsNameMatch,
  type SanctionsScreen,
  type SanctionsScreenOptions,
  type SdnNameKind,
} from './sanctions-screening.js';
export { isPepMatch, isSanctionsMatch, PEP_MATCH_THRESHOLD, SANCTIONS_BLOCK_SCORE, SANCTIONS_MATCH_THRESHOLD, VOP_SCORE_BANDS, type VopNameResult, vopResultForScore } from './thresholds.js';

// Public face of the compliance matching domain (docs/compliance-matching.md): pure functions and
// indexes over the reference data types. verify-payee.ts, gray-zone.ts and vendor-risk.ts, in this
// folder too, are imported by their own paths.

export type {
  Dataset, DatasetProvenance, DigitalCurrencyAddress, FatfJurisdiction, FatfList, FatfLists, LeiDataset, LeiOtherName, LeiParentLink, LeiRecord,
  LeiRelationship, PepRecord, PepSource, RegulatoryKeyDate, SdnAddress, SdnAlias, SdnAliasType, SdnEntry, SdnType,
} from './reference-data.js';

export { CONNECTING_WORDS, LEGAL_FORMS, nameTokens, normaliseName } from './normalise-name.js';
export { jaroWinkler, WINKLER_BOOST_THRESHOLD, WINKLER_PREFIX_LIMIT, WINKLER_PREFIX_SCALE } from './jaro-winkler.js';
export {
  bestAssignment, isClosePair, LENGTH_DIFFERENCE_WEIGHT, lengthsCanMatch, LOOSE_PAIR_WEIGHT, nameScore, nameSimilarity, TOKEN_MATCH_FLOOR, tokenListSimilarity, tokenSimilarity,
  typoAllowance, type TokenPairs,
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
export { buildPepIndex, type PepIndex, type PepMatch, type PepScreenOptions } from '../../pep/domain/pep-screening.js';
export { evaluateMatcher, type LabelledNamePair, type MatcherEvaluation, type ScoredNamePair } from './evaluation.js';
export { nameMatcher } from '../../vop/domain/name-matcher.js';
export {
  assessEntityEsg, ENTITY_ESG_TIERS, entityEsgTierOf, ESG_COVERAGES, fatfStandingOf, fatfStatusOf, narrateEntityEsg, type DeclaredEntityFacts, type EntityEsgAssessment,
  type EntityEsgInput, type EntityEsgParameters, type EntityEsgSubject, type EntityEsgTier, type EsgCoverage, type EsgPillar, type FatfStanding, type FatfStatus,
  type GovernanceInput, type LeiGovernanceFacts,
} from '../../esg/domain/entity-esg.js';
export {
  assessPepMatches, checkPosition, confidenceForScore, eddRequiredFor, matchConfidenceOf, PEP_CONFIDENCE_BANDS, PEP_MATCH_CONFIDENCES, PEP_RISK_LEVELS,
  POSITION_CORROBORATION_SHARE, POSITION_WORD_MATCH, riskLevelOf, type PepMatchConfidence, type PepRiskLevel, type PepScreenAssessment, type PepScreenMatch,
  type PositionCheck,
} from '../../pep/domain/pep-screen.js';
export {
  buildOwnershipChain, CLOSING_EXCEPTIONS, countryOfJurisdiction, decideOwnershipResult, MATCHES_PER_NAME, MAX_OWNERSHIP_LEVELS, OWNERSHIP_SCREENED_TYPES,
  SANCTIONS_BLOCK_SCORE, type FatfAttestation, type JurisdictionRisk, type OwnershipChain, type OwnershipChainInput, type OwnershipNode,
  type OwnershipReason, type OwnershipResult, type OwnershipRole, type OwnershipSanctionsMatch, type ParentRelation, type ParentReporting,
  type ParentReportingStatus, type SanctionsStatus,
} from '../../ownership/domain/ownership-chain.js';
export {
  looksLikeWalletAddress, screenForWidget, WIDGET_MATCH_LIMIT, type SanctionsSignal, type SanctionsVerdict, type SanctionsWidgetScreen, type ScreenedAs,
} from '../../widget/domain/sanctions-verdict.js';
export {
  AML_ACTIONS, AML_CONFIDENCES, AML_DIRECTIONS, AML_EVENT_LEVELS, AML_MATURITIES, AML_RECOMMENDATIONS, AML_RISK_TIERS, AML_SIGNAL_CATEGORIES,
  AML_SIGNAL_CODES, AML_SIGNAL_SCALINGS, amlWeightProblems, amountStdDev, EMPTY_AML_PROFILE, isCountermeasuresCall,
  maturityOf, recordScreen, SANCTIONS_FINDING_KINDS, screenSanctions, type AmlAction, type AmlConfidence, type AmlDirection, type AmlEventLevel,
  type AmlMaturity, type AmlProfileStats, type AmlRecommendation, type AmlRiskTier, type AmlSignalCategory, type AmlSignalCode, type AmlSignalParameters,
  type AmlSignalScaling, type AmlWeights, type SanctionsFinding, type SanctionsFindingKind, type ScreenOutcome,
} from '../../aml/domain/aml.js';
export {
  assessScreen, detectSignals, inStructuringBand, levelOf, reasonAboutFlag, riskScoreOf, tierOf, usdText, type AmlAssessment, type AmlRuleReasoning,
  type AmlScreenFacts, type AmlSignal,
} from '../../aml/domain/assessment.js';

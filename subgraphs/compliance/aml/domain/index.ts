// AML screening, pure (Document 2 §2-§3, docs/aml-model.md): the profile, the signals, the
// assessment and the reasoning pass.

export {
  AML_ACTIONS, AML_CONFIDENCES, AML_DIRECTIONS, AML_EVENT_LEVELS, AML_MATURITIES, AML_RECOMMENDATIONS, AML_RISK_TIERS, AML_SIGNAL_CATEGORIES,
  AML_SIGNAL_CODES, AML_SIGNAL_SCALINGS, type AmlAction, type AmlConfidence, type AmlDirection, type AmlEventLevel, type AmlMaturity,
  type AmlProfileStats, type AmlRecommendation, type AmlRiskTier, type AmlSignalCategory, type AmlSignalCode, type AmlSignalParameters,
  type AmlSignalScaling, amlWeightProblems, type AmlWeights, amountStdDev, EMPTY_AML_PROFILE, maturityOf, recordScreen, SANCTIONS_FINDING_KINDS,
  type SanctionsFinding, type SanctionsFindingKind, type ScreenOutcome, screenSanctions,
} from './aml.js';
export {
  type AmlAssessment, type AmlRuleReasoning, type AmlScreenFacts, type AmlSignal, assessScreen, detectSignals, inStructuringBand, levelOf,
  reasonAboutFlag, riskScoreOf, tierOf, usdText,
} from './assessment.js';

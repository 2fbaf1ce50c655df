// PEP screening, pure (Document 2 §2-§3): the PEP name index and the assessment of its matches.

export {
  assessPepMatches,
  checkPosition,
  confidenceForScore,
  eddRequiredFor,
  matchConfidenceOf,
  PEP_CONFIDENCE_BANDS,
  PEP_MATCH_CONFIDENCES,
  PEP_RISK_LEVELS,
  type PepMatchConfidence,
  type PepRiskLevel,
  type PepScreenAssessment,
  type PepScreenMatch,
  POSITION_CORROBORATION_SHARE,
  POSITION_WORD_MATCH,
  type PositionCheck,
  riskLevelOf,
} from './pep-screen.js';
export { buildPepIndex, type PepIndex, type PepMatch, type PepScreenOptions } from './pep-screening.js';

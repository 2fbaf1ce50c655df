export { addWeekdays, dayOf, isoWeekStart, isWeekday, startOfDay, weekdayOnOrBefore, weekdaysBetween } from './calendar.js';
export type { Calibration, ReliabilityBucket, ScoredCall } from './calibration.js';
export { brierScore, calibrationOf, scoredCall } from './calibration.js';
export type {
  CatalogueEdge,
  CatalogueNetwork,
  CatalogueNode,
  CausalGraph,
  CausalGraphParameters,
  GraphEdge,
  GraphNetwork,
  GraphNode,
  MeasuredStress,
  NodeIndicator,
  StressEvidence,
  StressReader,
} from './causal-graph.js';
export { computeCausalGraph, indicatorStress } from './causal-graph.js';
export type { CandidateCall, Direction, FortyEightHourCalls, FortyEightHourParameters, LevelBucket, MomentumBucket } from './forty-eight-hour.js';
export { callDays, candidateCall, draftOf, fortyEightHourCalls, fortyEightHourLedgerModel, observeFortyEightHour } from './forty-eight-hour.js';
export type { CallStatus, Comparison, DraftCall, Evidence, LedgerCall, LedgerModel, ModelRecord, Observation, Resolution, ResolutionRule, ResolutionStep, ResolutionTiming } from './ledger.js';
export { callId, meetsThreshold, resolutionStep, resolvedBy, seriesAtTarget, voided } from './ledger.js';
export type { RegimeCallParameters, RegimeModelSpec } from './regime-call.js';
export { persistenceProbability, regimeLedgerModel } from './regime-call.js';
export type { FuelFactor, FuelTable, GridCost, SectorExposure, SectorName, TransitionRisk, TransitionRiskParameters, TransitionStatus } from './transition-risk.js';
export { computeTransitionRisk } from './transition-risk.js';

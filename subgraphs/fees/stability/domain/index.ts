// The stability oracle's pure logic: the pipeline (signals to score, band, peg and confidence),
// the decision table of GET /reliability, and the answers built from the recorded runs.
export type { StabilityParameters } from './parameters.js';
export { type Band, type ReliabilityAction, reliabilityDecision, runStabilityPipeline, type StabilityAssessment, stabilityBand } from './pipeline.js';
export { buildOracleHistory, buildOracleStatus, buildReliability, buildStabilityHealth, RELIABILITY_SCHEMA, stabilityIsHealthy, type StabilityRunOutput, type StabilityThresholds } from './views.js';

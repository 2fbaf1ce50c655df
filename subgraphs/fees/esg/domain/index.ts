// The ESG oracle's pure logic: the rail's E, S and G scores from published indicators
// (methodology rail-esg/1) and the answers built from the recorded runs.
export { assessRailEsg, type EsgOracleParameters, type IndicatorValue, type RailEsgAssessment, type RailEsgInputs } from './assessment.js';
export { buildEsgHealth, buildEsgReliability, buildEsgScore, ESG_RELIABILITY_SCHEMA, ESG_SCORE_SCHEMA, type EsgRunOutput } from './views.js';

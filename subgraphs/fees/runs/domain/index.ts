// The oracle runs' pure logic: intervals and uptime from the record, the views every oracle's
// answers share, the intelligence object, and the figures in the oracle contracts' units.
export {
  draftIntelligence,
  type IntelligenceDraft,
  intelligenceFrom,
  type IntelligenceInput,
  type IntelligenceObject,
  type IntelligenceOutlook,
  type IntelligenceParameters,
  outlookOf,
} from './intelligence.js';
export { basketInMillionths, ON_CHAIN_SCALE, type OnChainBasket, toCentiBps, toMillionths } from './on-chain.js';
export { averageScore24h, finishedRuns, humanDuration, type OracleRunRecord, type OracleRunStatus, type OracleUptime, slotOf, uptimeOf } from './runs.js';
export { epochSeconds, HISTORY_LENGTH, type OracleDataQuality, type OracleState, oracleState, type RunsView, withIntelligence } from './views.js';

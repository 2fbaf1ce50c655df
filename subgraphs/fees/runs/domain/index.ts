// The oracle runs' pure logic: intervals and uptime from the record, the views every oracle's
// answers share, the intelligence object, and the figures in the oracle contracts' units.
export {
  averageScore24h,
  finishedRuns,
  humanDuration,
  slotOf,
  uptimeOf,
  type OracleRunRecord,
  type OracleRunStatus,
  type OracleUptime,
} from './runs.js';
export { epochSeconds, HISTORY_LENGTH, oracleState, withIntelligence, type OracleDataQuality, type OracleState, type RunsView } from './views.js';
export {
  draftIntelligence,
  intelligenceFrom,
  outlookOf,
  type IntelligenceDraft,
  type IntelligenceInput,
  type IntelligenceObject,
  type IntelligenceOutlook,
  type IntelligenceParameters,
} from './intelligence.js';
export { basketInMillionths, ON_CHAIN_SCALE, toCentiBps, toMillionths, type OnChainBasket } from './on-chain.js';

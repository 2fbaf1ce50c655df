// The subgraph-wide domain: the fee model (rates, tiers, exact amounts) that the quotes, the ESG
// oracle and the contracts' parameters share, the oracles' readings as quotes report them, the
// FX series form, and the signal types the feeds deliver. Each family's own logic is in its domain/.
export { classifyEsgScore, selectVolumeTier } from './classify-tiers.js';
export { computeFees, discountedCoreBps, esgBpsFor, listPriceTotalBps, usdAtBps, usdAtPct } from './compute-fees.js';
export { CURRENCY_CODE, epochSecondsOfDate, type FxObservation, FxSeriesError, latestObservation, parseFxSeries } from './fx-rates.js';
export { interpolate, type ScorePoints } from './interpolate.js';
export { NO_ORACLE_READINGS, type OracleReadings } from './readings.js';
export type { FeedState, Observation, SeriesFrequency, SignalSeries, SignalSet, StablecoinPrices } from './stability/types.js';
export type { BpsAndUsd, CompetitiveBenchmark, EsgScoreSource, EsgTierRule, FeeBreakdown, FeeParameters, QuoteTerms, ScenarioExampleInput, VolumeTierRule } from './types.js';

export type {
  BpsAndUsd,
  CompetitiveBenchmark,
  EsgScoreSource,
  EsgTierRule,
  FeeBreakdown,
  FeeParameters,
  QuoteTerms,
  ScenarioExampleInput,
  VolumeTierRule,
} from './types.js';
export { classifyEsgScore, selectVolumeTier } from './classify-tiers.js';
export { computeFees, esgBpsFor, listPriceTotalBps, usdAtBps } from './compute-fees.js';
export {
  checkQuoteId,
  issueQuoteId,
  looksLikeQuoteId,
  parseQuoteId,
  QUOTE_ID_PREFIX,
  QUOTE_NONCE_HEX_LENGTH,
  type QuoteIdCheck,
  type QuoteSigner,
} from './quote-id.js';
export {
  buildQuote,
  NO_ORACLE_READINGS,
  QUOTE_SCHEMA,
  type CompetitiveComparison,
  type EsgImpact,
  type OracleContext,
  type OracleReadings,
  type Quote,
  type QuoteContext,
} from './build-quote.js';
export {
  buildEsgManifest,
  buildManifest,
  type EsgManifest,
  MANIFEST_SCHEMA,
  STABILITY_API_VERSION,
  type ContractAddresses,
  type Manifest,
  type ManifestFees,
  type StabilityEndpoints,
} from './build-manifest.js';
export {
  buildEsgFeeSchedule,
  buildFeeSchedule,
  describeEsgTiers,
  FEE_SCHEDULE_SCHEMA,
  type EsgFeeSchedule,
  type EsgFeeTier,
  type FeeSchedule,
  type FeeScheduleRate,
  type VolumeTierDescription,
} from './build-fee-schedule.js';
export { buildEsgQuote, ESG_QUOTE_SCHEMA, type EsgQuote, type EsgQuoteTerms } from './build-esg-quote.js';
export { CURRENCY_CODE, epochSecondsOfDate, FxSeriesError, latestObservation, parseFxSeries, type FxObservation } from './fx-rates.js';
export { basketInMillionths, ON_CHAIN_SCALE, toCentiBps, toMillionths, type OnChainBasket } from './oracle-on-chain.js';

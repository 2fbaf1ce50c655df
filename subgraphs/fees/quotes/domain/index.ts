// The quotes' pure logic: quote ids, the fee quote, the fee schedules, the manifests and the ESG fee quote.
export { buildEsgQuote, ESG_QUOTE_SCHEMA, type EsgQuote, type EsgQuoteTerms } from './build-esg-quote.js';
export {
  buildEsgFeeSchedule,
  buildFeeSchedule,
  describeEsgTiers,
  type EsgFeeSchedule,
  type EsgFeeTier,
  FEE_SCHEDULE_SCHEMA,
  type FeeSchedule,
  type FeeScheduleRate,
  type VolumeTierDescription,
} from './build-fee-schedule.js';
export {
  buildEsgManifest,
  buildManifest,
  type ContractAddresses,
  type EsgManifest,
  type Manifest,
  MANIFEST_SCHEMA,
  type ManifestFees,
  STABILITY_API_VERSION,
  type StabilityEndpoints,
} from './build-manifest.js';
export { buildQuote, type CompetitiveComparison, type EsgImpact, type OracleContext, type Quote, QUOTE_SCHEMA, type QuoteContext } from './build-quote.js';
export { checkQuoteId, issueQuoteId, looksLikeQuoteId, parseQuoteId, QUOTE_ID_PREFIX, QUOTE_NONCE_HEX_LENGTH, type QuoteIdCheck, type QuoteSigner } from './quote-id.js';

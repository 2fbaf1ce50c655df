// The quotes' pure logic: quote ids, the fee quote, the fee schedules, the manifests and the ESG fee quote.
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
export { buildQuote, QUOTE_SCHEMA, type CompetitiveComparison, type EsgImpact, type OracleContext, type Quote, type QuoteContext } from './build-quote.js';
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

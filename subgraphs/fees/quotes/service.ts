import type { RailChain } from '../../../platform/chain/index.js';
import type { Clock } from '../../../platform/clock.js';
import { type IdSource, randomIds } from '../../../platform/ids.js';
import { competitiveBenchmarks, feeParameters } from '../data/index.js';
import { type EsgScoreSource, NO_ORACLE_READINGS, type OracleReadings, type QuoteTerms } from '../domain/index.js';
import { BASE_NETWORK } from '../shared/constants.js';
import {
  buildEsgFeeSchedule,
  buildEsgManifest,
  buildEsgQuote,
  buildFeeSchedule,
  buildManifest,
  buildQuote,
  checkQuoteId,
  type ContractAddresses,
  type EsgManifest,
  type EsgQuote,
  looksLikeQuoteId,
  type Manifest,
  type Quote,
  QUOTE_NONCE_HEX_LENGTH,
  type QuoteIdCheck,
  type QuoteSigner,
  type StabilityEndpoints,
} from './domain/index.js';
import { type FeeVerification, verifyFeesOnChain } from './fee-verification.js';
import { type FxRateAnswer, fxRateOf } from './fx-rates.js';
import type { EsgQuoteRequest, QuoteRequest, QuoteVerifyRequest, VerifyFeesRequest } from './inputs.js';
import { type QuoteVerification, quoteVerificationOf, termsToVerify } from './quote-verification.js';
import type { FeeStore } from './store.js';

/** Where issued quotes go for the audit trail: accepted at once, written later (decision 0001). */
export interface IssuedQuoteLedger {
  record(quote: Quote): void;
}

/** The endpoint map of a service with no routes registered (unit tests of the service); the server generates it from its routes. */
export const STABILITY_ENDPOINTS: StabilityEndpoints = {
  manifest: 'GET /manifest',
  feeSchedule: 'GET /fee-schedule',
  quote: 'GET /quote',
  quotePost: 'POST /quote',
  verifyFees: 'GET /verify-fees',
  openapi: 'GET /openapi.json',
};
const STABILITY_CAPABILITIES = ['manifest', 'fee-schedule', 'fee-quote', 'fee-verification', 'reliability', 'oracle-history', 'usd-health', 'openapi', 'ai-plugin', 'llms-txt', 'widget'];

export interface FeesServiceDeps {
  /** The rail the router is read from (GET /verify-fees); undefined: no chain at all. */
  chain?: RailChain;
  /** Longest wait for the chain's answer. */
  chainTimeoutMs?: number;
  clock: Clock;
  signer: QuoteSigner;
  /** Reads the ledger (`quote(quoteId)`). */
  store: Pick<FeeStore, 'findQuotes'>;
  ledger: IssuedQuoteLedger;
  contracts: ContractAddresses;
  /** Source of each quote's nonce (platform/ids); the platform's `ids`. Default: crypto-random. */
  ids?: IdSource;
  /** Each service's endpoint map, generated from its registered routes (decision 0033); default: STABILITY_ENDPOINTS, and none for the ESG oracle. */
  endpoints?: { stability(): StabilityEndpoints; esg(): StabilityEndpoints };
  /** The oracles' latest runs, read without waiting (decision 0036); default: none on record. */
  oracleReadings?: () => OracleReadings;
}

/** What every capability reads: the deps, with their defaults filled in. */
interface QuotesContext {
  deps: FeesServiceDeps;
  ids: IdSource;
  oracleReadings: () => OracleReadings;
}

/** A fresh quote nonce as the domain wants it: QUOTE_NONCE_HEX_LENGTH hex digits from the IdSource's random bytes. */
function drawQuoteNonce(ids: IdSource): string {
  return Buffer.from(ids.token(QUOTE_NONCE_HEX_LENGTH / 2), 'base64url').toString('hex');
}

/**
 * An omitted esgScore is the ESG oracle's live score, its latest scores.average, as Document 1
 * says; before any oracle run it is the schema default 50 (decisions 0003 and 0036).
 */
function resolveEsgScore(esgScore: number | undefined, oracleAverage: number | undefined): { esgScore: number; source: EsgScoreSource } {
  if (esgScore !== undefined) return { esgScore, source: 'request' };
  if (oracleAverage !== undefined) return { esgScore: oracleAverage, source: 'oracle' };
  return { esgScore: feeParameters.defaultEsgScore, source: 'schema-default' };
}

/** A quote request's terms; `oracleAverage` is the ESG oracle's latest average, when there is one. */
export function toQuoteTerms(request: QuoteRequest, oracleAverage?: number): { terms: QuoteTerms; esgScoreSource: EsgScoreSource } {
  const { esgScore, source } = resolveEsgScore(request.esgScore, oracleAverage);
  return {
    terms: { amountUsd: request.amountUsd, hasFx: request.hasFx ?? false, esgScore, monthlyVolumeUsd: request.monthlyVolumeUsd ?? 0 },
    esgScoreSource: source,
  };
}

const oracleEsgAverage = (context: QuotesContext) => context.oracleReadings().esg?.average;

/** The configured addresses, else the embedded rail's deployed contracts once the rail is up. */
function contractsOf(deps: FeesServiceDeps): ContractAddresses {
  const deployed = deps.chain?.current()?.contracts;
  const { token, esgOracle, redistribution, stabilityPID, basketPeg } = deps.contracts;
  return {
    token: token ?? deployed?.token ?? null,
    esgOracle: esgOracle ?? deployed?.esgOracle ?? null,
    redistribution: redistribution ?? deployed?.redistribution ?? null,
    stabilityPID: stabilityPID ?? deployed?.stabilityPID ?? null,
    basketPeg: basketPeg ?? deployed?.basketPeg ?? null,
  };
}

function manifest({ deps }: QuotesContext): Manifest {
  return buildManifest({
    now: deps.clock.now(),
    parameters: feeParameters,
    network: BASE_NETWORK,
    contracts: contractsOf(deps),
    endpoints: deps.endpoints?.stability() ?? STABILITY_ENDPOINTS,
    capabilities: STABILITY_CAPABILITIES,
  });
}

/** GET /esg/manifest (decision 0033). */
function esgManifest({ deps }: QuotesContext): EsgManifest {
  return buildEsgManifest({
    now: deps.clock.now(),
    parameters: feeParameters,
    network: BASE_NETWORK,
    esgOracle: contractsOf(deps).esgOracle,
    endpoints: deps.endpoints?.esg() ?? {},
    methodology: 'rail-esg/1 (docs/esg-oracle-methodology.md)',
  });
}

/** A pure computation plus a non-blocking hand-off to the ledger: no database on the request's path. */
function issueQuote(context: QuotesContext, request: QuoteRequest): Quote {
  const { deps } = context;
  const { terms, esgScoreSource } = toQuoteTerms(request, oracleEsgAverage(context));
  const quote = buildQuote(terms, {
    now: deps.clock.now(),
    parameters: feeParameters,
    benchmarks: competitiveBenchmarks,
    signer: deps.signer,
    nonce: drawQuoteNonce(context.ids),
    esgScoreSource,
    network: BASE_NETWORK,
    oracle: context.oracleReadings(),
  });
  deps.ledger.record(quote);
  return quote;
}

/**
 * Whether we issued `quoteId` for exactly these terms, and whether it is still valid, from its
 * HMAC alone: a settlement verifies the quote it uses this way (the ledger may not hold it yet).
 */
function verifyQuoteId(context: QuotesContext, quoteId: string, request: QuoteRequest): QuoteIdCheck {
  const { terms } = toQuoteTerms(request, oracleEsgAverage(context));
  return checkQuoteId(quoteId, terms, context.deps.signer, feeParameters.quoteValiditySeconds, context.deps.clock.now());
}

/**
 * POST /stability/quote/verify (decision 0026): the quote id checked for the terms a payment
 * uses it with, by its HMAC and expiry. Omitted esgScore/monthlyVolumeUsd are the ledger's
 * (when it already holds the quote and answers), else the oracle's or the defaults; the HMAC decides.
 */
async function verifyQuoteForTerms(context: QuotesContext, request: QuoteVerifyRequest): Promise<QuoteVerification> {
  const { deps } = context;
  let issued: Quote | undefined;
  if (request.esgScore === undefined && request.monthlyVolumeUsd === undefined && looksLikeQuoteId(request.quoteId)) {
    issued = await deps.store.findQuotes([request.quoteId]).then(
      (found) => found.get(request.quoteId),
      () => undefined,
    );
  }
  const now = deps.clock.now();
  const candidates = termsToVerify(request, issued, oracleEsgAverage(context)).map((chosen) => ({
    chosen,
    check: checkQuoteId(request.quoteId, chosen.terms, deps.signer, feeParameters.quoteValiditySeconds, now),
  }));
  const { chosen, check } = candidates.find((candidate) => candidate.check.valid) ?? candidates.at(-1)!;
  return quoteVerificationOf(request.quoteId, chosen, check);
}

function esgQuote(context: QuotesContext, request: EsgQuoteRequest): EsgQuote {
  const { esgScore, source } = resolveEsgScore(request.esgScore, oracleEsgAverage(context));
  return buildEsgQuote({ amountUsd: request.amountUsd, esgScore }, source, context.deps.clock.now(), feeParameters);
}

/** The off-chain fees of these terms against the settlement router's previewFees (decision 0009). */
function verifyTerms({ deps }: QuotesContext, terms: QuoteTerms): Promise<FeeVerification> {
  return verifyFeesOnChain(terms, { chain: deps.chain, timeoutMs: deps.chainTimeoutMs ?? 5000, parameters: feeParameters, now: deps.clock.now() });
}

/** The fees capabilities (quotes, schedules, manifests, verifications, FX rates), called alike by routes.ts and resolvers.ts. */
export function createFeesService(deps: FeesServiceDeps) {
  const context: QuotesContext = { deps, ids: deps.ids ?? randomIds, oracleReadings: deps.oracleReadings ?? (() => NO_ORACLE_READINGS) };
  return {
    manifest: () => manifest(context),
    esgManifest: () => esgManifest(context),
    feeSchedule: () => buildFeeSchedule(deps.clock.now(), feeParameters, competitiveBenchmarks),
    issueQuote: (request: QuoteRequest) => issueQuote(context, request),
    verifyQuoteId: (quoteId: string, request: QuoteRequest) => verifyQuoteId(context, quoteId, request),
    verifyQuoteForTerms: (request: QuoteVerifyRequest) => verifyQuoteForTerms(context, request),
    /** GET /stability/fx/:currency (decision 0026): the latest FX rate against USD, units of the currency per 1 USD. */
    fxRate: (currency: string): FxRateAnswer => fxRateOf(currency, deps.clock.now()),
    /** Ids without the quote id form were never issued: they are not looked up (a NUL byte would fail the query). */
    findQuotes: (quoteIds: readonly string[]) => deps.store.findQuotes(quoteIds.filter(looksLikeQuoteId)),
    esgQuote: (request: EsgQuoteRequest) => esgQuote(context, request),
    esgFeeSchedule: () => buildEsgFeeSchedule(deps.clock.now(), feeParameters),
    /** The off-chain fees of these terms against the settlement router's previewFees (decision 0009). */
    verifyFees: (request: VerifyFeesRequest) => verifyTerms(context, toQuoteTerms(request).terms),
    /** An issued quote's terms (its volume tier included) against the router's previewFees. */
    verifyQuote: (quote: Quote) => {
      const { amountUsd, hasFx, esgScore, monthlyVolumeUsd } = quote.input;
      return verifyTerms(context, { amountUsd, hasFx, esgScore, monthlyVolumeUsd });
    },
  };
}

export type FeesService = ReturnType<typeof createFeesService>;

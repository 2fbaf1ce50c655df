import type { Clock } from '../../platform/clock.js';
import { randomIds, type IdSource } from '../../platform/ids.js';
import type { ContractAddresses, EsgScoreSource, Quote, QuoteIdCheck, QuoteSigner, QuoteTerms, StabilityEndpoints } from './domain/index.js';
import {
  buildEsgFeeSchedule,
  buildEsgQuote,
  buildFeeSchedule,
  buildManifest,
  buildQuote,
  checkQuoteId,
  looksLikeQuoteId,
  QUOTE_NONCE_HEX_LENGTH,
} from './domain/index.js';
import { competitiveBenchmarks, feeParameters } from './data/index.js';
import type { EsgQuoteRequest, QuoteRequest } from './inputs.js';
import type { FeeStore } from './store.js';

/** Where issued quotes go for the audit trail: accepted at once, written later (decision 0001). */
export interface IssuedQuoteLedger {
  record(quote: Quote): void;
}

export const BASE_NETWORK = { name: 'base', chainId: 8453 } as const;

/** What the manifest advertises, relative to {stability_url}: exactly the paths routes.ts serves. */
export const STABILITY_ENDPOINTS: StabilityEndpoints = {
  manifest: 'GET /manifest',
  feeSchedule: 'GET /fee-schedule',
  quote: 'GET /quote',
  quotePost: 'POST /quote',
  openapi: 'GET /openapi.json',
};
const STABILITY_CAPABILITIES = ['manifest', 'fee-schedule', 'fee-quote', 'openapi'];

export interface FeesServiceDeps {
  clock: Clock;
  signer: QuoteSigner;
  /** Reads the ledger (`quote(quoteId)`). */
  store: Pick<FeeStore, 'findQuotes'>;
  ledger: IssuedQuoteLedger;
  contracts: ContractAddresses;
  /** Source of each quote's nonce (platform/ids); the platform's `ids`. Default: crypto-random. */
  ids?: IdSource;
}

/** A fresh quote nonce as the domain wants it: QUOTE_NONCE_HEX_LENGTH hex digits from the IdSource's random bytes. */
function drawQuoteNonce(ids: IdSource): string {
  return Buffer.from(ids.token(QUOTE_NONCE_HEX_LENGTH / 2), 'base64url').toString('hex');
}

/** Omitted esgScore takes the spec's schema default (docs/decisions/0003-esg-score-default.md). */
function resolveEsgScore(esgScore: number | undefined): { esgScore: number; source: EsgScoreSource } {
  return esgScore === undefined
    ? { esgScore: feeParameters.defaultEsgScore, source: 'schema-default' }
    : { esgScore, source: 'request' };
}

export function toQuoteTerms(request: QuoteRequest): { terms: QuoteTerms; esgScoreSource: EsgScoreSource } {
  const { esgScore, source } = resolveEsgScore(request.esgScore);
  return {
    terms: { amountUsd: request.amountUsd, hasFx: request.hasFx ?? false, esgScore, monthlyVolumeUsd: request.monthlyVolumeUsd ?? 0 },
    esgScoreSource: source,
  };
}

/** The fees capabilities, called alike by routes.ts and resolvers.ts. */
export function createFeesService(deps: FeesServiceDeps) {
  const ids = deps.ids ?? randomIds;
  return {
    manifest() {
      return buildManifest({
        now: deps.clock.now(),
        parameters: feeParameters,
        network: BASE_NETWORK,
        contracts: deps.contracts,
        endpoints: STABILITY_ENDPOINTS,
        capabilities: STABILITY_CAPABILITIES,
      });
    },
    feeSchedule: () => buildFeeSchedule(deps.clock.now(), feeParameters, competitiveBenchmarks),
    /** A pure computation plus a non-blocking hand-off to the ledger: no database on the request's path. */
    issueQuote(request: QuoteRequest): Quote {
      const { terms, esgScoreSource } = toQuoteTerms(request);
      const quote = buildQuote(terms, {
        now: deps.clock.now(),
        parameters: feeParameters,
        benchmarks: competitiveBenchmarks,
        signer: deps.signer,
        nonce: drawQuoteNonce(ids),
        esgScoreSource,
        network: BASE_NETWORK,
      });
      deps.ledger.record(quote);
      return quote;
    },
    /**
     * Whether we issued `quoteId` for exactly these terms, and whether it is still valid, from its
     * HMAC alone: a settlement verifies the quote it uses this way (the ledger may not hold it yet).
     */
    verifyQuoteId(quoteId: string, request: QuoteRequest): QuoteIdCheck {
      const { terms } = toQuoteTerms(request);
      return checkQuoteId(quoteId, terms, deps.signer, feeParameters.quoteValiditySeconds, deps.clock.now());
    },
    /** Ids without the quote id form were never issued: they are not looked up (a NUL byte would fail the query). */
    findQuotes: (quoteIds: readonly string[]) => deps.store.findQuotes(quoteIds.filter(looksLikeQuoteId)),
    esgQuote(request: EsgQuoteRequest) {
      const { esgScore, source } = resolveEsgScore(request.esgScore);
      return buildEsgQuote({ amountUsd: request.amountUsd, esgScore }, source, deps.clock.now(), feeParameters);
    },
    esgFeeSchedule: () => buildEsgFeeSchedule(deps.clock.now(), feeParameters),
  };
}

export type FeesService = ReturnType<typeof createFeesService>;

import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { HttpServer, ServiceErrorShape } from '../../platform/http.js';
import { endpointMap, registerDiscoveryDocuments, type DiscoveryInfo, type OpenApiDocument } from '../../platform/discovery.js';
import { registerOpenApi } from '../../platform/openapi.js';
import { STABILITY_API_VERSION } from './domain/index.js';
import {
  esgQuoteBodySchema,
  esgQuoteQuerySchema,
  esgQuoteRequestExample,
  fxCurrencyParamsSchema,
  quoteBodySchema,
  quoteQuerySchema,
  quoteRequestExample,
  quoteVerifyBodySchema,
  verifyFeesQuerySchema,
} from './inputs.js';
import {
  esgFeeScheduleResponseSchema,
  esgQuoteResponseSchema,
  feeScheduleResponseSchema,
  fxRateResponseSchema,
  manifestResponseSchema,
  quoteErrorSchema,
  quoteResponseSchema,
  quoteVerificationResponseSchema,
  verifyFeesResponseSchema,
} from './responses.js';
import { FX_RATE_MAX_AGE_SECONDS } from './fx-rates.js';
import type { FeesService } from './service.js';
import { esgOracleRoutes, stabilityOracleRoutes } from './oracle-routes.js';
import type { OracleService } from './oracle-service.js';
import { esgManifestResponseSchema } from './oracle-responses.js';
import { corridorsWidgetRoute, esgWidgetRoute } from './widget-routes.js';
import type { EntityEsgClient } from './upstream/compliance.js';
import type { OracleReadings } from './domain/index.js';


/**
 * The quote services' documented error body is {error, example}; every error under their prefixes
 * (404, 405 and Fastify's own included) uses it. A client error of a quote request, a body that is
 * not JSON included, is an invalid request and answers 400 (decision 0003).
 */
function quoteServiceErrorShape(prefix: string, example: Record<string, unknown>): ServiceErrorShape {
  return {
    prefix,
    refine: (error) =>
      error.code === 'GEN_ERR_UNSUPPORTED_MEDIA_TYPE' || error.code === 'GEN_ERR_BAD_REQUEST'
        ? new AppError('FEE_ERR_INVALID_QUOTE_PARAMS', { message: error.message, cause: error })
        : error,
    body: (error) => ({ error: error.message, example }),
  };
}

/** Where each service's endpoint map is read from once its routes are registered (the manifests, REST and GraphQL alike). */
export interface EndpointRegistry {
  stability?: () => Record<string, string>;
  esg?: () => Record<string, string>;
}

export interface DiscoveryOptions {
  registry: EndpointRegistry;
  publicBaseUrl: string | undefined;
  /** For the widgets: the oracles' latest runs, and the compliance oracle's entity ESG. */
  readings: () => OracleReadings;
  entityEsg: EntityEsgClient | undefined;
}

const STABILITY_DISCOVERY: DiscoveryInfo = {
  prefix: '/stability',
  nameForHuman: 'Settlement rail stability oracle',
  nameForModel: 'settlement_rail_stability',
  descriptionForHuman: 'Exact fee quotes, on-chain fee verification and live stability signals for stablecoin settlement on Base.',
  descriptionForModel:
    'Call GET /manifest once, GET /fee-schedule, then GET or POST /quote for an exact fee with a quoteId, GET /verify-fees to compare it with the settlement router, and GET /reliability before settling: proceed when isHealthy; hold when peg.deviationBps >= 50; defer large settlements below a stability score of 75.',
  fullText: true,
};

const ESG_DISCOVERY: DiscoveryInfo = {
  prefix: '/esg',
  nameForHuman: 'Settlement rail ESG oracle',
  nameForModel: 'settlement_rail_esg',
  descriptionForHuman: "Live E, S and G scores of the rail and the ESG fee derived from them.",
  descriptionForModel: 'GET /esg-score gives scores.average: use it as the esgScore of the stability quote. GET /quote prices the ESG fee of one transaction; GET /fee-schedule lists every tier.',
  fullText: false,
};

function registerDiscovery(app: HttpServer, info: DiscoveryInfo, options: DiscoveryOptions): () => Record<string, string> {
  registerDiscoveryDocuments(app, info, options.publicBaseUrl);
  return () => endpointMap(app.swagger() as unknown as OpenApiDocument, info);
}

function stabilityRoutes(service: FeesService, oracles: OracleService, discovery: DiscoveryOptions): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    await registerOpenApi(app, {
      prefix: '/stability',
      title: 'Settlement rail stability oracle',
      version: STABILITY_API_VERSION,
      description: 'Fee model, manifest and quotes of the stability oracle (Document 1).',
    });
    app.errorShapes.register(quoteServiceErrorShape('/stability', quoteRequestExample));
    await app.register(stabilityOracleRoutes(oracles));
    await app.register(corridorsWidgetRoute(discovery.readings));
    discovery.registry.stability = registerDiscovery(app, STABILITY_DISCOVERY, discovery);
    app.get('/stability/manifest', { schema: { summary: 'Protocol manifest; call once and cache', response: { 200: manifestResponseSchema } } }, async () =>
      service.manifest(),
    );
    app.get('/stability/fee-schedule', { schema: { summary: 'Full fee table with tiers; cache', response: { 200: feeScheduleResponseSchema } } }, async () => service.feeSchedule());
    app.get(
      '/stability/quote',
      { schema: { summary: 'Fee quote (query parameters)', querystring: quoteQuerySchema, response: { 200: quoteResponseSchema, 400: quoteErrorSchema } } },
      async (request) => service.issueQuote(request.query),
    );
    app.post(
      '/stability/quote',
      { schema: { summary: 'Fee quote (JSON body)', body: quoteBodySchema, response: { 200: quoteResponseSchema, 400: quoteErrorSchema } } },
      async (request) => service.issueQuote(request.body),
    );
    app.get(
      '/stability/verify-fees',
      {
        schema: {
          summary: 'The off-chain quote against the settlement router previewFees',
          querystring: verifyFeesQuerySchema,
          response: { 200: verifyFeesResponseSchema, 400: quoteErrorSchema },
        },
      },
      async (request) => service.verifyFees(request.query),
    );
    app.post(
      '/stability/quote/verify',
      {
        schema: {
          summary: 'A quote id checked by its HMAC and expiry for the terms it is used with; the quoted fee when valid (decision 0026)',
          body: quoteVerifyBodySchema,
          response: { 200: quoteVerificationResponseSchema, 400: quoteErrorSchema },
        },
      },
      async (request) => service.verifyQuoteForTerms(request.body),
    );
    app.get(
      '/stability/fx/:currency',
      {
        schema: {
          summary: 'The latest FX rate against USD (units of the currency per 1 USD, Federal Reserve H.10; decision 0026)',
          params: fxCurrencyParamsSchema,
          response: { 200: fxRateResponseSchema, 400: quoteErrorSchema, 404: quoteErrorSchema },
        },
      },
      async (request, reply) => {
        const answer = service.fxRate(request.params.currency);
        reply.header('cache-control', `public, max-age=${FX_RATE_MAX_AGE_SECONDS}`);
        return answer;
      },
    );
  };
}

function esgRoutes(service: FeesService, oracles: OracleService, discovery: DiscoveryOptions): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    await registerOpenApi(app, {
      prefix: '/esg',
      title: 'Settlement rail ESG oracle',
      version: STABILITY_API_VERSION,
      description: 'ESG fee quotes and the ESG fee schedule (Document 1).',
    });
    app.errorShapes.register(quoteServiceErrorShape('/esg', esgQuoteRequestExample));
    await app.register(esgOracleRoutes(oracles));
    await app.register(esgWidgetRoute(discovery.entityEsg));
    discovery.registry.esg = registerDiscovery(app, ESG_DISCOVERY, discovery);
    app.get('/esg/manifest', { schema: { summary: 'Discovery; call once and cache', response: { 200: esgManifestResponseSchema } } }, async () => service.esgManifest());
    app.get('/esg/fee-schedule', { schema: { summary: 'ESG fee table across all score tiers', response: { 200: esgFeeScheduleResponseSchema } } }, async () => service.esgFeeSchedule());
    app.get(
      '/esg/quote',
      { schema: { summary: 'ESG fee for a transaction (query)', querystring: esgQuoteQuerySchema, response: { 200: esgQuoteResponseSchema, 400: quoteErrorSchema } } },
      async (request) => service.esgQuote(request.query),
    );
    app.post(
      '/esg/quote',
      { schema: { summary: 'ESG fee for a transaction (JSON body)', body: esgQuoteBodySchema, response: { 200: esgQuoteResponseSchema, 400: quoteErrorSchema } } },
      async (request) => service.esgQuote(request.body),
    );
  };
}

export function feesRoutes(service: FeesService, oracles: OracleService, discovery: DiscoveryOptions): FastifyPluginAsync {
  return async (app) => {
    await app.register(stabilityRoutes(service, oracles, discovery));
    await app.register(esgRoutes(service, oracles, discovery));
  };
}

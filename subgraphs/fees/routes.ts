import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { HttpServer, ServiceErrorShape } from '../../platform/http.js';
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
import type { FeesService } from './service.js';
import { esgOracleRoutes, stabilityOracleRoutes } from './oracle-routes.js';
import type { OracleService } from './oracle-service.js';


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

function stabilityRoutes(service: FeesService, oracles: OracleService): FastifyPluginAsync {
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
      async (request) => service.fxRate(request.params.currency),
    );
  };
}

function esgRoutes(service: FeesService, oracles: OracleService): FastifyPluginAsync {
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

export function feesRoutes(service: FeesService, oracles: OracleService): FastifyPluginAsync {
  return async (app) => {
    await app.register(stabilityRoutes(service, oracles));
    await app.register(esgRoutes(service, oracles));
  };
}

import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { quoteErrorSchema } from '../shared/responses.js';
import { FX_RATE_MAX_AGE_SECONDS } from './fx-rates.js';
import { esgQuoteBodySchema, esgQuoteQuerySchema, fxCurrencyParamsSchema, quoteBodySchema, quoteQuerySchema, quoteVerifyBodySchema, verifyFeesQuerySchema } from './inputs.js';
import {
  esgFeeScheduleResponseSchema,
  esgManifestResponseSchema,
  esgQuoteResponseSchema,
  feeScheduleResponseSchema,
  fxRateResponseSchema,
  manifestResponseSchema,
  quoteResponseSchema,
  quoteVerificationResponseSchema,
  verifyFeesResponseSchema,
} from './responses.js';
import type { FeesService } from './service.js';

/** The quote paths under {stability_url}: manifest, fee schedule, quotes, their verifications and the FX rates (Document 1 §2). */
export function stabilityQuoteRoutes(service: FeesService): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.get('/stability/manifest', { schema: { summary: 'Protocol manifest; call once and cache', response: { 200: manifestResponseSchema } } }, async () => service.manifest());
    app.get('/stability/fee-schedule', { schema: { summary: 'Full fee table with tiers; cache', response: { 200: feeScheduleResponseSchema } } }, async () => service.feeSchedule());
    app.get(
      '/stability/quote',
      { schema: { summary: 'Fee quote (query parameters)', querystring: quoteQuerySchema, response: { 200: quoteResponseSchema, 400: quoteErrorSchema } } },
      async (request) => service.issueQuote(request.query),
    );
    app.post('/stability/quote', { schema: { summary: 'Fee quote (JSON body)', body: quoteBodySchema, response: { 200: quoteResponseSchema, 400: quoteErrorSchema } } }, async (request) =>
      service.issueQuote(request.body),
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
  });
}

/** The ESG fee quote paths under {esg_url}: manifest, fee schedule and quotes (Document 1 §2). */
export function esgQuoteRoutes(service: FeesService): FastifyPluginAsync {
  return httpRoutes(async (app) => {
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
  });
}

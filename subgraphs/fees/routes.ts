import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { sendAppError, toAppError, type HttpServer } from '../../platform/http.js';
import { registerOpenApi } from '../../platform/openapi.js';
import { STABILITY_API_VERSION } from './domain/index.js';
import {
  esgQuoteBodySchema,
  esgQuoteQuerySchema,
  esgQuoteRequestExample,
  quoteBodySchema,
  quoteQuerySchema,
  quoteRequestExample,
} from './inputs.js';
import { esgQuoteResponseSchema, quoteErrorSchema, quoteResponseSchema } from './responses.js';
import type { FeesService } from './service.js';


/**
 * The quote services' documented error body is {error, example}. Every client error of these
 * services, a body that is not JSON included, is an invalid request here and answers 400.
 */
function replyWithQuoteError(reply: FastifyReply, error: unknown, example: Record<string, unknown>) {
  let appError = toAppError(error, 'FEE_ERR_INVALID_QUOTE_PARAMS');
  if (appError.code === 'GEN_ERR_UNSUPPORTED_MEDIA_TYPE' || appError.code === 'GEN_ERR_BAD_REQUEST') {
    appError = new AppError('FEE_ERR_INVALID_QUOTE_PARAMS', { message: appError.message, cause: appError });
  }
  return sendAppError(reply, appError, { error: appError.message, example });
}

function stabilityRoutes(service: FeesService): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    await registerOpenApi(app, {
      prefix: '/stability',
      title: 'Settlement rail stability oracle',
      version: STABILITY_API_VERSION,
      description: 'Fee model, manifest and quotes of the stability oracle (Document 1).',
    });
    app.setErrorHandler((error, _request, reply) => replyWithQuoteError(reply, error, quoteRequestExample));
    app.get('/stability/manifest', { schema: { summary: 'Protocol manifest; call once and cache' } }, async () =>
      service.manifest(),
    );
    app.get('/stability/fee-schedule', { schema: { summary: 'Full fee table with tiers; cache' } }, async () => service.feeSchedule());
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
  };
}

function esgRoutes(service: FeesService): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    await registerOpenApi(app, {
      prefix: '/esg',
      title: 'Settlement rail ESG oracle',
      version: STABILITY_API_VERSION,
      description: 'ESG fee quotes and the ESG fee schedule (Document 1).',
    });
    app.setErrorHandler((error, _request, reply) => replyWithQuoteError(reply, error, esgQuoteRequestExample));
    app.get('/esg/fee-schedule', { schema: { summary: 'ESG fee table across all score tiers' } }, async () => service.esgFeeSchedule());
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

export function feesRoutes(service: FeesService): FastifyPluginAsync {
  return async (app) => {
    await app.register(stabilityRoutes(service));
    await app.register(esgRoutes(service));
  };
}

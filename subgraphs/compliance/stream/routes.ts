import type { FastifyPluginAsync } from 'fastify';
import { type PriceList, resourceOf } from '../../../platform/access/paid-route.js';
import { httpRoutes } from '../../../platform/http.js';
import { COMPLIANCE_PREFIX } from '../shared/error-shape.js';
import { complianceErrorSchema } from '../shared/responses.js';
import { streamOpenBodySchema, streamParamsSchema, streamTickBodySchema } from './inputs.js';
import {
  streamBadRequestSchema,
  streamExpiredSchema,
  streamInsufficientBalanceSchema,
  streamNotRecordedSchema,
  streamOpenedSchema,
  streamPaymentRequiredSchema,
  streamSessionSchema,
  streamTickSchema,
} from './responses.js';
import { STREAM_OFFER, type StreamService } from './service.js';

export interface StreamRouteOptions {
  /** Where the compliance oracle is mounted; default `/compliance` ({compliance_url}). */
  prefix?: string;
  /** The compliance price list: POST /stream/open is declared in it, so /.well-known/x402 lists it. */
  prices?: PriceList;
}

/**
 * The streaming micropayment session paths of the compliance oracle (Document 2 §4 POST
 * /stream/open; decision 0019): thin, each calls the service. Registered inside the compliance
 * routes plugin, so errors take the compliance shape {error, code}; the 402 of the open is x402's.
 */
export function streamRoutes(service: StreamService, options: StreamRouteOptions = {}): FastifyPluginAsync {
  const prefix = options.prefix ?? COMPLIANCE_PREFIX;
  return httpRoutes(async (app) => {
    const openPath = `${prefix}/stream/open`;
    options.prices?.priceVariable('POST', openPath, STREAM_OFFER);
    const session = { 401: complianceErrorSchema, 404: complianceErrorSchema };

    app.post(
      openPath,
      {
        schema: {
          summary: 'Open a streaming session: pay upfront (x402, 0.01-10000 USDC) for a credit bucket, units ticked against the balance',
          body: streamOpenBodySchema,
          response: { 201: streamOpenedSchema, 400: streamBadRequestSchema, 402: streamPaymentRequiredSchema, 500: streamNotRecordedSchema },
        },
      },
      async (request, reply) => reply.code(201).send(await service.open(request.requestContext, request.body, resourceOf(request))),
    );
    app.post(
      `${prefix}/stream/:sessionId/tick`,
      {
        schema: {
          summary: 'Charge units against a session balance (Authorization: Bearer <session token>); all or nothing',
          params: streamParamsSchema,
          body: streamTickBodySchema,
          response: { 200: streamTickSchema, 400: complianceErrorSchema, 402: streamInsufficientBalanceSchema, 410: streamExpiredSchema, ...session },
        },
      },
      async (request) => service.tick(request.requestContext, request.params.sessionId, request.body.units),
    );
    app.get(
      `${prefix}/stream/:sessionId`,
      {
        schema: {
          summary: 'A session: status, balance, units used (Authorization: Bearer <session token>)',
          params: streamParamsSchema,
          response: { 200: streamSessionSchema, 400: complianceErrorSchema, ...session },
        },
      },
      async (request) => service.get(request.requestContext, request.params.sessionId),
    );
  });
}

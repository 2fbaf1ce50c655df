import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createPriceList, resourceOf } from '../../../platform/access/paid-route.js';
import { paymentRequiredSchema } from '../../../platform/access/x402-schemas.js';
import { AppError } from '../../../platform/errors.js';
import { parseGraphQLInput } from '../../../platform/graphql.js';
import { httpRoutes } from '../../../platform/http.js';
import { registerOpenApi } from '../../../platform/openapi.js';
import { catalogEntry } from './catalog.js';
import { signalResponseSchema } from './envelope.js';
import type { AnySignalEndpoint, SignalDiscovery } from './signal-endpoint.js';
import type { SignalService } from './signal-service.js';

/** `{intelligence_url}` is the server root (decision 0062): the paths are the spec's as written. */
export const SIGNALS_PREFIX = '/v1/intelligence';
export const SIGNALS_VERSION = '1.0.0';

const errorSchema = z.object({ error: z.string(), code: z.string() });

export interface SignalRouteOptions {
  /** FACILITATOR_URL, named in the x402 discovery document when set. */
  facilitatorUrl: string | undefined;
}

/** The parameters of a request: path and query together, parsed by the endpoint's one schema. */
export function signalParams(endpoint: AnySignalEndpoint, input: Record<string, unknown>): unknown {
  return endpoint.params ? parseGraphQLInput(endpoint.params, input, endpoint.invalidParamsCode ?? 'GEN_ERR_BAD_REQUEST') : {};
}

/** What a request names: path and query of a GET; the JSON body (and path) of a POST. */
function requestInput(method: 'GET' | 'POST', request: FastifyRequest): Record<string, unknown> {
  const path = request.params as Record<string, unknown>;
  if (method === 'GET') return { ...(request.query as Record<string, unknown>), ...path };
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AppError('GEN_ERR_BAD_REQUEST', { message: 'The request body must be a JSON object' });
  return { ...(body as Record<string, unknown>), ...path };
}

/** The free GET beside a POST endpoint: its listing, with no admission. */
function registerDiscovery(app: FastifyInstance, path: string, discovery: SignalDiscovery): void {
  app.get(path, { schema: { summary: `${discovery.summary} (free)`, response: { 200: discovery.response } } }, async () => discovery.list());
}

/**
 * The paid signal paths (Document 3 §4): each endpoint at its catalog path and method, thin over the
 * signal service; `/.well-known/x402` at the service root lists every priced path; errors other
 * than the 402 are `{error, code}` (decision 0062).
 */
export function signalRoutes(service: SignalService, endpoints: readonly AnySignalEndpoint[], options: SignalRouteOptions): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    const prices = createPriceList({ prefix: '', facilitatorUrl: options.facilitatorUrl });
    await registerOpenApi(app, {
      prefix: SIGNALS_PREFIX,
      baseUrl: '',
      title: 'Settlement rail intelligence',
      version: SIGNALS_VERSION,
      description: 'Paid market, physical and compliance signals (Document 3), per call through x402 or an X-API-Key.',
    });
    const errors = { 400: errorSchema, 401: errorSchema, 402: paymentRequiredSchema({}), 429: errorSchema, 503: errorSchema };
    for (const endpoint of endpoints) {
      const entry = catalogEntry(endpoint.id, endpoint.summary);
      prices.price(entry.method, entry.path, entry.offer);
      app.route({
        method: entry.method,
        url: entry.path,
        // No HEAD twin: a HEAD would be charged for an answer it never receives.
        exposeHeadRoute: false,
        schema: {
          summary: `${endpoint.summary} (${entry.priceUsd} USDC)`,
          ...(entry.method === 'POST' && endpoint.params ? { body: endpoint.params } : {}),
          response: { 200: signalResponseSchema(endpoint.response), ...errors },
        },
        // The body schema documents the request (OpenAPI); the endpoint's own parse validates it, so a
        // refusal carries the endpoint's code (INT_ERR_INVALID_PARAMETER, INT_ERR_UNKNOWN_NODE).
        validatorCompiler: () => (data: unknown) => ({ value: data }),
        handler: async (request) => service.answer(request.requestContext, resourceOf(request), endpoint, signalParams(endpoint, requestInput(entry.method, request))),
      });
      if (endpoint.discovery) registerDiscovery(app, entry.path, endpoint.discovery);
    }
    prices.registerDiscovery(app);
    app.get(`${SIGNALS_PREFIX}/health`, { schema: { summary: 'Service health', response: { 200: z.object({ status: z.string(), service: z.string(), version: z.string() }) } } }, async () => ({
      status: 'ok',
      service: 'intelligence',
      version: SIGNALS_VERSION,
    }));
  });
}

import type { FastifyPluginAsync } from 'fastify';
import { type DiscoveryInfo, endpointMap, type OpenApiDocument, registerDiscoveryDocuments } from '../../../platform/discovery.js';
import { AppError } from '../../../platform/errors.js';
import { httpRoutes, type ServiceErrorShape } from '../../../platform/http.js';
import { type OpenApiInfo, registerOpenApi } from '../../../platform/openapi.js';

/**
 * The quote services' documented error body is {error, example}; every error under their prefixes
 * (404, 405 and Fastify's own included) uses it. A client error of a quote request, a body that is
 * not JSON included, is an invalid request and answers 400 (decision 0003).
 */
export function quoteServiceErrorShape(prefix: string, example: Record<string, unknown>): ServiceErrorShape {
  return {
    prefix,
    refine: (error) =>
      error.code === 'GEN_ERR_UNSUPPORTED_MEDIA_TYPE' || error.code === 'GEN_ERR_BAD_REQUEST' ? new AppError('FEE_ERR_INVALID_QUOTE_PARAMS', { message: error.message, cause: error }) : error,
    body: (error) => ({ error: error.message, example }),
  };
}

/** Where each service's endpoint map is read from once its routes are registered (the manifests, REST and GraphQL alike). */
export interface EndpointRegistry {
  stability?: () => Record<string, string>;
  esg?: () => Record<string, string>;
}

/** One REST service of the subgraph: its prefix, OpenAPI document, discovery documents and error example. */
export interface FeesRestService {
  openApi: OpenApiInfo;
  discovery: DiscoveryInfo;
  /** A valid request, returned with every 400 under the prefix (Document 1 §2, error body). */
  example: Record<string, unknown>;
}

export interface ServiceRoutesOptions {
  publicBaseUrl: string | undefined;
  /** Given the service's endpoint map, generated from its routes once they are registered (decision 0033). */
  onEndpoints(endpoints: () => Record<string, string>): void;
}

/**
 * A REST service of the subgraph under its prefix: its OpenAPI document, its error shape, the
 * families' routes in the order given (the order of the document and of the endpoint map), and
 * its discovery documents (ai-plugin.json, llms.txt).
 */
export function serviceRoutes(service: FeesRestService, routes: readonly FastifyPluginAsync[], options: ServiceRoutesOptions): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    await registerOpenApi(app, service.openApi);
    app.errorShapes.register(quoteServiceErrorShape(service.openApi.prefix, service.example));
    for (const plugin of routes) await app.register(plugin);
    registerDiscoveryDocuments(app, service.discovery, options.publicBaseUrl);
    options.onEndpoints(() => endpointMap(app.swagger() as unknown as OpenApiDocument, service.discovery));
  });
}

import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { HttpServer, ServiceErrorShape } from '../../platform/http.js';
import { mountMcpEndpoint } from './mcp.js';
import { portfolioBodySchema, scenarioBodySchema, symbolPathSchema, tcfdBodySchema } from './inputs.js';
import { parseSupportedSymbol, type ForecastService } from './service.js';

/**
 * Forecast errors carry a plain-language `message` (Document 3 §7): 400 malformed symbol or body,
 * 404 unsupported symbol, 503 with Retry-After 60 when the climate source is down. Every error
 * under /forecast (404, 405 and Fastify's own included) has this body.
 */
export const forecastErrorShape: ServiceErrorShape = {
  prefix: '/forecast',
  refine(error, url) {
    if (error.code !== 'GEN_ERR_BAD_REQUEST' && error.code !== 'GEN_ERR_UNSUPPORTED_MEDIA_TYPE') return error;
    const code = url.startsWith('/forecast/commodity/') ? 'FCT_ERR_INVALID_SYMBOL' : 'FCT_ERR_INVALID_BODY';
    return new AppError(code, { message: error.message, cause: error });
  },
  body: (error) => ({ message: error.message, code: error.code }),
};

export interface ForecastRouteOptions {
  /** Host names the MCP endpoint accepts in the Host header (DNS-rebinding protection). */
  mcpHostnames: readonly string[];
}

export function forecastRoutes(service: ForecastService, options: ForecastRouteOptions): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    app.errorShapes.register(forecastErrorShape);
    app.get('/forecast/heat-check', async () => service.heatCheck());
    app.get('/forecast/commodity/:symbol', { schema: { params: symbolPathSchema } }, async (request) =>
      service.commodityOutlook(parseSupportedSymbol(request.params.symbol)),
    );
    app.get('/forecast/regions', async () => service.regions());
    app.get('/forecast/calendar', async () => service.calendar());
    app.post('/forecast/portfolio', { schema: { body: portfolioBodySchema } }, async (request) => service.portfolio(request.body));
    app.post('/forecast/scenario', { schema: { body: scenarioBodySchema } }, async (request) => service.scenario(request.body));
    app.post('/forecast/tcfd-report', { schema: { body: tcfdBodySchema } }, async (request) => service.tcfdReport(request.body));
    mountMcpEndpoint(app, service, options.mcpHostnames);
  };
}

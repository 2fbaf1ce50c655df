import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { httpRoutes, type ServiceErrorShape } from '../../platform/http.js';
import { registerOpenApi } from '../../platform/openapi.js';
import { portfolioBodySchema, scenarioBodySchema, symbolPathSchema, tcfdBodySchema } from './inputs.js';
import { mountMcpEndpoint } from './mcp.js';
import {
  calendarResponseSchema,
  commodityOutlookResponseSchema,
  forecastErrorSchema,
  heatCheckResponseSchema,
  portfolioResponseSchema,
  regionsResponseSchema,
  scenarioResponseSchema,
  tcfdResponseSchema,
} from './responses.js';
import { type ForecastService, parseSupportedSymbol } from './service.js';

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
  return httpRoutes(async (app) => {
    app.errorShapes.register(forecastErrorShape);
    await registerOpenApi(app, {
      prefix: '/forecast',
      baseUrl: '',
      title: 'Commodity climate forecast',
      version: '1.0.0',
      description: 'Climate-driven outlooks for 11 commodity markets, portfolio stress, scenarios and TCFD reports (Document 3).',
    });
    const errors = { 400: forecastErrorSchema, 404: forecastErrorSchema, 503: forecastErrorSchema };
    app.get('/forecast/heat-check', { schema: { summary: 'All 11 commodities GREEN/YELLOW/RED', response: { 200: heatCheckResponseSchema, 503: forecastErrorSchema } } }, async () =>
      service.heatCheck(),
    );
    app.get(
      '/forecast/commodity/:symbol',
      { schema: { summary: 'Full outlook for one symbol', params: symbolPathSchema, response: { 200: commodityOutlookResponseSchema, ...errors } } },
      async (request) => service.commodityOutlook(parseSupportedSymbol(request.params.symbol)),
    );
    app.get('/forecast/regions', { schema: { summary: 'Production regions ranked by climate risk', response: { 200: regionsResponseSchema, 503: forecastErrorSchema } } }, async () =>
      service.regions(),
    );
    app.get('/forecast/calendar', { schema: { summary: '12-month seasonal risk calendar', response: { 200: calendarResponseSchema, 503: forecastErrorSchema } } }, async () => service.calendar());
    app.post('/forecast/portfolio', { schema: { summary: 'Climate stress test of positions', body: portfolioBodySchema, response: { 200: portfolioResponseSchema, ...errors } } }, async (request) =>
      service.portfolio(request.body),
    );
    app.post(
      '/forecast/scenario',
      { schema: { summary: 'One of the 9 built-in scenarios applied to positions', body: scenarioBodySchema, response: { 200: scenarioResponseSchema, ...errors } } },
      async (request) => service.scenario(request.body),
    );
    app.post('/forecast/tcfd-report', { schema: { summary: 'Disclosure report in the TCFD template', body: tcfdBodySchema, response: { 200: tcfdResponseSchema, ...errors } } }, async (request) =>
      service.tcfdReport(request.body),
    );
    mountMcpEndpoint(app, service, options.mcpHostnames);
  });
}

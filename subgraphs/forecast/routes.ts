import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { sendAppError, toAppError, type HttpServer } from '../../platform/http.js';
import { mountMcpEndpoint } from './mcp.js';
import { portfolioBodySchema, scenarioBodySchema, symbolPathSchema, tcfdBodySchema } from './inputs.js';
import { parseSupportedSymbol, type ForecastService } from './service.js';

/**
 * Forecast errors carry a plain-language `message` (Document 3 §7): 400 malformed symbol or body,
 * 404 unsupported symbol, 503 with Retry-After 60 when the climate source is down.
 */
function forecastErrorBody(error: AppError) {
  return { message: error.message, code: error.code };
}

function toForecastError(error: unknown, url: string): AppError {
  const isSymbolPath = url.startsWith('/forecast/commodity/');
  const appError = toAppError(error, isSymbolPath ? 'FCT_ERR_INVALID_SYMBOL' : 'FCT_ERR_INVALID_BODY');
  if (appError.code === 'GEN_ERR_BAD_REQUEST' || appError.code === 'GEN_ERR_UNSUPPORTED_MEDIA_TYPE') {
    return new AppError('FCT_ERR_INVALID_BODY', { message: appError.message, cause: appError });
  }
  return appError;
}

export function forecastRoutes(service: ForecastService): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    app.setErrorHandler((error, request, reply) => {
      const appError = toForecastError(error, request.url);
      return sendAppError(reply, appError, forecastErrorBody(appError));
    });
    app.get('/forecast/heat-check', async () => service.heatCheck());
    app.get('/forecast/commodity/:symbol', { schema: { params: symbolPathSchema } }, async (request) =>
      service.commodityOutlook(parseSupportedSymbol(request.params.symbol)),
    );
    app.get('/forecast/regions', async () => service.regions());
    app.get('/forecast/calendar', async () => service.calendar());
    app.post('/forecast/portfolio', { schema: { body: portfolioBodySchema } }, async (request) => service.portfolio(request.body));
    app.post('/forecast/scenario', { schema: { body: scenarioBodySchema } }, async (request) => service.scenario(request.body));
    app.post('/forecast/tcfd-report', { schema: { body: tcfdBodySchema } }, async (request) => service.tcfdReport(request.body));
    mountMcpEndpoint(app, service);
  };
}

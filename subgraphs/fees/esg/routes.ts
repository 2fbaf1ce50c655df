import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { quoteErrorSchema } from '../shared/responses.js';
import { esgHealthResponseSchema, esgReliabilityResponseSchema, esgScoreResponseSchema } from './responses.js';
import type { EsgOracleService } from './service.js';

/** No successful run on record yet (FEE_ERR_ORACLE_NOT_READY) or the record unreadable: the prefix's error body, with Retry-After. */
const notReady = quoteErrorSchema;

/** The ESG oracle's live scores under {esg_url} (Document 1 §4; decisions 0032, 0035). */
export function esgOracleRoutes(service: EsgOracleService): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.get('/esg/esg-score', { schema: { summary: 'Live E, S, G scores of the rail and the current ESG fee', response: { 200: esgScoreResponseSchema, 503: notReady } } }, () => service.esgScore());
    app.get('/esg/reliability', { schema: { summary: 'Oracle uptime and score history', response: { 200: esgReliabilityResponseSchema, 503: notReady } } }, () => service.esgReliability());
    app.get('/esg/health', { schema: { summary: 'Liveness: status and esgOracle from the recorded runs', response: { 200: esgHealthResponseSchema, 503: notReady } } }, () => service.esgHealth());
  });
}

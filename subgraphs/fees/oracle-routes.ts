import type { FastifyPluginAsync } from 'fastify';
import type { HttpServer } from '../../platform/http.js';
import {
  esgHealthResponseSchema,
  esgReliabilityResponseSchema,
  esgScoreResponseSchema,
  oracleHistoryResponseSchema,
  oracleStatusResponseSchema,
  reliabilityResponseSchema,
  stabilityHealthResponseSchema,
} from './oracle-responses.js';
import type { OracleService } from './oracle-service.js';
import { quoteErrorSchema } from './responses.js';

/** No successful run on record yet (FEE_ERR_ORACLE_NOT_READY) or the record unreadable: the prefix's error body, with Retry-After. */
const notReady = quoteErrorSchema;

/** The stability oracle's trust signals under {stability_url} (Document 1 §4; decision 0035). */
export function stabilityOracleRoutes(service: OracleService): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    app.get('/stability/reliability', { schema: { summary: 'Live trust signals: oracle uptime, stability score and bands, peg, confidence, USD health', response: { 200: reliabilityResponseSchema, 503: notReady } } }, () =>
      service.reliability(),
    );
    app.get('/stability/health', { schema: { summary: 'Liveness, with the oracle state and uptime from its recorded runs and each signal feed', response: { 200: stabilityHealthResponseSchema, 503: notReady } } }, () =>
      service.health(),
    );
    app.get('/stability/api/status', { schema: { summary: 'The latest oracle run: its full output', response: { 200: oracleStatusResponseSchema, 503: notReady } } }, () => service.status());
    // Clients of the real product read the ESG oracle's answer from {stability_url} (issue 21; decision 0056): the same function and shape as /esg/esg-score.
    app.get('/stability/esg-score', { schema: { summary: 'The ESG oracle\'s live E, S, G scores and current ESG fee (as GET {esg_url}/esg-score), under {stability_url}', response: { 200: esgScoreResponseSchema, 503: notReady } } }, () =>
      service.esgScore(),
    );
    app.get('/stability/api/history', { schema: { summary: 'The last 24 oracle runs (OracleHistoryEntry), newest first', response: { 200: oracleHistoryResponseSchema, 503: notReady } } }, () =>
      service.history(),
    );
  };
}

/** The ESG oracle's live scores under {esg_url} (Document 1 §4; decisions 0032, 0035). */
export function esgOracleRoutes(service: OracleService): FastifyPluginAsync {
  return async (instance) => {
    const app = instance as unknown as HttpServer;
    app.get('/esg/esg-score', { schema: { summary: 'Live E, S, G scores of the rail and the current ESG fee', response: { 200: esgScoreResponseSchema, 503: notReady } } }, () => service.esgScore());
    app.get('/esg/reliability', { schema: { summary: 'Oracle uptime and score history', response: { 200: esgReliabilityResponseSchema, 503: notReady } } }, () => service.esgReliability());
    app.get('/esg/health', { schema: { summary: 'Liveness: status and esgOracle from the recorded runs', response: { 200: esgHealthResponseSchema, 503: notReady } } }, () => service.esgHealth());
  };
}

import type { FastifyPluginAsync } from 'fastify';
import { httpRoutes } from '../../../platform/http.js';
import { esgScoreResponseSchema } from '../esg/responses.js';
import type { EsgOracleService } from '../esg/service.js';
import { quoteErrorSchema } from '../shared/responses.js';
import { oracleHistoryResponseSchema, oracleStatusResponseSchema, reliabilityResponseSchema, stabilityHealthResponseSchema } from './responses.js';
import type { StabilityService } from './service.js';

/** No successful run on record yet (FEE_ERR_ORACLE_NOT_READY) or the record unreadable: the prefix's error body, with Retry-After. */
const notReady = quoteErrorSchema;

/** The stability oracle's trust signals under {stability_url} (Document 1 §4; decision 0035), and the ESG oracle's score there too (decision 0056). */
export function stabilityOracleRoutes(service: StabilityService, esg: Pick<EsgOracleService, 'esgScore'>): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.get(
      '/stability/reliability',
      { schema: { summary: 'Live trust signals: oracle uptime, stability score and bands, peg, confidence, USD health', response: { 200: reliabilityResponseSchema, 503: notReady } } },
      () => service.reliability(),
    );
    app.get(
      '/stability/health',
      { schema: { summary: 'Liveness, with the oracle state and uptime from its recorded runs and each signal feed', response: { 200: stabilityHealthResponseSchema, 503: notReady } } },
      () => service.health(),
    );
    app.get('/stability/api/status', { schema: { summary: 'The latest oracle run: its full output', response: { 200: oracleStatusResponseSchema, 503: notReady } } }, () => service.status());
    // Clients of the real product read the ESG oracle's answer from {stability_url} (issue 21; decision 0056): the same function and shape as /esg/esg-score.
    app.get(
      '/stability/esg-score',
      { schema: { summary: "The ESG oracle's live E, S, G scores and current ESG fee (as GET {esg_url}/esg-score), under {stability_url}", response: { 200: esgScoreResponseSchema, 503: notReady } } },
      () => esg.esgScore(),
    );
    app.get('/stability/api/history', { schema: { summary: 'The last 24 oracle runs (OracleHistoryEntry), newest first', response: { 200: oracleHistoryResponseSchema, 503: notReady } } }, () =>
      service.history(),
    );
  });
}

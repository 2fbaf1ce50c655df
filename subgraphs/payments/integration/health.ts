import type { preValidationHookHandler } from 'fastify';
import { z } from 'zod';
import type { HttpServer } from '../../../platform/http.js';
import { withTimeout } from '../../../platform/timeout.js';
import type { UpstreamTransport } from '../../../platform/upstream.js';
import { integrationErrorSchema } from './responses.js';

/**
 * The integration health (spec §4 "Integration health"; path GET /integration/health, decision
 * 0028): {status, complianceOracle, stabilityOracle, db}, each `ok` when healthy, else a short
 * reason. Each oracle is asked one free, read-only path through platform.upstream (the same
 * transport the payments use: in-process or over SERVICE_URLS), the database one round trip, all
 * three at once and each cut at HEALTH_CHECK_TIMEOUT_MS. status is `ok` when all three are,
 * else `degraded` (answered 503, as GET /health does).
 */

/** Shorter than UPSTREAM_TIMEOUT_MS: a health probe must answer while the thing it checks hangs. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;
/** Free, read-only, no database: an answer shows the oracle's process and routes are up. */
export const COMPLIANCE_PROBE_PATH = '/compliance/compliance/regulatory-calendar';
export const STABILITY_PROBE_PATH = '/stability/fee-schedule';

export const integrationHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  complianceOracle: z.string().describe('ok, or why not'),
  stabilityOracle: z.string().describe('ok, or why not'),
  db: z.string().describe('ok, or why not'),
});
export type IntegrationHealthReport = z.infer<typeof integrationHealthSchema>;

export interface IntegrationHealthDeps {
  compliance: UpstreamTransport;
  stability: UpstreamTransport;
  /** Round trip to the database; throws when it is down. */
  pingDatabase: () => Promise<void>;
  timeoutMs?: number;
}

/** The messages and codes along an error's cause chain (fetch's own is two deep: fetch failed <- ECONNREFUSED), at most 5 links. */
function causeText(error: unknown): string {
  const parts: string[] = [];
  for (let link = error, depth = 0; link instanceof Error && depth < 5; link = link.cause, depth += 1) {
    parts.push(link.message, String((link as { code?: unknown }).code ?? ''));
  }
  return parts.join(' ');
}

/** A short reason of our own words, never the error's text (a driver's may name users or hosts). */
function reasonOf(error: unknown, timeoutMs: number): string {
  const text = causeText(error);
  if (/timed out|timeout|aborted/i.test(text)) return `no answer within ${timeoutMs} ms`;
  if (/ECONNREFUSED/.test(text)) return 'connection refused';
  return 'unreachable';
}

export function createIntegrationHealth(deps: IntegrationHealthDeps) {
  const timeoutMs = deps.timeoutMs ?? HEALTH_CHECK_TIMEOUT_MS;
  async function probe(transport: UpstreamTransport, path: string): Promise<string> {
    try {
      const response = await withTimeout(transport({ method: 'GET', path }), timeoutMs, `health probe ${path}`);
      return response.status >= 200 && response.status < 300 ? 'ok' : `answered ${response.status}`;
    } catch (error) {
      return reasonOf(error, timeoutMs);
    }
  }
  async function database(): Promise<string> {
    try {
      await withTimeout(deps.pingDatabase(), timeoutMs, 'health probe database');
      return 'ok';
    } catch (error) {
      return reasonOf(error, timeoutMs);
    }
  }
  return {
    async check(): Promise<IntegrationHealthReport> {
      const [complianceOracle, stabilityOracle, db] = await Promise.all([probe(deps.compliance, COMPLIANCE_PROBE_PATH), probe(deps.stability, STABILITY_PROBE_PATH), database()]);
      const healthy = complianceOracle === 'ok' && stabilityOracle === 'ok' && db === 'ok';
      return { status: healthy ? 'ok' : 'degraded', complianceOracle, stabilityOracle, db };
    },
  };
}

export type IntegrationHealth = ReturnType<typeof createIntegrationHealth>;

/**
 * GET /integration/health: 200 when ok, 503 when degraded, with the institution bearer key
 * (decision 0056: Document 2 §5 leaves only /rates open, and the reasons name the upstreams'
 * failures). Load balancers probe the process's own GET /health, which needs no key.
 */
export function registerHealthRoute(app: HttpServer, health: IntegrationHealth, institution: { preValidation: preValidationHookHandler }): void {
  const refused = integrationErrorSchema;
  // 503: degraded, or the key could not be checked (the key store down).
  const schema = {
    summary: 'Integration health with the compliance and stability oracles and the database (bearer key)',
    response: { 200: integrationHealthSchema, 401: refused, 429: refused, 503: z.union([integrationHealthSchema, refused]) },
  };
  app.get('/integration/health', { ...institution, schema }, async (_request, reply) => {
    const report = await health.check();
    return reply.code(report.status === 'ok' ? 200 : 503).send(report);
  });
}

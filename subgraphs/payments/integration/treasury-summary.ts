import { and, gte, lt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { agentHeldSettlements, payments } from '../../../drizzle/schema.js';
import { requireInternalKey } from '../../../platform/access/shared-secret.js';
import type { Database } from '../../../platform/db.js';
import type { HttpServer } from '../../../platform/http.js';
import { boundedCall } from '../../../platform/timeout.js';
import { INTEGRATION_PREFIX } from '../shared/api.js';
import { type HoldRow, monthBounds, type SettlementGroup, type TreasurySummary, treasurySummary } from './domain/index.js';
import { integrationErrorSchema } from './responses.js';

/**
 * GET /integration/treasury-summary?period=YYYY-MM (internal, X-Internal-Key; decision 0066): the
 * month's settlement volume, corridor performance and the settlement agent's automated decisions
 * in aggregate, for the paid treasury report of the intelligence subgraph. Institutions' payments
 * never leave this file one by one: the query groups them by corridor, status and contributor, and
 * the domain publishes a cell only when no contributor's figures show (TREASURY_DISCLOSURE_RULE).
 */
export const TREASURY_SUMMARY_PATH = `${INTEGRATION_PREFIX}/treasury-summary`;
const STORE_TIMEOUT_MS = 5000;

export const treasurySummaryQuerySchema = z.strictObject({
  period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month: YYYY-MM'),
});

const nullableCount = z.number().int().nullable().describe('null: withheld, too few payments or contributors to show without showing one');
const statusCounts = { settled: nullableCount, blocked: nullableCount, failed: nullableCount, pending: nullableCount };
export const treasurySummarySchema = z.object({
  period: z.string(),
  from: z.string(),
  to: z.string(),
  disclosure: z.object({ minimumCount: z.number().int(), minimumContributors: z.number().int(), maxDominantSharePct: z.number(), withheldCells: z.number().int() }),
  settlement: z.object({ payments: nullableCount, ...statusCounts, settledVolumeUsd: z.string().nullable(), meanSecondsToSettle: z.number().nullable() }),
  corridors: z.array(
    z.object({
      corridor: z.string(),
      payments: z.number().int(),
      settled: nullableCount,
      settlementRatePct: z.number().nullable(),
      settledVolumeUsd: z.string().nullable(),
      meanSecondsToSettle: z.number().nullable(),
    }),
  ),
  withheldCorridors: z.number().int(),
  automatedDecisions: z.object({
    settlements: z.object({ decisions: nullableCount, ...statusCounts }),
    holds: z.object({ holds: nullableCount, held: nullableCount, released: nullableCount, dismissed: nullableCount }),
    violatedRules: z.array(z.object({ rule: z.string(), holds: z.number().int() })),
  }),
});

type Agrees<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const treasurySummaryShapeAgrees: Agrees<TreasurySummary, z.infer<typeof treasurySummarySchema>> = true;

// The settlement agent's payments belong to its own institution (decision 0050): their contributor is the agent, or the AP2 issuer whose funds paid.
const contributor = sql<string>`case when ${payments.agentId} is not null then 'agent:' || ${payments.agentId} when ${payments.fundingIssuer} is not null then 'issuer:' || ${payments.fundingIssuer} else ${payments.institutionId} end`;
const automated = sql<boolean>`(${payments.agentId} is not null or ${payments.fundingIssuer} is not null)`;
const currency = sql<string>`${payments.request} ->> 'currency'`;
const settledHere = sql`${payments.status} = 'SETTLED' and coalesce(${payments.result} -> 'settlement' ->> 'exchangeRate', '') <> ''`;

/** The month's payments grouped by corridor, status and contributor, and its held settlements. */
export function createTreasurySummary(db: Database, options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  async function groups(from: Date, to: Date): Promise<SettlementGroup[]> {
    const rows = await boundedCall(
      db
        .select({
          currency,
          status: payments.status,
          contributor,
          automated,
          payments: sql<number>`count(*)::int`,
          settledVolumeUsd: sql<string>`coalesce(sum(case when ${settledHere} then (${payments.result} -> 'settlement' ->> 'amount')::numeric * (${payments.result} -> 'settlement' ->> 'exchangeRate')::numeric end), 0)::text`,
          settleSeconds: sql<number>`coalesce(sum(case when ${payments.status} = 'SETTLED' and ${payments.settledAt} is not null then extract(epoch from ${payments.settledAt} - ${payments.submittedAt}) end), 0)::float8`,
          timedSettlements: sql<number>`(count(*) filter (where ${payments.status} = 'SETTLED' and ${payments.settledAt} is not null))::int`,
        })
        .from(payments)
        .where(and(gte(payments.submittedAt, from), lt(payments.submittedAt, to)))
        .groupBy(currency, payments.status, contributor, automated)
        .execute(),
      timeoutMs,
      'treasury summary of payments',
    );
    return rows.map((row) => ({ ...row, payments: Number(row.payments), settleSeconds: Number(row.settleSeconds), timedSettlements: Number(row.timedSettlements) }));
  }
  async function holds(from: Date, to: Date): Promise<HoldRow[]> {
    return boundedCall(
      db
        .select({ status: agentHeldSettlements.status, agentId: agentHeldSettlements.agentId, rules: sql<string[]>`jsonb_path_query_array(${agentHeldSettlements.violations}, '$[*].rule')` })
        .from(agentHeldSettlements)
        .where(and(gte(agentHeldSettlements.createdAt, from), lt(agentHeldSettlements.createdAt, to)))
        .execute(),
      timeoutMs,
      'treasury summary of held settlements',
    );
  }
  return {
    async summary(period: string): Promise<TreasurySummary> {
      const { from, to } = monthBounds(period);
      const [grouped, held] = await Promise.all([groups(from, to), holds(from, to)]);
      return treasurySummary({ period, from, to }, grouped, held);
    },
  };
}

export type TreasurySummaryService = ReturnType<typeof createTreasurySummary>;

/** Registered inside the integration routes (their error shape and OpenAPI document); 401 before the query is read. */
export function registerTreasurySummaryRoute(app: HttpServer, service: TreasurySummaryService, internalKey: string | undefined): void {
  app.get(
    TREASURY_SUMMARY_PATH,
    {
      preValidation: async (request: FastifyRequest) => requireInternalKey(request.requestContext, internalKey),
      schema: {
        summary: "The month's settlement volume, corridor performance and automated decisions in aggregate (internal: X-Internal-Key); cells too small to show without showing an institution are null",
        querystring: treasurySummaryQuerySchema,
        response: { 200: treasurySummarySchema, 400: integrationErrorSchema, 401: integrationErrorSchema },
      },
    },
    async (request) => service.summary(request.query.period),
  );
}

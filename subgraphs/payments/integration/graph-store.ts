import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { paymentCallbacks, payments } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { NativePayment, PaymentResult } from '../domain/index.js';

const STORE_TIMEOUT_MS = 5000;

/** Longest list a parent (an agent, a wallet, a legal entity) shows: its newest payments. */
export const PARTY_PAYMENTS_LIMIT = 50;

/** A payment's callback as the graph shows it: the outbox row's delivery state (never its URL or body). */
export type StoredCallback = Pick<typeof paymentCallbacks.$inferSelect, 'railPaymentId' | 'state' | 'attempt' | 'lastStatus' | 'createdAt' | 'nextAttemptAt' | 'deliveredAt'>;

export type PaymentStatusFilter = (typeof payments.$inferSelect)['status'];

export interface RecentPaymentsOptions {
  limit: number;
  status?: PaymentStatusFilter | undefined;
}

/**
 * What the graph reads of a stored payment (its row's columns): its result, the parties it was asked
 * for (request), the agent that asked, and the AP2 issuer whose deposits paid a settlement under its
 * mandate alone (decision 0049 §9). The jsonb columns typed as what the payment store writes in them.
 */
export type StoredPayment = Pick<typeof payments.$inferSelect, 'railPaymentId' | 'agentId' | 'fundingIssuer'> & { result: PaymentResult; request: NativePayment };

/** A row of the list reads: the parent key it was found under, then the payment. */
interface ListedRow {
  key: unknown;
  rail_payment_id: unknown;
  result: unknown;
  request: unknown;
  agent_id: unknown;
  funding_issuer: unknown;
}

/**
 * The rows of a raw statement's answer: PGlite answers {rows}, postgres-js the row list itself (an
 * array); jsonb may arrive parsed or as text (asObject).
 */
function rowsOf(answer: unknown): ListedRow[] {
  const rows = Array.isArray(answer) ? answer : (answer as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) throw new Error('payments: a raw statement answered without rows');
  return rows as ListedRow[];
}

const asObject = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** Which payments belong to a key `k.key` (`k` is the unnested key list). */
const FILTERS = {
  /** POST /agent/settle with X-Agent-Id: the payments.agent_id column (index payments_agent_day). */
  agent: sql`p.agent_id = k.key`,
  /** Creditor or debtor wallet, lower-cased (indexes payments_creditor_wallet, payments_debtor_wallet). */
  wallet: sql`(lower(p.request -> 'creditor' ->> 'walletAddress') = k.key or lower(p.request -> 'debtor' ->> 'walletAddress') = k.key)`,
  /** Creditor or debtor LEI (indexes payments_creditor_lei, payments_debtor_lei). */
  lei: sql`((p.request -> 'creditor' ->> 'lei') = k.key or (p.request -> 'debtor' ->> 'lei') = k.key)`,
} satisfies Record<string, SQL>;

export type PartyKind = keyof typeof FILTERS;

/**
 * The graph's batch reads of payments, each ONE statement for any number of parents, every call
 * bounded in time:
 * - byIds: payments by railPaymentId (a Payment's parties);
 * - byParty: for each key, its newest payments (submitted_at, then railPaymentId, descending),
 *   at most `limit` each, through a lateral join over the unnested keys so every key reads its
 *   own index range and stops at the limit;
 * - recent: the newest payments of an owner (institutionPayments, decision 0083);
 * - callbacksOf: the callbacks of a batch of payments (Payment.callback).
 * Each read takes `owner`: the institution whose payments it may return (decision 0050), or null
 * for every institution's (the admin).
 */
export function createPaymentGraphStore(db: Database, options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;

  return {
    async byIds(railPaymentIds: readonly string[], owner: string | null): Promise<Map<string, StoredPayment>> {
      if (railPaymentIds.length === 0) return new Map();
      const rows = await boundedCall(
        db
          .select({ railPaymentId: payments.railPaymentId, result: payments.result, request: payments.request, agentId: payments.agentId, fundingIssuer: payments.fundingIssuer })
          .from(payments)
          .where(and(inArray(payments.railPaymentId, [...railPaymentIds]), owner === null ? undefined : eq(payments.institutionId, owner)))
          .execute(),
        timeoutMs,
        `select from payments (${railPaymentIds.length} ids)`,
      );
      return new Map(
        rows.map((row) => [
          row.railPaymentId,
          { railPaymentId: row.railPaymentId, result: row.result as PaymentResult, request: row.request as NativePayment, agentId: row.agentId, fundingIssuer: row.fundingIssuer },
        ]),
      );
    },

    recent: (owner: string | null, options: RecentPaymentsOptions) => recentPayments(db, timeoutMs, owner, options),
    callbacksOf: (railPaymentIds: readonly string[], owner: string | null) => callbacksOf(db, timeoutMs, railPaymentIds, owner),

    /** Keys as stored for `agent` and `lei`; lower-case for `wallet`. Keys with no payment are absent from the map. */
    async byParty(kind: PartyKind, keys: readonly string[], owner: string | null, limit = PARTY_PAYMENTS_LIMIT): Promise<Map<string, StoredPayment[]>> {
      const found = new Map<string, StoredPayment[]>();
      if (keys.length === 0) return found;
      const keyArray = sql`array[${sql.join(
        keys.map((key) => sql`${key}`),
        sql`, `,
      )}]::text[]`;
      const statement = sql`select k.key, l.rail_payment_id, l.result, l.request, l.agent_id, l.funding_issuer
        from unnest(${keyArray}) as k(key)
        cross join lateral (
          select p.rail_payment_id, p.result, p.request, p.agent_id, p.funding_issuer, p.submitted_at from ${payments} p
          where ${FILTERS[kind]}${owner === null ? sql`` : sql` and p.institution_id = ${owner}`}
          order by p.submitted_at desc, p.rail_payment_id desc
          limit ${limit}
        ) l
        order by k.key, l.submitted_at desc, l.rail_payment_id desc`;
      const rows = rowsOf(await boundedCall(db.execute(statement), timeoutMs, `select from payments by ${kind} (${keys.length} keys)`));
      for (const row of rows) {
        const key = String(row.key);
        const list = found.get(key) ?? [];
        list.push({
          railPaymentId: String(row.rail_payment_id),
          result: asObject<PaymentResult>(row.result),
          request: asObject<NativePayment>(row.request),
          agentId: row.agent_id === null ? null : String(row.agent_id),
          fundingIssuer: row.funding_issuer === null ? null : String(row.funding_issuer),
        });
        found.set(key, list);
      }
      return found;
    },
  };
}

/** The owner's newest payments (every institution's for null), of one status when given, at most `limit`: one statement. */
async function recentPayments(db: Database, timeoutMs: number, owner: string | null, options: RecentPaymentsOptions): Promise<StoredPayment[]> {
  const rows = await boundedCall(
    db
      .select({ railPaymentId: payments.railPaymentId, result: payments.result, request: payments.request, agentId: payments.agentId, fundingIssuer: payments.fundingIssuer })
      .from(payments)
      .where(and(owner === null ? undefined : eq(payments.institutionId, owner), options.status === undefined ? undefined : eq(payments.status, options.status)))
      .orderBy(desc(payments.submittedAt), desc(payments.railPaymentId))
      .limit(options.limit)
      .execute(),
    timeoutMs,
    'select recent payments',
  );
  return rows.map((row) => ({ ...row, result: row.result as PaymentResult, request: row.request as NativePayment }));
}

/** The callbacks of these payments, of the owner's payments only (every institution's for null): one statement. */
async function callbacksOf(db: Database, timeoutMs: number, railPaymentIds: readonly string[], owner: string | null): Promise<Map<string, StoredCallback>> {
  if (railPaymentIds.length === 0) return new Map();
  const rows = await boundedCall(
    db
      .select({
        railPaymentId: paymentCallbacks.railPaymentId,
        state: paymentCallbacks.state,
        attempt: paymentCallbacks.attempt,
        lastStatus: paymentCallbacks.lastStatus,
        createdAt: paymentCallbacks.createdAt,
        nextAttemptAt: paymentCallbacks.nextAttemptAt,
        deliveredAt: paymentCallbacks.deliveredAt,
      })
      .from(paymentCallbacks)
      .innerJoin(payments, eq(payments.railPaymentId, paymentCallbacks.railPaymentId))
      .where(and(inArray(paymentCallbacks.railPaymentId, [...railPaymentIds]), owner === null ? undefined : eq(payments.institutionId, owner)))
      .execute(),
    timeoutMs,
    `select from payment_callbacks (${railPaymentIds.length} payments)`,
  );
  return new Map(rows.map((row) => [row.railPaymentId, row]));
}

export type PaymentGraphStore = ReturnType<typeof createPaymentGraphStore>;

import { and, asc, desc, eq, isNull, lte } from 'drizzle-orm';
import { intelligenceLedgerCalls, intelligenceLedgerResolutions } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import { callId, type CallStatus, type DraftCall, type LedgerCall, type Resolution } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;

export interface CallFilter {
  model?: string | undefined;
  status?: CallStatus | undefined;
}

/**
 * The ledger in PostgreSQL: insert and read, nothing else (decision 0075). A call is written once
 * per model, subject and period (INSERT ... ON CONFLICT DO NOTHING: two replicas sweeping together
 * record it once); its resolution is a row of its own, written once. The migration's trigger
 * refuses any UPDATE or DELETE of either table.
 */
export interface LedgerStore {
  /** Whether the call `id` is recorded. */
  has(id: string): Promise<boolean>;
  /** Records the drafts not yet recorded; returns how many this call wrote. */
  record(drafts: readonly DraftCall[]): Promise<number>;
  /** Calls without a resolution whose horizon is at or before `now`, oldest first. */
  due(now: Date): Promise<LedgerCall[]>;
  /** Writes the resolutions of calls not yet resolved; returns how many this call wrote. */
  resolve(resolutions: ReadonlyArray<{ callId: string; resolution: Resolution }>): Promise<number>;
  /** Calls (newest issued first) with their resolution, filtered. */
  calls(filter: CallFilter): Promise<LedgerCall[]>;
  /** One call by id. */
  call(id: string): Promise<LedgerCall | undefined>;
}

type CallRow = typeof intelligenceLedgerCalls.$inferSelect;
type ResolutionRow = typeof intelligenceLedgerResolutions.$inferSelect;

interface StoredCall {
  evidence: DraftCall['evidence'];
  resolutionRule: DraftCall['resolutionRule'];
  method: string;
}

interface StoredObservation {
  value: number | null;
  category: string | null;
  asOf: string | null;
  reason: string;
}

function toCall(row: CallRow, resolution: ResolutionRow | null): LedgerCall {
  const stored = row.call as StoredCall;
  const observed = resolution?.observed as StoredObservation | undefined;
  return {
    id: row.id,
    model: row.model,
    subject: row.subject,
    period: row.period,
    issuedAt: row.issuedAt.toISOString(),
    resolvesAt: row.resolvesAt.toISOString(),
    statement: row.statement,
    probability: row.probability,
    evidence: stored.evidence,
    resolutionRule: stored.resolutionRule,
    method: stored.method,
    status: resolution ? (resolution.status as 'RESOLVED' | 'VOID') : 'PENDING',
    resolution:
      resolution && observed
        ? {
            status: resolution.status as 'RESOLVED' | 'VOID',
            outcome: resolution.outcome,
            resolvedAt: resolution.resolvedAt.toISOString(),
            observedValue: observed.value,
            observedCategory: observed.category,
            observedAsOf: observed.asOf,
            reason: observed.reason,
          }
        : null,
  };
}

function statusCondition(status: CallStatus | undefined) {
  if (status === undefined) return undefined;
  if (status === 'PENDING') return isNull(intelligenceLedgerResolutions.callId);
  return eq(intelligenceLedgerResolutions.status, status);
}

export function createLedgerStore(db: Database): LedgerStore {
  const calls = intelligenceLedgerCalls;
  const resolutions = intelligenceLedgerResolutions;
  const joined = () => db.select().from(calls).leftJoin(resolutions, eq(resolutions.callId, calls.id));

  async function read(where: ReturnType<typeof and>, order: 'newest' | 'oldest', what: string): Promise<LedgerCall[]> {
    const query = joined()
      .where(where)
      .orderBy(...(order === 'newest' ? [desc(calls.issuedAt), asc(calls.id)] : [asc(calls.resolvesAt), asc(calls.id)]))
      .execute();
    const rows = await boundedCall(query, STORE_TIMEOUT_MS, what);
    return rows.map((row) => toCall(row.intelligence_ledger_calls, row.intelligence_ledger_resolutions));
  }

  return {
    async has(id) {
      const rows = await boundedCall(db.select({ id: calls.id }).from(calls).where(eq(calls.id, id)).execute(), STORE_TIMEOUT_MS, 'select from intelligence_ledger_calls');
      return rows.length > 0;
    },
    async record(drafts) {
      if (drafts.length === 0) return 0;
      const rows = drafts.map((draft) => ({
        id: callId(draft.model, draft.subject, draft.period),
        model: draft.model,
        subject: draft.subject,
        period: draft.period,
        issuedAt: new Date(draft.issuedAt),
        resolvesAt: new Date(draft.resolvesAt),
        statement: draft.statement,
        probability: draft.probability,
        call: { evidence: draft.evidence, resolutionRule: draft.resolutionRule, method: draft.method } satisfies StoredCall,
      }));
      const insert = db.insert(calls).values(rows).onConflictDoNothing().returning({ id: calls.id }).execute();
      return (await boundedCall(insert, STORE_TIMEOUT_MS, 'insert into intelligence_ledger_calls')).length;
    },
    due: (now) => read(and(isNull(resolutions.callId), lte(calls.resolvesAt, now)), 'oldest', 'select due ledger calls'),
    async resolve(items) {
      if (items.length === 0) return 0;
      const rows = items.map(({ callId: id, resolution }) => ({
        callId: id,
        status: resolution.status,
        outcome: resolution.outcome,
        observed: { value: resolution.observedValue, category: resolution.observedCategory, asOf: resolution.observedAsOf, reason: resolution.reason } satisfies StoredObservation,
        resolvedAt: new Date(resolution.resolvedAt),
      }));
      const insert = db.insert(resolutions).values(rows).onConflictDoNothing().returning({ callId: resolutions.callId }).execute();
      return (await boundedCall(insert, STORE_TIMEOUT_MS, 'insert into intelligence_ledger_resolutions')).length;
    },
    calls: (filter) => read(and(filter.model === undefined ? undefined : eq(calls.model, filter.model), statusCondition(filter.status)), 'newest', 'select ledger calls'),
    async call(id) {
      const [found] = await read(and(eq(calls.id, id)), 'newest', 'select one ledger call');
      return found;
    },
  };
}

/** The store's methods, for a test to show it has no way to change a row. */
export const LEDGER_STORE_METHODS = ['has', 'record', 'due', 'resolve', 'calls', 'call'] as const;

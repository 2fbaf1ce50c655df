import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, lte, or } from 'drizzle-orm';
import { paymentCallbacks } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import { type CallbackAttemptOutcome, type CallbackStep, checkCallbackUrl, nextCallbackStep } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;

export type PaymentCallbackRow = typeof paymentCallbacks.$inferSelect;

/** What the outbox writes through: the database or a transaction of the caller's (a transaction is a Database). */
export type CallbackWriter = Pick<Database, 'insert' | 'select'>;

export interface CallbackToEnqueue {
  railPaymentId: string;
  /** The receiver's URL (http or https; check it at the edge with checkCallbackUrl). */
  url: string;
  /** The exact JSON text that will be POSTed and signed (the PaymentResult). */
  body: string;
}

export type RecordAttemptResult =
  | { recorded: true; step: CallbackStep }
  /** The worker no longer held the lease (it expired, another worker took the row): nothing was written. */
  | { recorded: false };

export interface CallbackStoreOptions {
  /** Bound of every call; default 5 s. */
  timeoutMs?: number;
  /** Callback ids; default random UUIDs. */
  newId?: () => string;
}

/**
 * The payment callback outbox (payment_callbacks); every call bounded in time.
 * 1. enqueue writes through the caller's transaction, so the payment's result and its callback
 *    commit or roll back together: a committed result always has its callback (the outbox).
 * 2. claimDue takes due rows with SELECT ... FOR UPDATE SKIP LOCKED and sets a lease in the same
 *    transaction: two workers never hold one row, and a row whose worker died is taken again once
 *    its lease has run out.
 * 3. recordAttempt writes an attempt only while the worker still holds the lease, so a worker that
 *    lost its row (lease expired, the row re-sent by another) can never move it twice.
 */
export function createCallbackStore(db: Database, options: CallbackStoreOptions = {}) {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  const store: StoreContext = {
    db,
    newId: options.newId ?? randomUUID,
    bounded: <T>(work: Promise<T>, operation: string) => boundedCall(work, timeoutMs, operation),
  };
  return {
    enqueue: (tx: CallbackWriter, callback: CallbackToEnqueue, now: Date) => enqueue(store, tx, callback, now),
    claimDue: (now: Date, workerId: string, limit: number, leaseMs: number) => claimDue(store, now, workerId, limit, leaseMs),
    recordAttempt: (id: string, workerId: string, outcome: CallbackAttemptOutcome, now: Date) => recordAttempt(store, id, workerId, outcome, now),
    findByPayment: (railPaymentId: string) => findByPayment(store, railPaymentId),
  };
}

/** What the outbox's functions are given: the database, the callback ids, the bound of every call. */
interface StoreContext {
  db: Database;
  newId: () => string;
  bounded: <T>(work: Promise<T>, operation: string) => Promise<T>;
}

/**
 * Adds the callback of a payment's final result, due at once (`now`), in the caller's
 * transaction `tx`. One callback per payment: a second enqueue for the same railPaymentId
 * keeps the first and answers its id with `enqueued: false`. An unusable URL is a RangeError
 * (validate it at the edge, where it is a 400).
 */
async function enqueue(store: StoreContext, tx: CallbackWriter, callback: CallbackToEnqueue, now: Date): Promise<{ id: string; enqueued: boolean }> {
  const checked = checkCallbackUrl(callback.url);
  if (!checked.ok) throw new RangeError(`callbackUrl refused: ${checked.reason}`);
  const id = store.newId();
  const inserted = await store.bounded(
    tx
      .insert(paymentCallbacks)
      .values({ id, railPaymentId: callback.railPaymentId, url: callback.url, body: callback.body, nextAttemptAt: now, createdAt: now })
      .onConflictDoNothing({ target: paymentCallbacks.railPaymentId })
      .returning({ id: paymentCallbacks.id })
      .execute(),
    'insert into payment_callbacks',
  );
  if (inserted.length > 0) return { id, enqueued: true };
  const [existing] = await store.bounded(
    tx.select({ id: paymentCallbacks.id }).from(paymentCallbacks).where(eq(paymentCallbacks.railPaymentId, callback.railPaymentId)).execute(),
    'select from payment_callbacks (enqueue)',
  );
  if (!existing) throw new Error(`payment_callbacks: no row for ${callback.railPaymentId} after a conflict`);
  return { id: existing.id, enqueued: false };
}

/**
 * Up to `limit` PENDING callbacks due at `now` and not leased to anyone, oldest due first,
 * leased to `workerId` until now + leaseMs. Rows another transaction has locked are skipped,
 * not waited for.
 */
async function claimDue(store: StoreContext, now: Date, workerId: string, limit: number, leaseMs: number): Promise<PaymentCallbackRow[]> {
  const claimedUntil = new Date(now.getTime() + leaseMs);
  const work = store.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: paymentCallbacks.id })
      .from(paymentCallbacks)
      .where(and(eq(paymentCallbacks.state, 'PENDING'), lte(paymentCallbacks.nextAttemptAt, now), or(isNull(paymentCallbacks.claimedUntil), lte(paymentCallbacks.claimedUntil, now))))
      .orderBy(asc(paymentCallbacks.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((row) => row.id);
    return tx.update(paymentCallbacks).set({ claimedBy: workerId, claimedUntil }).where(inArray(paymentCallbacks.id, ids)).returning();
  });
  const rows = await store.bounded(work, 'claim due payment_callbacks');
  return rows.sort((left, right) => left.nextAttemptAt.getTime() - right.nextAttemptAt.getTime());
}

/**
 * Records the attempt `workerId` made on callback `id` and ended at `now`: the attempt count,
 * the state and the next due time follow the schedule (domain nextCallbackStep), and the lease
 * is released. Written only while the worker holds an unexpired lease on a PENDING row.
 */
async function recordAttempt(store: StoreContext, id: string, workerId: string, outcome: CallbackAttemptOutcome, now: Date): Promise<RecordAttemptResult> {
  const work = store.db.transaction(async (tx): Promise<RecordAttemptResult> => {
    const [row] = await tx
      .select({ attempt: paymentCallbacks.attempt, nextAttemptAt: paymentCallbacks.nextAttemptAt })
      .from(paymentCallbacks)
      .where(leaseHeld(id, workerId, now))
      .for('update');
    if (!row) return { recorded: false };
    const step = nextCallbackStep(row.attempt, outcome, now);
    await tx
      .update(paymentCallbacks)
      .set({
        attempt: step.attemptsMade,
        state: step.state,
        nextAttemptAt: step.nextAttemptAt ?? row.nextAttemptAt,
        lastStatus: step.lastStatus,
        lastError: step.lastError,
        claimedBy: null,
        claimedUntil: null,
        ...(step.state === 'DELIVERED' ? { deliveredAt: now } : {}),
      })
      .where(eq(paymentCallbacks.id, id));
    return { recorded: true, step };
  });
  return store.bounded(work, 'record a payment_callbacks attempt');
}

/** The callback of a payment, if it has one. */
async function findByPayment(store: StoreContext, railPaymentId: string): Promise<PaymentCallbackRow | undefined> {
  const [row] = await store.bounded(store.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.railPaymentId, railPaymentId)).execute(), 'select from payment_callbacks');
  return row;
}

function leaseHeld(id: string, workerId: string, now: Date) {
  return and(eq(paymentCallbacks.id, id), eq(paymentCallbacks.state, 'PENDING'), eq(paymentCallbacks.claimedBy, workerId), gt(paymentCallbacks.claimedUntil, now));
}

export type CallbackStore = ReturnType<typeof createCallbackStore>;

import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { payments } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { CallbackStore } from '../callbacks/store.js';
import type { PaymentResult, PaymentStatus, SettlingRecord } from '../domain/index.js';
import { canTransition } from '../domain/index.js';
import { type Claim, type ClaimContext, claimPayment, type PaymentToClaim, preparePlainClaim } from './claim.js';

const STORE_TIMEOUT_MS = 5000;
/** About 10 MB of results at ~1 KB each: the last hour's payments of a busy institution. */
export const FINAL_ROWS_CACHED = 10_000;

export type PaymentRow = typeof payments.$inferSelect;

export interface PaymentCompletion {
  result: PaymentResult;
  /** The fee quote the payment settled under. */
  quoteId?: string;
  /** When set, the result's callback is written to the outbox in the same transaction. */
  callbackUrl?: string;
}

export interface PaymentStoreOptions {
  /** Bound of every call; default 5 s. */
  timeoutMs?: number;
  /** Final rows kept in memory for replays; default FINAL_ROWS_CACHED. */
  finalRowsCached?: number;
  /**
   * Called after complete's transaction committed a new callback row (never before the commit,
   * never when no row was enqueued): wakes this process's callback worker so the first attempt
   * goes out at once (decision 0024 §12). Must not throw: the result is already stored.
   */
  onCallbackQueued?: () => void;
}

const epochDate = (seconds: number) => new Date(seconds * 1000);

/** The values of a payment's final write (times as ISO text, nulls kept). */
type FinalColumns = {
  railPaymentId: string;
  status: PaymentStatus;
  resultJson: string;
  quoteId: string | null;
  settledAt: string | null;
  txHash: string | null;
  now: string;
};

/**
 * The payments table; every call bounded in time.
 * 1. claim inserts the PENDING row with INSERT ... ON CONFLICT (tms_reference, institution_id) DO
 *    NOTHING: of any number of identical requests of one institution at the same moment, on one
 *    process or several, exactly one inserts (the unique index decides) and runs the payment;
 *    another institution's reference of the same text is another payment (decision 0050). Every other reads the row: the same
 *    request digest answers the stored result (a retry never sends twice), another digest is a
 *    409 PAY_ERR_IDEMPOTENCY_CONFLICT.
 * 2. complete moves the row out of PENDING once (the update is conditioned on PENDING and the
 *    transition checked by the domain) and, when the payment has a callbackUrl, writes its
 *    callback to the outbox in the same transaction: a final result always has its callback.
 * 3. recordSettling marks, still only while PENDING, what the payment reached just before its
 *    settlement is sent; pendingSince lists what a stopped process may have left (decision 0039).
 */
export function createPaymentStore(db: Database, callbacks: Pick<CallbackStore, 'enqueue'>, options: PaymentStoreOptions = {}) {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  const finalRows = createFinalRows(options.finalRowsCached ?? FINAL_ROWS_CACHED);
  const statements = prepareStatements(db);
  const context: StoreContext = {
    db,
    callbacks,
    options,
    statements,
    finalRows,
    bounded: <T>(work: Promise<T>, operation: string) => boundedCall(work, timeoutMs, operation),
    insertPlainClaim: statements.insertPlainClaim,
    isKnownFinal: (institutionId, tmsReference) => finalRows.has(institutionId, tmsReference),
    findByTmsReference: (institutionId, tmsReference) => findByTmsReference(context, institutionId, tmsReference),
  };
  return {
    claim: (claim: PaymentToClaim, now: Date): Promise<Claim> => claimPayment(context, claim, now),
    /** Writes the final result; false when the payment had already left PENDING (nothing written). */
    complete: (railPaymentId: string, completion: PaymentCompletion, now: Date) => complete(context, railPaymentId, completion, now),
    /**
     * Records what the payment reached just before its settlement is sent (decision 0039); false
     * when it has left PENDING meanwhile (a recovery ended it): then nothing may be sent.
     */
    recordSettling: (railPaymentId: string, settling: SettlingRecord, now: Date) => recordSettling(context, railPaymentId, settling, now),
    /** PENDING payments whose last step is at or before `lastStepBefore`, oldest first: the candidates for recovery. */
    pendingSince: (lastStepBefore: Date, limit: number) => pendingSince(context, lastStepBefore, limit),
    findById: (railPaymentId: string) => findById(context, railPaymentId),
    /** The institution's payment under its tmsReference. */
    findByTmsReference: context.findByTmsReference,
    /** Every institution's payment under a tmsReference (the admin's lookup), oldest first. */
    findAllByTmsReference: (tmsReference: string) => findAllByTmsReference(context, tmsReference),
  };
}

export type PaymentStore = ReturnType<typeof createPaymentStore>;

/** What the store's functions share: the claim's needs, the callback outbox, its statements and the final rows it keeps. */
interface StoreContext extends ClaimContext {
  callbacks: Pick<CallbackStore, 'enqueue'>;
  options: PaymentStoreOptions;
  statements: ReturnType<typeof prepareStatements>;
  finalRows: FinalRows;
}

type FinalRows = ReturnType<typeof createFinalRows>;

/**
 * Final rows by institution and tmsReference (decision 0039): a row out of PENDING never changes again (complete
 * writes only from PENDING, and rows are never deleted), so a replay answered from here is the
 * one the database would give, on any replica. PENDING rows are never kept.
 */
function createFinalRows(max: number) {
  const rows = new LRUCache<string, PaymentRow>({ max });
  const keyOf = (institutionId: string, tmsReference: string) => `${institutionId}\u0000${tmsReference}`;
  return {
    get: (institutionId: string, tmsReference: string) => rows.get(keyOf(institutionId, tmsReference)),
    has: (institutionId: string, tmsReference: string) => rows.has(keyOf(institutionId, tmsReference)),
    keepIfFinal(row: PaymentRow | undefined): PaymentRow | undefined {
      if (row && row.status !== 'PENDING') rows.set(keyOf(row.institutionId, row.tmsReference), row);
      return row;
    },
  };
}

/**
 * The final write's SET, one definition for both paths: with placeholders (prepared, no callback)
 * or with the values themselves (inside the callback's transaction). A quote recorded at the
 * settling stays when the completion names none.
 */
const finalSet = (value: (name: keyof FinalColumns) => unknown) => ({
  status: sql`${value('status')}`,
  result: sql`${value('resultJson')}::jsonb`,
  quoteId: sql`coalesce(${value('quoteId')}::text, ${payments.quoteId})`,
  settledAt: sql`${value('settledAt')}::timestamptz`,
  txHash: sql`${value('txHash')}::text`,
  updatedAt: sql`${value('now')}::timestamptz`,
});

/**
 * The statements of every payment, prepared once (decision 0039). Nullable values go as raw
 * placeholders with a cast (drizzle would run a column's encoder on a null placeholder), times as
 * ISO text (the postgres-js driver sends timestamptz parameters as text).
 */
function prepareStatements(db: Database) {
  const byTmsReference = db
    .select()
    .from(payments)
    .where(and(eq(payments.tmsReference, sql.placeholder('tmsReference')), eq(payments.institutionId, sql.placeholder('institutionId'))))
    .prepare('payments_by_tms_reference');
  const byRailPaymentId = db
    .select()
    .from(payments)
    .where(eq(payments.railPaymentId, sql.placeholder('railPaymentId')))
    .prepare('payments_by_rail_payment_id');
  const insertPlainClaim = preparePlainClaim(db);
  const stillPending = and(eq(payments.railPaymentId, sql.placeholder('railPaymentId')), eq(payments.status, 'PENDING' satisfies PaymentStatus));
  const completeWithoutCallback = db
    .update(payments)
    .set(finalSet((name) => sql.placeholder(name)))
    .where(stillPending)
    .returning({ railPaymentId: payments.railPaymentId })
    .prepare('payments_complete');
  const recordSettlingRow = db
    .update(payments)
    .set({ settling: sql`${sql.placeholder('settlingJson')}::jsonb`, quoteId: sql`${sql.placeholder('quoteId')}::text`, updatedAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(stillPending)
    .returning({ railPaymentId: payments.railPaymentId })
    .prepare('payments_record_settling');
  return { byTmsReference, byRailPaymentId, insertPlainClaim, completeWithoutCallback, recordSettlingRow };
}

/** The final write's values: what the result says of the row's own columns. */
function finalColumns(railPaymentId: string, completion: PaymentCompletion, now: Date): FinalColumns {
  const { result } = completion;
  return {
    railPaymentId,
    status: result.status,
    resultJson: JSON.stringify(result),
    quoteId: completion.quoteId ?? null,
    settledAt: result.settledAt > 0 ? epochDate(result.settledAt).toISOString() : null,
    txHash: result.settlement.txHash || null,
    now: now.toISOString(),
  };
}

async function findByTmsReference(context: StoreContext, institutionId: string, tmsReference: string): Promise<PaymentRow | undefined> {
  const known = context.finalRows.get(institutionId, tmsReference);
  if (known) return known;
  const [row] = await context.bounded(context.statements.byTmsReference.execute({ tmsReference, institutionId }), 'select from payments by tms_reference');
  return context.finalRows.keepIfFinal(row);
}

async function complete(context: StoreContext, railPaymentId: string, completion: PaymentCompletion, now: Date): Promise<boolean> {
  const { result } = completion;
  if (!canTransition('PENDING', result.status)) throw new RangeError(`a payment cannot move from PENDING to ${result.status}`);
  const values = finalColumns(railPaymentId, completion, now);
  // Without a callback the final write is one statement; with one, the same statement and the callback in one transaction.
  if (!completion.callbackUrl) return (await context.bounded(context.statements.completeWithoutCallback.execute(values), 'update payments (complete)')).length === 1;
  const { callbackUrl } = completion;
  const work = context.db.transaction(async (tx) => {
    const updated = await tx
      .update(payments)
      .set(finalSet((name) => values[name]))
      .where(and(eq(payments.railPaymentId, railPaymentId), eq(payments.status, 'PENDING' satisfies PaymentStatus)))
      .returning({ railPaymentId: payments.railPaymentId });
    if (updated.length === 0) return { completed: false, enqueued: false };
    const { enqueued } = await context.callbacks.enqueue(tx, { railPaymentId, url: callbackUrl, body: JSON.stringify(result) }, now);
    return { completed: true, enqueued };
  });
  const { completed, enqueued } = await context.bounded(work, 'update payments (complete)');
  if (enqueued) context.options.onCallbackQueued?.();
  return completed;
}

async function recordSettling(context: StoreContext, railPaymentId: string, settling: SettlingRecord, now: Date): Promise<boolean> {
  const rows = await context.bounded(
    context.statements.recordSettlingRow.execute({ railPaymentId, settlingJson: JSON.stringify(settling), quoteId: settling.quoteId, now: now.toISOString() }),
    'update payments (settling)',
  );
  return rows.length === 1;
}

async function pendingSince(context: StoreContext, lastStepBefore: Date, limit: number): Promise<PaymentRow[]> {
  return context.bounded(
    context.db
      .select()
      .from(payments)
      .where(and(eq(payments.status, 'PENDING' satisfies PaymentStatus), lte(payments.updatedAt, lastStepBefore)))
      .orderBy(asc(payments.updatedAt))
      .limit(limit)
      .execute(),
    'select pending payments',
  );
}

async function findById(context: StoreContext, railPaymentId: string): Promise<PaymentRow | undefined> {
  const [row] = await context.bounded(context.statements.byRailPaymentId.execute({ railPaymentId }), 'select from payments by rail_payment_id');
  return context.finalRows.keepIfFinal(row);
}

async function findAllByTmsReference(context: StoreContext, tmsReference: string): Promise<PaymentRow[]> {
  const rows = await context.bounded(
    context.db.select().from(payments).where(eq(payments.tmsReference, tmsReference)).orderBy(asc(payments.submittedAt), asc(payments.institutionId)).execute(),
    'select from payments by tms_reference (every institution)',
  );
  for (const row of rows) context.finalRows.keepIfFinal(row);
  return rows;
}

import { and, eq } from 'drizzle-orm';
import { payments } from '../../drizzle/schema.js';
import type { Database } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { boundedCall } from '../../platform/timeout.js';
import type { CallbackStore } from './callback-store.js';
import type { NativePayment, PaymentResult, PaymentStatus } from './domain/index.js';
import { canTransition } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;

export type PaymentRow = typeof payments.$inferSelect;

/** A claim's answer: this request owns the payment and runs it, or another request already did (or is doing) it. */
export type Claim = { kind: 'claimed'; row: PaymentRow } | { kind: 'replay'; row: PaymentRow };

export interface PaymentToClaim {
  railPaymentId: string;
  payment: NativePayment;
  /** Hex SHA-256 of the request's RFC 8785 canonical JSON. */
  requestSha256: string;
  /** The PENDING result stored at the claim. */
  pending: PaymentResult;
  /** A settlement agent's settlement (POST /agent/settle with X-Agent-Id): counted in its daily cap. */
  agent?: AgentClaim;
}

/** Who asked for a settlement through the settlement agent, and its USD value as the mandate was checked. */
export interface AgentClaim {
  agentId: string;
  /** Decimal text. */
  amountUsd: string;
}

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
}

const epochDate = (seconds: number) => new Date(seconds * 1000);

/**
 * The payments table; every call bounded in time.
 * 1. claim inserts the PENDING row with INSERT ... ON CONFLICT (tms_reference) DO NOTHING: of
 *    any number of identical requests at the same moment, on one process or several, exactly one
 *    inserts (the unique index decides) and runs the payment. Every other reads the row: the same
 *    request digest answers the stored result (a retry never sends twice), another digest is a
 *    409 PAY_ERR_IDEMPOTENCY_CONFLICT.
 * 2. complete moves the row out of PENDING once (the update is conditioned on PENDING and the
 *    transition checked by the domain) and, when the payment has a callbackUrl, writes its
 *    callback to the outbox in the same transaction: a final result always has its callback.
 */
export function createPaymentStore(db: Database, callbacks: Pick<CallbackStore, 'enqueue'>, options: PaymentStoreOptions = {}) {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, timeoutMs, operation);

  async function findByTmsReference(tmsReference: string): Promise<PaymentRow | undefined> {
    const [row] = await bounded(db.select().from(payments).where(eq(payments.tmsReference, tmsReference)).execute(), 'select from payments by tms_reference');
    return row;
  }

  return {
    async claim(claim: PaymentToClaim, now: Date): Promise<Claim> {
      const inserted = await bounded(
        db
          .insert(payments)
          .values({
            railPaymentId: claim.railPaymentId,
            tmsReference: claim.payment.tmsReference,
            requestSha256: claim.requestSha256,
            request: claim.payment,
            status: 'PENDING',
            result: claim.pending,
            quoteId: null,
            submittedAt: now,
            settledAt: null,
            txHash: null,
            agentId: claim.agent?.agentId ?? null,
            agentAmountUsd: claim.agent?.amountUsd ?? null,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: payments.tmsReference })
          .returning()
          .execute(),
        'insert into payments (claim)',
      );
      if (inserted[0]) return { kind: 'claimed', row: inserted[0] };
      const existing = await findByTmsReference(claim.payment.tmsReference);
      // The conflicting row is committed (ON CONFLICT waited for it) and rows are never deleted.
      if (!existing) throw new Error(`payments: no row for the conflicting tmsReference after a claim`);
      if (existing.requestSha256 !== claim.requestSha256) throw new AppError('PAY_ERR_IDEMPOTENCY_CONFLICT');
      return { kind: 'replay', row: existing };
    },

    /** Writes the final result; false when the payment had already left PENDING (nothing written). */
    async complete(railPaymentId: string, completion: PaymentCompletion, now: Date): Promise<boolean> {
      const { result } = completion;
      if (!canTransition('PENDING', result.status)) throw new RangeError(`a payment cannot move from PENDING to ${result.status}`);
      const work = db.transaction(async (tx) => {
        const updated = await tx
          .update(payments)
          .set({
            status: result.status,
            result,
            quoteId: completion.quoteId ?? null,
            settledAt: result.settledAt > 0 ? epochDate(result.settledAt) : null,
            txHash: result.settlement.txHash || null,
            updatedAt: now,
          })
          .where(and(eq(payments.railPaymentId, railPaymentId), eq(payments.status, 'PENDING' satisfies PaymentStatus)))
          .returning({ railPaymentId: payments.railPaymentId });
        if (updated.length === 0) return false;
        if (completion.callbackUrl) await callbacks.enqueue(tx, { railPaymentId, url: completion.callbackUrl, body: JSON.stringify(result) }, now);
        return true;
      });
      return bounded(work, 'update payments (complete)');
    },

    async findById(railPaymentId: string): Promise<PaymentRow | undefined> {
      const [row] = await bounded(db.select().from(payments).where(eq(payments.railPaymentId, railPaymentId)).execute(), 'select from payments by rail_payment_id');
      return row;
    },

    findByTmsReference,
  };
}

export type PaymentStore = ReturnType<typeof createPaymentStore>;

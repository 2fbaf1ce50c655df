import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { paymentQuoteUses, payments, SETTLEMENT_AGENT_INSTITUTION } from '../../../drizzle/schema.js';
import { canonicalSha256, type JsonValue } from '../../../platform/canonical-json.js';
import type { Database } from '../../../platform/db.js';
import { AppError } from '../../../platform/errors.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { CallbackStore } from '../callbacks/store.js';
import type { Funder, NativePayment, PaymentResult, PaymentStatus, SettlingRecord } from '../domain/index.js';
import { canTransition } from '../domain/index.js';

const STORE_TIMEOUT_MS = 5000;
/** About 10 MB of results at ~1 KB each: the last hour's payments of a busy institution. */
export const FINAL_ROWS_CACHED = 10_000;

export type PaymentRow = typeof payments.$inferSelect;

/** Settlements that spend the funds: settled, or under way (they may settle). */
const SPENDING: PaymentStatus[] = ['SETTLED', 'PENDING'];

/** The payments paid from the funder's funds: the agent's settlements, or those under its issuer's mandate alone. */
const paymentsOf = (funder: Funder) => (funder.kind === 'agent' ? eq(payments.agentId, funder.agentId) : eq(payments.fundingIssuer, funder.issuer));

/**
 * What counts as spent of the funder's funds (decision 0049 §3): its SETTLED and PENDING
 * payments. The one filter of the funds' balance (agent/funds-store.ts) and of the claim's checks.
 */
export const spendingOf = (funder: Funder) => and(paymentsOf(funder), inArray(payments.status, SPENDING));

/**
 * The digest a payment stored before decision 0050's one spelling of the amount was kept under: the
 * RFC 8785 digest of the payment as sent ("100.00", not "100"). Asked only when the current digest
 * differs, so a retry of such a payment is still a replay.
 */
const legacyDigestOf = (payment: NativePayment): string => canonicalSha256(payment as unknown as JsonValue);

/** A claim's answer: this request owns the payment and runs it, or another request already did (or is doing) it. */
export type Claim = { kind: 'claimed'; row: PaymentRow } | { kind: 'replay'; row: PaymentRow } | { kind: 'over-daily-cap'; settledUsd: string } | { kind: 'over-funds'; spentUsd: string };

/**
 * A payment to claim, with the institution that will own it (decision 0050): every claim names it,
 * but a settlement agent's claim may leave it out: agent settlements belong to the institution
 * `settlement-agent` (SETTLEMENT_AGENT_INSTITUTION).
 */
export type PaymentToClaim = ClaimedRequest & ({ institution: string } | { institution?: undefined; agent: AgentClaim });

interface ClaimedRequest {
  railPaymentId: string;
  payment: NativePayment;
  /** Hex SHA-256 of the request's RFC 8785 canonical JSON. */
  requestSha256: string;
  /** The PENDING result stored at the claim. */
  pending: PaymentResult;
  /** A settlement agent's settlement (POST /agent/settle): counted in its agent's daily cap, spending its funder's funds. */
  agent?: AgentClaim;
}

/** The institution a claim is for. */
export const ownerOf = (claim: PaymentToClaim): string => claim.institution ?? SETTLEMENT_AGENT_INSTITUTION;

/**
 * A settlement of the settlement agent and whose funds pay it (decision 0049): an agent's
 * (X-Agent-Id), counted in its daily cap and paid by its owner, or one under an AP2 mandate alone,
 * paid by the mandate's trusted issuer (§9).
 */
export type AgentClaim = AgentSpendClaim | IssuerSpendClaim;

/** Who asked for a settlement through the settlement agent, and its USD value as the mandate was checked. */
export interface AgentSpendClaim {
  agentId: string;
  issuer?: undefined;
  /** Decimal text. */
  amountUsd: string;
  /**
   * The agent's daily cap (USD, decimal text) and the start of its day: the claim re-checks the cap
   * atomically, one claim of the agent at a time, so two settlements at once cannot both pass it.
   */
  dailyCap?: { capUsd: string; since: Date };
  /**
   * USD its owner deposited for the agent (decimal text, decision 0049): the claim refuses when
   * the agent's SETTLED and PENDING settlements and this one would spend more.
   */
  fundsUsd?: string;
}

/** A settlement under an AP2 mandate alone (decision 0049 §9): the issuer's funds pay it. */
export interface IssuerSpendClaim {
  agentId?: undefined;
  /** The mandate's trusted issuer (`iss`). */
  issuer: string;
  /** Decimal text: its USD value. */
  amountUsd: string;
  dailyCap?: undefined;
  /** USD deposited for the issuer (decimal text): the claim refuses when its SETTLED and PENDING settlements and this one would spend more. */
  fundsUsd: string;
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
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, timeoutMs, operation);
  const byTmsReference = db
    .select()
    .from(payments)
    .where(and(eq(payments.tmsReference, sql.placeholder('tmsReference')), eq(payments.institutionId, sql.placeholder('institutionId'))))
    .prepare('payments_by_tms_reference');
  const byRailPaymentId = db.select().from(payments).where(eq(payments.railPaymentId, sql.placeholder('railPaymentId'))).prepare('payments_by_rail_payment_id');
  /**
   * Final rows by institution and tmsReference (decision 0039): a row out of PENDING never changes again (complete
   * writes only from PENDING, and rows are never deleted), so a replay answered from here is the
   * one the database would give, on any replica. PENDING rows are never kept.
   */
  const finalRows = new LRUCache<string, PaymentRow>({ max: options.finalRowsCached ?? FINAL_ROWS_CACHED });
  const finalKey = (institutionId: string, tmsReference: string) => `${institutionId}\u0000${tmsReference}`;
  const keepIfFinal = (row: PaymentRow | undefined) => {
    if (row && row.status !== 'PENDING') finalRows.set(finalKey(row.institutionId, row.tmsReference), row);
    return row;
  };

  // The statements of every payment, prepared once (decision 0039). Nullable values go as raw
  // placeholders with a cast (drizzle would run a column's encoder on a null placeholder), times as
  // ISO text (the postgres-js driver sends timestamptz parameters as text).
  const insertPlainClaim = db
    .insert(payments)
    .values({
      railPaymentId: sql.placeholder('railPaymentId'),
      institutionId: sql.placeholder('institutionId'),
      tmsReference: sql.placeholder('tmsReference'),
      requestSha256: sql.placeholder('requestSha256'),
      request: sql.placeholder('request'),
      status: 'PENDING',
      result: sql.placeholder('result'),
      submittedAt: sql.placeholder('now'),
      createdAt: sql.placeholder('now'),
      updatedAt: sql.placeholder('now'),
    })
    .onConflictDoNothing({ target: [payments.tmsReference, payments.institutionId] })
    .returning()
    .prepare('payments_claim');
  const stillPending = and(eq(payments.railPaymentId, sql.placeholder('railPaymentId')), eq(payments.status, 'PENDING' satisfies PaymentStatus));
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

  /** The institution's payment under its tmsReference. */
  async function findByTmsReference(institutionId: string, tmsReference: string): Promise<PaymentRow | undefined> {
    const known = finalRows.get(finalKey(institutionId, tmsReference));
    if (known) return known;
    const [row] = await bounded(byTmsReference.execute({ tmsReference, institutionId }), 'select from payments by tms_reference');
    return keepIfFinal(row);
  }

  /** INSERT ... ON CONFLICT (tms_reference, institution_id) DO NOTHING, on the database or inside a transaction: the row, or none when the reference is taken. */
  async function insertClaim(executor: Pick<Database, 'insert'>, claim: PaymentToClaim, now: Date): Promise<PaymentRow | undefined> {
    const [row] = await executor
      .insert(payments)
      .values({
        railPaymentId: claim.railPaymentId,
        institutionId: ownerOf(claim),
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
        fundingIssuer: claim.agent?.issuer ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: [payments.tmsReference, payments.institutionId] })
      .returning()
      .execute();
    return row;
  }

  /** The reference is taken: the stored payment for the same request, 409 for another. */
  async function replayOf(claim: PaymentToClaim): Promise<Claim> {
    const existing = await findByTmsReference(ownerOf(claim), claim.payment.tmsReference);
    // The conflicting row is committed (ON CONFLICT waited for it) and rows are never deleted.
    if (!existing) throw new Error(`payments: no row for the conflicting tmsReference after a claim`);
    if (existing.requestSha256 !== claim.requestSha256 && existing.requestSha256 !== legacyDigestOf(claim.payment)) throw new AppError('PAY_ERR_IDEMPOTENCY_CONFLICT');
    return { kind: 'replay', row: existing };
  }

  /**
   * The payment's row, then its quote's use, inside the caller's transaction (decision 0046): a
   * quote already used by another payment (at once on another replica included: the second insert
   * waits for the first's commit) throws 409, which rolls the transaction back, so nothing of this
   * payment is stored.
   */
  async function insertClaimWithQuote(tx: Pick<Database, 'insert'>, claim: PaymentToClaim, quoteId: string, now: Date): Promise<PaymentRow | undefined> {
    const row = await insertClaim(tx, claim, now);
    if (!row) return undefined;
    const [use] = await tx.insert(paymentQuoteUses).values({ quoteId, railPaymentId: claim.railPaymentId, usedAt: now }).onConflictDoNothing().returning({ quoteId: paymentQuoteUses.quoteId });
    if (!use) throw new AppError('PAY_ERR_QUOTE_USED');
    return row;
  }

  /** The claim's insert: with its quote's use when the payment names a quote, else the prepared statement (the agent's row has more columns). */
  function insertClaimOf(claim: PaymentToClaim, now: Date): Promise<PaymentRow | undefined> {
    const { quoteId } = claim.payment;
    if (quoteId) return db.transaction((tx) => insertClaimWithQuote(tx, claim, quoteId, now));
    return claim.agent
      ? insertClaim(db, claim, now)
      : insertPlainClaim
          .execute({ railPaymentId: claim.railPaymentId, institutionId: ownerOf(claim), tmsReference: claim.payment.tmsReference, requestSha256: claim.requestSha256, request: claim.payment, result: claim.pending, now })
          .then(([row]) => row);
  }

  async function claimOnce(claim: PaymentToClaim, now: Date): Promise<Claim> {
    // A reference known final is a replay: answered without a statement.
    if (finalRows.has(finalKey(ownerOf(claim), claim.payment.tmsReference))) return replayOf(claim);
    const row = await bounded(insertClaimOf(claim, now), 'insert into payments (claim)');
    return row ? { kind: 'claimed', row } : replayOf(claim);
  }

  /**
   * An agent's claims are taken one at a time (a transaction-scoped advisory lock on the agent, on
   * every replica), each re-reading what the agent settled since the start of its day, and what it
   * spent of its owner's funds (decision 0049): the daily cap and the funds hold under concurrency,
   * which a check before the claim alone cannot promise. A settlement under an AP2 mandate alone
   * takes its issuer's lock and counts its issuer's spending the same way (§9). A payment already
   * claimed under the tmsReference is a replay, whatever the limits say now.
   */
  async function claimWithinAgentLimits(claim: PaymentToClaim, agent: AgentClaim, now: Date): Promise<Claim> {
    const { amountUsd, dailyCap: cap, fundsUsd } = agent;
    const lock = agent.issuer === undefined ? `agent-claim:${agent.agentId}` : `ap2-issuer-claim:${agent.issuer}`;
    const work = db.transaction(async (tx): Promise<Claim | undefined> => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lock}))`);
      const [existing] = await tx
        .select({ railPaymentId: payments.railPaymentId })
        .from(payments)
        .where(and(eq(payments.tmsReference, claim.payment.tmsReference), eq(payments.institutionId, ownerOf(claim))));
      if (existing) return undefined;
      const counted = spendingOf(agent.issuer === undefined ? { kind: 'agent', agentId: agent.agentId } : { kind: 'issuer', issuer: agent.issuer });
      const settled = sql`coalesce(sum(${payments.agentAmountUsd}), 0)`;
      if (cap) {
        const [today] = await tx
          .select({ settledUsd: sql<string>`${settled}::text`, fits: sql<boolean>`${settled} + ${amountUsd}::numeric <= ${cap.capUsd}::numeric` })
          .from(payments)
          .where(and(counted, gte(payments.submittedAt, cap.since)));
        if (!today?.fits) return { kind: 'over-daily-cap', settledUsd: today?.settledUsd ?? '0' };
      }
      if (fundsUsd !== undefined) {
        const [spent] = await tx.select({ spentUsd: sql<string>`${settled}::text`, fits: sql<boolean>`${settled} + ${amountUsd}::numeric <= ${fundsUsd}::numeric` }).from(payments).where(counted);
        if (!spent?.fits) return { kind: 'over-funds', spentUsd: spent?.spentUsd ?? '0' };
      }
      const { quoteId } = claim.payment;
      const row = quoteId ? await insertClaimWithQuote(tx, claim, quoteId, now) : await insertClaim(tx, claim, now);
      return row ? { kind: 'claimed', row } : undefined;
    });
    return (await bounded(work, 'claim an agent settlement within its limits')) ?? replayOf(claim);
  }

  return {
    async claim(claim: PaymentToClaim, now: Date): Promise<Claim> {
      if (claim.agent && (claim.agent.dailyCap || claim.agent.fundsUsd !== undefined)) return claimWithinAgentLimits(claim, claim.agent, now);
      return claimOnce(claim, now);
    },

    /** Writes the final result; false when the payment had already left PENDING (nothing written). */
    async complete(railPaymentId: string, completion: PaymentCompletion, now: Date): Promise<boolean> {
      const { result } = completion;
      if (!canTransition('PENDING', result.status)) throw new RangeError(`a payment cannot move from PENDING to ${result.status}`);
      const values = finalColumns(railPaymentId, completion, now);
      // Without a callback the final write is one statement; with one, the same statement and the callback in one transaction.
      if (!completion.callbackUrl) return (await bounded(completeWithoutCallback.execute(values), 'update payments (complete)')).length === 1;
      const { callbackUrl } = completion;
      const work = db.transaction(async (tx) => {
        const updated = await tx
          .update(payments)
          .set(finalSet((name) => values[name]))
          .where(and(eq(payments.railPaymentId, railPaymentId), eq(payments.status, 'PENDING' satisfies PaymentStatus)))
          .returning({ railPaymentId: payments.railPaymentId });
        if (updated.length === 0) return { completed: false, enqueued: false };
        const { enqueued } = await callbacks.enqueue(tx, { railPaymentId, url: callbackUrl, body: JSON.stringify(result) }, now);
        return { completed: true, enqueued };
      });
      const { completed, enqueued } = await bounded(work, 'update payments (complete)');
      if (enqueued) options.onCallbackQueued?.();
      return completed;
    },

    /**
     * Records what the payment reached just before its settlement is sent (decision 0039); false
     * when it has left PENDING meanwhile (a recovery ended it): then nothing may be sent.
     */
    async recordSettling(railPaymentId: string, settling: SettlingRecord, now: Date): Promise<boolean> {
      const rows = await bounded(recordSettlingRow.execute({ railPaymentId, settlingJson: JSON.stringify(settling), quoteId: settling.quoteId, now: now.toISOString() }), 'update payments (settling)');
      return rows.length === 1;
    },

    /** PENDING payments whose last step is at or before `lastStepBefore`, oldest first: the candidates for recovery. */
    async pendingSince(lastStepBefore: Date, limit: number): Promise<PaymentRow[]> {
      return bounded(
        db
          .select()
          .from(payments)
          .where(and(eq(payments.status, 'PENDING' satisfies PaymentStatus), lte(payments.updatedAt, lastStepBefore)))
          .orderBy(asc(payments.updatedAt))
          .limit(limit)
          .execute(),
        'select pending payments',
      );
    },

    async findById(railPaymentId: string): Promise<PaymentRow | undefined> {
      const [row] = await bounded(byRailPaymentId.execute({ railPaymentId }), 'select from payments by rail_payment_id');
      return keepIfFinal(row);
    },

    findByTmsReference,

    /** Every institution's payment under a tmsReference (the admin's lookup), oldest first. */
    async findAllByTmsReference(tmsReference: string): Promise<PaymentRow[]> {
      const rows = await bounded(db.select().from(payments).where(eq(payments.tmsReference, tmsReference)).orderBy(asc(payments.submittedAt), asc(payments.institutionId)).execute(), 'select from payments by tms_reference (every institution)');
      for (const row of rows) keepIfFinal(row);
      return rows;
    },
  };
}

export type PaymentStore = ReturnType<typeof createPaymentStore>;

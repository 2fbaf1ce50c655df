import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { paymentQuoteUses, payments, SETTLEMENT_AGENT_INSTITUTION } from '../../../drizzle/schema.js';
import { canonicalSha256, type JsonValue } from '../../../platform/canonical-json.js';
import type { Database } from '../../../platform/db.js';
import { AppError } from '../../../platform/errors.js';
import type { Funder, NativePayment, PaymentResult, PaymentStatus } from '../domain/index.js';

/**
 * The payment claim (decisions 0025, 0046, 0049, 0050): the PENDING row inserted once per
 * institution and tmsReference, with its quote's single use, and a settlement agent's claim within
 * its daily cap and its funder's funds. The payment store (store.ts) claims through it.
 */

type PaymentRow = typeof payments.$inferSelect;

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

/** What a claim needs of the payment store (store.ts): its database, its bound, its prepared insert, its reads. */
export interface ClaimContext {
  db: Database;
  bounded: <T>(work: Promise<T>, operation: string) => Promise<T>;
  insertPlainClaim: ReturnType<typeof preparePlainClaim>;
  /** Whether the institution's reference is known final (kept in memory): its claim is a replay at once. */
  isKnownFinal(institutionId: string, tmsReference: string): boolean;
  findByTmsReference(institutionId: string, tmsReference: string): Promise<PaymentRow | undefined>;
}

/**
 * The claim's statement for a payment that names no quote and no agent, prepared once (decision
 * 0039). Nullable values go as raw placeholders with a cast (drizzle would run a column's encoder
 * on a null placeholder), times as ISO text (the postgres-js driver sends timestamptz parameters as text).
 */
export function preparePlainClaim(db: Database) {
  return db
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
}

/**
 * Claims the payment (store.ts, claim): an agent's settlement within its limits, one claim of the
 * agent (or of the AP2 issuer) at a time; any other payment at once.
 */
export function claimPayment(context: ClaimContext, claim: PaymentToClaim, now: Date): Promise<Claim> {
  if (claim.agent && (claim.agent.dailyCap || claim.agent.fundsUsd !== undefined)) return claimWithinAgentLimits(context, claim, claim.agent, now);
  return claimOnce(context, claim, now);
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
async function replayOf(context: ClaimContext, claim: PaymentToClaim): Promise<Claim> {
  const existing = await context.findByTmsReference(ownerOf(claim), claim.payment.tmsReference);
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
function insertClaimOf(context: ClaimContext, claim: PaymentToClaim, now: Date): Promise<PaymentRow | undefined> {
  const { quoteId } = claim.payment;
  if (quoteId) return context.db.transaction((tx) => insertClaimWithQuote(tx, claim, quoteId, now));
  return claim.agent
    ? insertClaim(context.db, claim, now)
    : context.insertPlainClaim
        .execute({
          railPaymentId: claim.railPaymentId,
          institutionId: ownerOf(claim),
          tmsReference: claim.payment.tmsReference,
          requestSha256: claim.requestSha256,
          request: claim.payment,
          result: claim.pending,
          now,
        })
        .then(([row]) => row);
}

async function claimOnce(context: ClaimContext, claim: PaymentToClaim, now: Date): Promise<Claim> {
  // A reference known final is a replay: answered without a statement.
  if (context.isKnownFinal(ownerOf(claim), claim.payment.tmsReference)) return replayOf(context, claim);
  const row = await context.bounded(insertClaimOf(context, claim, now), 'insert into payments (claim)');
  return row ? { kind: 'claimed', row } : replayOf(context, claim);
}

/**
 * An agent's claims are taken one at a time (a transaction-scoped advisory lock on the agent, on
 * every replica), each re-reading what the agent settled since the start of its day, and what it
 * spent of its owner's funds (decision 0049): the daily cap and the funds hold under concurrency,
 * which a check before the claim alone cannot promise. A settlement under an AP2 mandate alone
 * takes its issuer's lock and counts its issuer's spending the same way (§9). A payment already
 * claimed under the tmsReference is a replay, whatever the limits say now.
 */
async function claimWithinAgentLimits(context: ClaimContext, claim: PaymentToClaim, agent: AgentClaim, now: Date): Promise<Claim> {
  const { amountUsd, dailyCap: cap, fundsUsd } = agent;
  const lock = agent.issuer === undefined ? `agent-claim:${agent.agentId}` : `ap2-issuer-claim:${agent.issuer}`;
  const work = context.db.transaction(async (tx): Promise<Claim | undefined> => {
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
      const [spent] = await tx
        .select({ spentUsd: sql<string>`${settled}::text`, fits: sql<boolean>`${settled} + ${amountUsd}::numeric <= ${fundsUsd}::numeric` })
        .from(payments)
        .where(counted);
      if (!spent?.fits) return { kind: 'over-funds', spentUsd: spent?.spentUsd ?? '0' };
    }
    const { quoteId } = claim.payment;
    const row = quoteId ? await insertClaimWithQuote(tx, claim, quoteId, now) : await insertClaim(tx, claim, now);
    return row ? { kind: 'claimed', row } : undefined;
  });
  return (await context.bounded(work, 'claim an agent settlement within its limits')) ?? replayOf(context, claim);
}

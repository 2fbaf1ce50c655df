import { createHash } from 'node:crypto';
import type { RateLimitStore } from '../../../platform/access/rate-limit.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { type Idempotency, readIdempotencyKey } from '../../../platform/idempotency.js';
import type { IdSource } from '../../../platform/ids.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { type NativePayment, type PaymentResult, type PaymentStatus, usdcAmountAtUnitsPerUsd } from '../domain/index.js';
import type { AgentSpendClaim, IssuerSpendClaim } from '../integration/claim.js';
import { DailyCapReached, newRailPaymentId, type PaymentsService } from '../integration/service.js';
import type { ComplianceClient, RegisteredEntityView } from '../upstream/compliance.js';
import type { FeesClient } from '../upstream/fees.js';
import { Ap2MandateError, type Ap2MandateVerifier, type VerifiedAp2Mandate } from './ap2-verifier.js';
import { requireAgentOwner } from './authority.js';
import { type AgentMandateRule, checkAgentMandate, fundsCover, type RuleViolation } from './domain/index.js';
import type { AgentFundsService } from './funds.js';
import type { SettleBody } from './inputs.js';
import type { AgentSettlementStore } from './store.js';

export interface SettlementAgentDeps {
  /** The payment flow: a settlement is a native payment run through service.initiate (decision 0025). */
  payments: Pick<PaymentsService, 'initiate' | 'rate' | 'get' | 'findByTmsReference'>;
  /** Undefined without INTERNAL_KEY (the compliance oracle is closed to payments). */
  compliance: ComplianceClient | undefined;
  fees: Pick<FeesClient, 'quote'>;
  verifier: Ap2MandateVerifier;
  store: AgentSettlementStore;
  /** The wallet the rail pays from (its treasury account, decision 0025): the debtor of a settlement. */
  payerWallet(): Promise<string>;
  clock: Clock;
  ids: IdSource;
  /** The API keys' rate-limit store: the agent key's per-minute limit (decision 0048). */
  rateLimits: RateLimitStore;
  /** The owner's deposits for the agent (decision 0049). */
  funds: Pick<AgentFundsService, 'fundsOf'>;
}

export interface SettlementAgentOnlyDeps {
  fees: Pick<FeesClient, 'quote'>;
  verifier: Ap2MandateVerifier;
  /** Idempotency-Key of POST /agent/settle (decision 0048). */
  idempotency: Idempotency;
}

/** POST /agent/settle's answer (decision 0027). */
export interface SettlementAnswer {
  /** The payment's status; PENDING with held true when the agent's mandate holds it (nothing sent). */
  status: PaymentStatus;
  held: boolean;
  /** The held settlement's id (decision 0047: an operator releases or dismisses it); also in a release's answer; else null. */
  holdId: string | null;
  /** Null when held. */
  railPaymentId: string | null;
  /** The PaymentResult of the settlement; null when held. */
  result: PaymentResult | null;
  /** Every violated rule of the agent's mandate; empty unless held. */
  violations: RuleViolation[];
  /** X-Agent-Id's check: the agent and the rules that applied; null without the header. */
  agent: { agentId: string; checked: AgentMandateRule[] } | null;
  /** The accepted AP2 mandate; null without body.mandate. */
  mandate: {
    type: string;
    issuer: string;
    reference: string;
    payee: { id: string; name: string };
    paymentAmount: { amount: number; currency: string };
    constraints: Array<{ type: string; outcome: string }>;
    /** Epoch seconds. */
    expiresAt: number;
    quoteId: string;
  } | null;
}

const MAX_NAME = 140;
const USD = 'USD';
/** The settlement agent's names on the payment (creditor name when the wallet is unregistered, debtor name). */
const clip = (text: string) =>
  Array.from(text).length > MAX_NAME
    ? Array.from(text)
        .slice(0, MAX_NAME - 1)
        .join('') + '…'
    : text;

/**
 * The tmsReference of a settlement sent under an Idempotency-Key: derived from the agent and the
 * key, so a retry after a crash claims the same payment instead of sending another (decision 0048).
 */
const idempotentReferenceOf = (agentId: string, key: string) => `AGT-IK-${createHash('sha256').update(`${agentId}\n${key}`, 'utf8').digest('base64url')}`;

/** A held settlement's id: `hld_` and 22 base64url characters. */
const newHoldId = (ids: IdSource) => `hld_${ids.token(16)}`;

/** What a settlement sends: its payment's identity, the terms, who asks and under which mandate. */
export interface AgentSettlementOrder {
  railPaymentId: string;
  tmsReference: string;
  /** Decimal text. */
  amount: string;
  sourceCurrency: string;
  recipientAddress: string;
  /** The recipient wallet's registration (compliance); null when unregistered. */
  recipient: RegisteredEntityView | null;
  /** The agent that asked (its registered name when known), recorded on the payment row for its daily cap and its owner's funds. */
  agent?: { name: string | undefined; claim: AgentSpendClaim };
  mandate?: VerifiedAp2Mandate;
  /** Without an agent: the AP2 mandate's issuer, whose funds pay (decision 0049 §9), recorded on the payment row. */
  issuerFunds?: IssuerSpendClaim;
}

/**
 * The one way the settlement agent sends a settlement, for POST /agent/settle and for an
 * operator's release of a held settlement (decision 0047): a native payment through
 * service.initiate (decision 0027 §7). It throws DailyCapReached when the claim names a daily cap
 * that another settlement took meanwhile.
 */
export async function sendSettlement(deps: Pick<SettlementAgentDeps, 'payments' | 'payerWallet'>, request: RequestContext, order: AgentSettlementOrder): Promise<PaymentResult> {
  const { agent, mandate, recipient } = order;
  const payment: NativePayment = {
    tmsReference: order.tmsReference,
    amount: order.amount,
    currency: order.sourceCurrency,
    settlementAsset: 'USDC',
    creditor: {
      name: clip(recipient?.legalName ?? mandate?.payee.name ?? `Wallet ${order.recipientAddress}`),
      ...(recipient?.lei ? { lei: recipient.lei } : {}),
      walletAddress: order.recipientAddress,
    },
    debtor: {
      name: clip(agent ? `Settlement agent ${agent.name ?? agent.claim.agentId}` : `AP2 issuer ${mandate!.issuer} (its funds)`),
      walletAddress: await deps.payerWallet(),
    },
    remittanceInfo: clip(mandate ? `AP2 ${mandate.type} ${mandate.reference}` : `Settlement agent ${agent!.claim.agentId}`),
    ...(mandate ? { quoteId: mandate.quoteId } : {}),
  };
  const funds = agent?.claim ?? order.issuerFunds;
  return deps.payments.initiate(request, payment, { railPaymentId: order.railPaymentId, ...(funds ? { agent: funds } : {}) });
}

/** The compliance oracle, or 503: without INTERNAL_KEY it is closed to payments, so nothing can be screened. */
export function requireCompliance(compliance: ComplianceClient | undefined): ComplianceClient {
  if (!compliance) throw new AppError('GEN_ERR_UNAVAILABLE', { message: 'Settlements cannot be screened: INTERNAL_KEY is not configured, so the compliance oracle is closed to them.' });
  return compliance;
}

/** The answer of a settlement that was sent (POST /agent/settle, or an operator's release of a hold). */
export function sentAnswer(result: PaymentResult, by: Pick<SettlementAnswer, 'holdId' | 'agent' | 'mandate'>): SettlementAnswer {
  return { status: result.status, held: false, railPaymentId: result.railPaymentId, result, violations: [], ...by };
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function mandateView(mandate: VerifiedAp2Mandate): NonNullable<SettlementAnswer['mandate']> {
  return {
    type: mandate.type,
    issuer: mandate.issuer,
    reference: mandate.reference,
    payee: { id: mandate.payee.id, name: mandate.payee.name },
    paymentAmount: { ...mandate.paymentAmount },
    constraints: mandate.constraints.map((constraint) => ({ ...constraint })),
    expiresAt: mandate.expiresAt,
    quoteId: mandate.quoteId,
  };
}

/**
 * The settlement agent (Document 2 §4, §3 "Settlement with a mandate"; decisions 0023, 0027).
 * 1. Whose funds pay (decision 0049): with X-Agent-Id, its owner's, and its owner's X-Agent-Key is
 *    required (decision 0048), body.mandate or not; with body.mandate alone, the mandate's trusted
 *    issuer's (§9); with neither, 401. The funds must cover the amount: 409
 *    PAY_ERR_INSUFFICIENT_FUNDS before anything is held or sent, and again atomically at the
 *    payment's claim. An Idempotency-Key answers a retry with the first answer
 *    (platform/idempotency.ts), scoped by the agent, or by the mandate for a mandate alone.
 * 2. body.mandate: the quote for this call is computed (fees), the mandate verified against the
 *    settlement and that quote; any failure is PAY_ERR_MANDATE_INVALID (400).
 * 3. X-Agent-Id: the agent is verified live and its record read (compliance), the USD it settled
 *    today summed, checkAgentMandate decides: REFUSED 403 PAY_ERR_AGENT_REFUSED; HOLD records the
 *    held settlement for an operator (decision 0047) and answers PENDING, held, its holdId, every
 *    violation, nothing sent; PROCEED settles.
 * 4. Both given: both apply, the mandate first.
 * 5. An AP2 mandate's reference is recorded before anything is sent, once: a second use is
 *    PAY_ERR_MANDATE_INVALID with reason REPLAYED, even at the same moment on another replica.
 * 6. The settlement is a native payment through service.initiate: VoP, AML, settlement, the
 *    attestation and the callback outbox as for any payment.
 */
export function createSettlementAgent(deps: SettlementAgentContext) {
  return {
    settle: (request: RequestContext, body: SettleBody, agentId: string | undefined): Promise<SettlementAnswer> => settle(deps, request, body, agentId),
  };
}

/** What the settlement agent's functions are given. */
type SettlementAgentContext = SettlementAgentDeps & SettlementAgentOnlyDeps;

/** POST /agent/settle: as the proven agent (paid from its owner's funds), or under an AP2 mandate alone (paid by its issuer). */
async function settle(deps: SettlementAgentContext, request: RequestContext, body: SettleBody, agentId: string | undefined): Promise<SettlementAnswer> {
  const idempotencyKey = readIdempotencyKey(request.headers['idempotency-key']);
  if (agentId === undefined) {
    if (body.mandate === undefined)
      throw new AppError('PAY_ERR_AGENT_UNAUTHORIZED', {
        message: "A settlement names whose funds pay it: X-Agent-Id with its X-Agent-Key (the agent owner's), or body.mandate (its trusted issuer's; decision 0049).",
      });
    return settleUnderMandateAlone(deps, request, body, idempotencyKey);
  }
  const proven = await requireAgentOwner(deps, request, agentId);
  const answer = await deps.idempotency.once(`payments:agent-settle:${proven}`, idempotencyKey, body, async () => ({
    statusCode: 200,
    body: await settleAs(deps, request, body, proven, idempotencyKey),
  }));
  return answer.body;
}

async function usdValueOf(deps: SettlementAgentContext, amount: string, currency: string): Promise<string> {
  if (currency === USD) return amount;
  const rate = await deps.payments.rate(currency);
  return usdcAmountAtUnitsPerUsd(amount, rate.rate);
}

const replayed = () => new Ap2MandateError({ reason: 'REPLAYED', message: 'This mandate already authorised a settlement: a mandate settles once.' });

/** An AP2 mandate authorises one settlement, sent or held: a second use is REPLAYED, on any replica. */
async function recordMandateUse(deps: SettlementAgentContext, mandate: VerifiedAp2Mandate, usedBy: string): Promise<void> {
  if (await deps.store.recordMandateUse({ reference: mandate.reference, issuer: mandate.issuer, railPaymentId: usedBy }, deps.clock.now())) return;
  throw replayed();
}

/**
 * A held settlement is recorded before it is answered: an operator can then release or dismiss
 * it. Its AP2 mandate, if any, is used by the hold (decision 0047): a release pays once for it.
 */
async function hold(
  deps: SettlementAgentContext,
  body: SettleBody,
  held: { amountUsd: string; violations: RuleViolation[]; agent: NonNullable<SettlementAnswer['agent']>; mandate: VerifiedAp2Mandate | undefined; mandateRecorded: boolean },
): Promise<SettlementAnswer> {
  const holdId = newHoldId(deps.ids);
  if (held.mandate && !held.mandateRecorded) await recordMandateUse(deps, held.mandate, holdId);
  const request = { amount: String(body.amount), sourceCurrency: body.sourceCurrency, destinationCurrency: body.destinationCurrency, recipientAddress: body.recipientAddress };
  await deps.store.recordHold({ holdId, agentId: held.agent.agentId, request, amountUsd: held.amountUsd, violations: held.violations }, deps.clock.now());
  const { violations, agent, mandate } = held;
  return { status: 'PENDING', held: true, holdId, railPaymentId: null, result: null, violations, agent, mandate: mandate ? mandateView(mandate) : null };
}

/** Whether a payment already holds this tmsReference. */
async function claimedAlready(deps: SettlementAgentContext, tmsReference: string): Promise<boolean> {
  return deps.payments.findByTmsReference(tmsReference).then(
    () => true,
    (error: unknown) => {
      if (error instanceof AppError && error.code === 'PAY_ERR_PAYMENT_NOT_FOUND') return false;
      throw error;
    },
  );
}

/** The early check of the owner's funds (the claim checks again, atomically); a retry whose payment was claimed already is let through to be replayed. */
async function requireFunds(deps: SettlementAgentContext, agentId: string, amountUsd: string, idempotentReference: string | undefined): Promise<string> {
  const funds = await deps.funds.fundsOf({ kind: 'agent', agentId });
  if (fundsCover(funds, amountUsd) || (idempotentReference !== undefined && (await claimedAlready(deps, idempotentReference)))) return funds.depositedUsd;
  throw new AppError('PAY_ERR_INSUFFICIENT_FUNDS', {
    message: `The agent's funds (USD ${funds.availableUsd} available) do not cover USD ${amountUsd}: nothing was sent. Its owner deposits more first (POST /agent/deposits).`,
  });
}

/** The AP2 mandate of body.mandate, verified against the settlement and the quote computed for it. */
async function verifiedMandate(deps: SettlementAgentContext, body: SettleBody, amountUsd: string): Promise<VerifiedAp2Mandate | undefined> {
  if (body.mandate === undefined) return undefined;
  const amount = String(body.amount);
  // The quote the mandate is checked against is the one the payment settles under (its quoteId, decision 0026).
  const quote = await deps.fees.quote({ amountUsd: Number(amountUsd), hasFx: body.sourceCurrency !== USD });
  return deps.verifier.verify({
    mandate: body.mandate,
    settlement: { amount: body.amount, sourceCurrency: body.sourceCurrency, destinationCurrency: body.destinationCurrency, recipientAddress: body.recipientAddress },
    quote: { quoteId: quote.quoteId, amount, currency: body.sourceCurrency, feeUsd: quote.totalFeeUsd, expiresAt: new Date(quote.expiresAt) },
  });
}

/**
 * A settlement under an AP2 mandate alone (decision 0049 §9): the mandate is verified first (it
 * names the issuer), then the issuer's funds must cover the amount (409, nothing recorded or
 * sent), then the mandate's single use is recorded and the settlement sent, the issuer's funds
 * checked again at the claim under its lock. No agent mandate applies, so nothing is held.
 */
async function settleUnderMandateAlone(deps: SettlementAgentContext, request: RequestContext, body: SettleBody, idempotencyKey: string | undefined): Promise<SettlementAnswer> {
  const compliance = requireCompliance(deps.compliance);
  const amount = String(body.amount);
  const amountUsd = await usdValueOf(deps, amount, body.sourceCurrency);
  const mandate = (await verifiedMandate(deps, body, amountUsd))!;
  const answer = await deps.idempotency.once(`payments:ap2-settle:${mandate.reference}`, idempotencyKey, body, async () => {
    const { issuer } = mandate;
    // A used mandate is the 400 it always was (Document 2 §3), whatever its issuer's funds say now.
    if (await deps.store.mandateUsed(mandate.reference)) throw replayed();
    const funds = await deps.funds.fundsOf({ kind: 'issuer', issuer });
    if (!fundsCover(funds, amountUsd)) {
      throw new AppError('PAY_ERR_INSUFFICIENT_FUNDS', {
        message: `The funds of the mandate's issuer ${issuer} (USD ${funds.availableUsd} available) do not cover USD ${amountUsd}: nothing was sent. A mandate alone is paid from its issuer's deposits (decision 0049 §9).`,
      });
    }
    const recipient = await compliance.lookupWallet(body.recipientAddress);
    const railPaymentId = newRailPaymentId(deps.ids);
    await recordMandateUse(deps, mandate, railPaymentId);
    const result = await sendSettlement(deps, request, {
      railPaymentId,
      tmsReference: `AP2-${mandate.reference}`,
      amount,
      sourceCurrency: body.sourceCurrency,
      recipientAddress: body.recipientAddress,
      recipient,
      mandate,
      issuerFunds: { issuer, amountUsd, fundsUsd: funds.depositedUsd },
    });
    return { statusCode: 200, body: sentAnswer(result, { holdId: null, agent: null, mandate: mandateView(mandate) }) };
  });
  return answer.body;
}

/** The settlement of a proven agent (its owner's key held), paid from the owner's funds. */
async function settleAs(deps: SettlementAgentContext, request: RequestContext, body: SettleBody, agentId: string, idempotencyKey: string | undefined): Promise<SettlementAnswer> {
  const compliance = requireCompliance(deps.compliance);
  const amount = String(body.amount);
  const amountUsd = await usdValueOf(deps, amount, body.sourceCurrency);
  const idempotentReference = idempotencyKey === undefined ? undefined : idempotentReferenceOf(agentId, idempotencyKey);
  const mandate = await verifiedMandate(deps, body, amountUsd);

  const recipient = await compliance.lookupWallet(body.recipientAddress);
  const [verification, record] = await Promise.all([compliance.verifyAgent(agentId), compliance.getAgent(agentId)]);
  const terms = record?.mandate ?? null;
  const recipientEsgScore = terms?.esgFloor != null ? await compliance.walletEsgScore(body.recipientAddress) : null;
  const now = deps.clock.now();
  const settledTodayUsd = await deps.store.settledSinceUsd(agentId, startOfUtcDay(now));
  const decision = checkAgentMandate({
    agentId,
    verification,
    mandate: terms,
    settlement: {
      amountUsd,
      sourceCurrency: body.sourceCurrency,
      destinationCurrency: body.destinationCurrency,
      recipientAddress: body.recipientAddress,
      recipientLei: recipient?.lei ?? null,
      recipientEsgScore,
    },
    settledTodayUsd,
    now,
  });
  if (decision.outcome === 'REFUSED') throw new AppError('PAY_ERR_AGENT_REFUSED', { message: decision.message, details: { reason: decision.reason } });
  // Refused, not held, when the owner's funds do not cover it: an operator's release could not pay it either.
  const fundsUsd = await requireFunds(deps, agentId, amountUsd, idempotentReference);
  if (decision.outcome === 'HOLD') return hold(deps, body, { amountUsd, violations: decision.violations, agent: { agentId, checked: decision.checked }, mandate, mandateRecorded: false });
  const agent = { agentId, checked: decision.checked };
  // PROCEED means the credential verified: its daily cap is re-checked atomically at the claim.
  const capUsd = verification?.verified ? verification.credential.attestation.dailyCapUsd : null;
  const dailyCap = capUsd === null ? undefined : { capUsd: String(capUsd), since: startOfUtcDay(now) };

  const railPaymentId = newRailPaymentId(deps.ids);
  if (mandate) await recordMandateUse(deps, mandate, railPaymentId);
  let result: PaymentResult;
  try {
    result = await sendSettlement(deps, request, {
      railPaymentId,
      tmsReference: mandate ? `AP2-${mandate.reference}` : (idempotentReference ?? `AGT-${deps.ids.uuid()}`),
      amount,
      sourceCurrency: body.sourceCurrency,
      recipientAddress: body.recipientAddress,
      recipient,
      agent: { name: record?.name, claim: { agentId, amountUsd, fundsUsd, ...(dailyCap ? { dailyCap } : {}) } },
      ...(mandate ? { mandate } : {}),
    });
  } catch (error) {
    // Another settlement of this agent took the rest of its cap between the check and the claim.
    if (!(error instanceof DailyCapReached)) throw error;
    const violation: RuleViolation = {
      rule: 'DAILY_CAP',
      message: `USD ${Number(error.settledUsd).toFixed(2)} settled today plus USD ${Number(amountUsd).toFixed(2)} is above the daily cap of USD ${Number(dailyCap?.capUsd).toFixed(2)}.`,
    };
    return hold(deps, body, { amountUsd, violations: [violation], agent, mandate, mandateRecorded: true });
  }
  return sentAnswer(result, { holdId: null, agent, mandate: mandate ? mandateView(mandate) : null });
}

export type SettlementAgent = ReturnType<typeof createSettlementAgent>;

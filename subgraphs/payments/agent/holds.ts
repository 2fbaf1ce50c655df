import { Big } from 'big.js';
import { requireAdminKey } from '../../../platform/access/shared-secret.js';
import { epochSeconds } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { PaymentResult } from '../domain/index.js';
import { newRailPaymentId } from '../integration/service.js';
import { agentVerdictOf, type RuleViolation } from './domain/index.js';
import { type AgentSettlementOrder, requireCompliance, sendSettlement, sentAnswer, type SettlementAgentDeps, type SettlementAnswer } from './service.js';
import type { HoldFilter, HoldRow, HoldStatus } from './store.js';

/** The most holds one list answers, most recent first. */
export const MAX_LISTED_HOLDS = 100;

export interface HeldSettlementDeps extends Pick<SettlementAgentDeps, 'payments' | 'compliance' | 'store' | 'payerWallet' | 'clock' | 'ids' | 'funds'> {
  /** ADMIN_KEY: the operator's key (Authorization: Bearer); unset closes the holds. */
  adminKey: string | undefined;
}

/** A held settlement as the operator reads it (GET /agent/holds/:holdId); times in epoch seconds as the payments API gives them. */
export interface HeldSettlementView {
  holdId: string;
  agentId: string;
  /** The settlement request as given; amount as decimal text. */
  request: { amount: string; sourceCurrency: string; destinationCurrency: string; recipientAddress: string };
  /** Decimal text: the USD value its mandate was checked at. */
  amountUsd: string;
  violations: RuleViolation[];
  status: HoldStatus;
  /** The payment that settled it; null unless RELEASED. */
  railPaymentId: string | null;
  createdAt: number;
  decidedAt: number | null;
}

/** The tmsReference of a released hold's payment: a retry or a concurrent release claims the same payment. */
const releaseReferenceOf = (holdId: string) => `AGT-HLD-${holdId}`;

function presentHold(row: HoldRow): HeldSettlementView {
  return {
    holdId: row.holdId,
    agentId: row.agentId,
    request: { amount: row.amount, sourceCurrency: row.sourceCurrency, destinationCurrency: row.destinationCurrency, recipientAddress: row.recipientAddress },
    // numeric(38, 18) reads back with 18 decimals: the value as it was given.
    amountUsd: new Big(row.amountUsd).toFixed(),
    violations: row.violations as RuleViolation[],
    status: row.status,
    railPaymentId: row.status === 'RELEASED' ? row.railPaymentId : null,
    createdAt: epochSeconds(row.createdAt),
    decidedAt: row.decidedAt ? epochSeconds(row.decidedAt) : null,
  };
}

/** No rule of the mandate was applied to a release: the operator overrode them. */
const released = (row: HoldRow, result: PaymentResult): SettlementAnswer => sentAnswer(result, { holdId: row.holdId, agent: { agentId: row.agentId, checked: [] }, mandate: null });

/**
 * Settlements held by their agent's mandate, decided by an operator (decision 0047).
 * 1. Every call needs the admin key, in the service so any front door is closed alike.
 * 2. release overrides the mandate's rules, never the agent: it is verified live again and a
 *    refused agent is 403 with the hold left HELD. The settlement is sent by sendSettlement, as
 *    POST /agent/settle sends one, under tmsReference AGT-HLD-<holdId> and without the daily cap.
 * 3. The owner's funds are re-checked at the release's claim, atomically (decision 0049): a hold
 *    reserves nothing, and a release the funds no longer cover is 409 PAY_ERR_INSUFFICIENT_FUNDS
 *    with the hold left HELD.
 * 4. A release first marks the hold as started (no dismissal from then on), then sends, then marks
 *    it RELEASED with its payment; a retry or a concurrent release claims the same tmsReference and
 *    answers that payment, so the hold settles once.
 */
export function createHeldSettlements(deps: HeldSettlementDeps) {
  return {
    /** GET /agent/holds/:holdId. */
    get: async (request: RequestContext, holdId: string): Promise<HeldSettlementView> => presentHold(await requireHold(deps, request, holdId)),
    /** GET /agent/holds: most recent first, at most MAX_LISTED_HOLDS. */
    list: (request: RequestContext, filter: HoldFilter) => listHolds(deps, request, filter),
    /** POST /agent/holds/:holdId/release: the settlement is sent (once), the hold RELEASED with its payment. */
    release: (request: RequestContext, holdId: string) => release(deps, request, holdId),
    /** POST /agent/holds/:holdId/dismiss: nothing is sent; 409 once a release has started. */
    dismiss: (request: RequestContext, holdId: string) => dismiss(deps, request, holdId),
  };
}

async function requireHold(deps: HeldSettlementDeps, request: RequestContext, holdId: string): Promise<HoldRow> {
  requireAdminKey(request, deps.adminKey);
  const row = await deps.store.findHold(holdId);
  if (!row) throw new AppError('PAY_ERR_HOLD_NOT_FOUND');
  return row;
}

/** The payment of a hold whose release already claimed it, if any. */
async function paymentOf(deps: HeldSettlementDeps, holdId: string): Promise<PaymentResult | undefined> {
  return deps.payments.findByTmsReference(releaseReferenceOf(holdId)).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'PAY_ERR_PAYMENT_NOT_FOUND') return undefined;
    throw error;
  });
}

/** The settlement of a hold, its agent verified live again (403 when refused). */
async function orderOf(deps: HeldSettlementDeps, row: HoldRow): Promise<AgentSettlementOrder> {
  const compliance = requireCompliance(deps.compliance);
  const [verification, record, recipient, funds] = await Promise.all([
    compliance.verifyAgent(row.agentId),
    compliance.getAgent(row.agentId),
    compliance.lookupWallet(row.recipientAddress),
    deps.funds.fundsOf({ kind: 'agent', agentId: row.agentId }),
  ]);
  const verdict = agentVerdictOf({ agentId: row.agentId, verification, now: deps.clock.now() });
  if (verdict.outcome === 'REFUSED') throw new AppError('PAY_ERR_AGENT_REFUSED', { message: `${verdict.message} The hold stays HELD.`, details: { reason: verdict.reason } });
  return {
    railPaymentId: newRailPaymentId(deps.ids),
    tmsReference: releaseReferenceOf(row.holdId),
    amount: row.amount,
    sourceCurrency: row.sourceCurrency,
    recipientAddress: row.recipientAddress,
    recipient,
    // No daily cap: the operator overrode the mandate. The row still counts towards the agent's day.
    // The owner's funds are not a rule of the mandate: the claim re-checks them (decision 0049).
    agent: { name: record?.name, claim: { agentId: row.agentId, amountUsd: new Big(row.amountUsd).toFixed(), fundsUsd: funds.depositedUsd } },
  };
}

async function finish(deps: HeldSettlementDeps, row: HoldRow, result: PaymentResult): Promise<SettlementAnswer> {
  await deps.store.finishRelease(row.holdId, result.railPaymentId, deps.clock.now());
  return released(row, result);
}

/** A hold decided already: a release answers its payment; a dismissed one is 409. */
async function answerDecided(deps: HeldSettlementDeps, row: HoldRow): Promise<SettlementAnswer> {
  if (row.status !== 'RELEASED' || row.railPaymentId === null) throw new AppError('PAY_ERR_HOLD_DECIDED', { message: 'The held settlement was dismissed: it cannot be released.' });
  return released(row, await deps.payments.get(row.railPaymentId));
}

async function listHolds(deps: HeldSettlementDeps, request: RequestContext, filter: HoldFilter): Promise<{ count: number; holds: HeldSettlementView[] }> {
  requireAdminKey(request, deps.adminKey);
  const holds = (await deps.store.listHolds(filter, MAX_LISTED_HOLDS)).map(presentHold);
  return { count: holds.length, holds };
}

async function release(deps: HeldSettlementDeps, request: RequestContext, holdId: string): Promise<SettlementAnswer> {
  const row = await requireHold(deps, request, holdId);
  if (row.status !== 'HELD') return answerDecided(deps, row);
  // A release that claimed its payment but stopped before marking the hold: its payment is the answer.
  const claimed = await paymentOf(deps, holdId);
  if (claimed) return finish(deps, row, claimed);
  const order = await orderOf(deps, row);
  if (!(await deps.store.startRelease(holdId, order.railPaymentId))) return answerDecided(deps, await requireHold(deps, request, holdId));
  try {
    return await finish(deps, row, await sendSettlement(deps, request, order));
  } catch (error) {
    // Failed before its payment was claimed (the rail's account, the database): the hold is as it was, dismissable again.
    await deps.store.abandonRelease(holdId, order.railPaymentId, order.tmsReference).catch(() => false);
    throw error;
  }
}

async function dismiss(deps: HeldSettlementDeps, request: RequestContext, holdId: string): Promise<HeldSettlementView> {
  const row = await requireHold(deps, request, holdId);
  const dismissed = row.status === 'DISMISSED' ? row : await deps.store.dismissHold(holdId, deps.clock.now());
  if (dismissed) return presentHold(dismissed);
  throw new AppError('PAY_ERR_HOLD_DECIDED', { message: 'The held settlement was released, or its release has started: it cannot be dismissed. Release it again to finish a release that did not.' });
}

export type HeldSettlements = ReturnType<typeof createHeldSettlements>;

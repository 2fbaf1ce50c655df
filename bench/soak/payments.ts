import { randomBytes } from 'node:crypto';
import { type Answer, jsonOf, send } from './http.js';
import type { PaymentAnswer, PaymentEntry, PaymentStatus } from './records.js';
import { freshAddress } from './setup.js';
import { record, type Workload } from './workload-context.js';

/** Attempts of one initiation when its answer is lost (no answer, 502, 503, 504), the first included. */
const MAX_ATTEMPTS = 6;
/** Pause before the n-th retry: 1, 2, 4, 8, 8 s (an outage of the soak's faults lasts a few seconds; a restart a few more). */
const retryPauseMs = (retry: number) => Math.min(1_000 * 2 ** (retry - 1), 8_000);
const STATUSES: readonly PaymentStatus[] = ['PENDING', 'SETTLED', 'BLOCKED', 'FAILED'];

/** An answer the payment's result may have been lost behind: the same request is sent again (decision 0025: a replay answers the stored result). */
const answerLost = (answer: Answer) => answer.outcome === 'network' || answer.outcome === 'timeout' || answer.outcome === 502 || answer.outcome === 503 || answer.outcome === 504;

function paymentAnswerOf(answer: Answer): PaymentAnswer {
  const body = jsonOf(answer);
  const status = STATUSES.find((one) => one === body?.status);
  return {
    outcome: answer.outcome,
    at: answer.endedAt,
    ...(typeof body?.railPaymentId === 'string' ? { railPaymentId: body.railPaymentId } : {}),
    ...(status ? { status } : {}),
    ...(typeof body?.code === 'string' ? { code: body.code } : {}),
  };
}

/** A fee quote for the payment's USD amount (POST /stability/quote): the quote the payment names. */
async function quoteFor(workload: Workload, amount: string): Promise<string | undefined> {
  const answer = await send(`${workload.cluster.url}/stability/quote`, { json: { amountUsd: Number(amount), hasFx: false } });
  const quoteId = jsonOf(answer)?.quoteId;
  record(workload, 'payment-quote', answer, answer.outcome === 200 && typeof quoteId === 'string');
  return typeof quoteId === 'string' ? quoteId : undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A payment with a callback (decision 0089): a quote, then POST /integration/payments/initiate as
 * the soak's institution, its tmsReference the idempotency key; when the answer is lost the same
 * body is sent again, up to MAX_ATTEMPTS. Every answer is kept for the reconciliation.
 */
export async function initiatePayment(workload: Workload): Promise<void> {
  const amount = (workload.random.integer(100, 9_999) / 100).toFixed(2);
  const quoteId = await quoteFor(workload, amount);
  if (!quoteId) return;
  const { accounts } = workload;
  const creditor = workload.random.pick(accounts.creditors);
  const tmsReference = `SOAK-${workload.seed}-${randomBytes(6).toString('hex')}`;
  const entry: PaymentEntry = { tmsReference, quoteId, amount, creditor, answers: [] };
  workload.observations.payments.push(entry);
  const payment = {
    tmsReference,
    amount,
    currency: 'USD',
    creditor: { name: accounts.creditorName, lei: accounts.creditorLei, walletAddress: creditor },
    debtor: { name: 'Soak Treasury Ltd', walletAddress: freshAddress() },
    callbackUrl: workload.callbackUrl,
    quoteId,
  };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const answer = await send(`${workload.cluster.url}/integration/payments/initiate`, { headers: { authorization: `Bearer ${accounts.bearer}` }, json: payment });
    const seen = paymentAnswerOf(answer);
    entry.answers.push(seen);
    record(workload, 'payment-initiate', answer, answer.outcome === 200 && seen.railPaymentId !== undefined && seen.status !== undefined);
    if (!answerLost(answer) || attempt === MAX_ATTEMPTS) return;
    await pause(retryPauseMs(attempt));
  }
}

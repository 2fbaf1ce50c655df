import { describe, expect, it } from 'vitest';
import type { ReconcileInput } from './checks.js';
import type { FaultEvent } from './faults.js';
import { reconcile } from './reconcile.js';

// The reconciliation of the soak (decision 0089) on hand-made observations: a consistent run passes
// every check, and each kind of loss, double or disagreement the soak exists to find is named by
// the check that owns it. (test/soak.test.ts runs the whole soak against a cluster.)

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);
const CREDITOR = '0x00000000000000000000000000000000000000c1';
const BODY = JSON.stringify({ railPaymentId: 'pay_1', status: 'SETTLED' });
const PAYER = '0x00000000000000000000000000000000000000a1';
const NONCE = `0x${'11'.repeat(32)}`;

/** The input with its lists writable, for planting problems. */
type Run = { -readonly [Key in keyof ReconcileInput]: ReconcileInput[Key] extends ReadonlyArray<infer Item> ? Item[] : ReconcileInput[Key] };

const fault = (kind: FaultEvent['kind'], startedAt: number, restoredAt: number): FaultEvent => ({ atMs: 0, kind, downMs: restoredAt - startedAt, startedAt, restoredAt });

function consistentRun(): Run {
  return {
    institutionId: 'inst_soak',
    payments: [{ tmsReference: 'SOAK-1', quoteId: 'srq-1', amount: '12.50', creditor: CREDITOR, answers: [{ outcome: 200, at: T0 + 1_000, railPaymentId: 'pay_1', status: 'SETTLED' }] }],
    x402: [{ payer: PAYER, nonce: NONCE, startedAt: T0 + 2_000, endedAt: T0 + 2_100, outcome: 200, settledInAnswer: true }],
    keyCounts: [
      { at: T0 + 3_000, limit: 100, remaining: 99, resetSeconds: 57 },
      { at: T0 + 3_100, limit: 100, remaining: 98, resetSeconds: 57 },
    ],
    deliveries: [{ railPaymentId: 'pay_1', attempt: 1, at: T0 + 1_200, signatureValid: true, body: BODY }],
    faults: [fault('chain', T0 + 10_000, T0 + 14_000), fault('intelligence', T0 + 20_000, T0 + 23_000), fault('postgres', T0 + 30_000, T0 + 33_000)],
    kinds: ['chain', 'intelligence', 'postgres'],
    database: {
      payments: [{ railPaymentId: 'pay_1', tmsReference: 'SOAK-1', status: 'SETTLED', givenQuoteId: 'srq-1', quoteId: 'srq-1', txHash: '0xaa', amount: '12.50', creditor: CREDITOR }],
      callbacks: [{ railPaymentId: 'pay_1', state: 'DELIVERED', attempt: 1, body: BODY, lastError: null }],
      x402: [{ payer: PAYER, nonce: NONCE, state: 'SETTLED', amount: '150000' }],
    },
    chain: {
      settlements: new Map([['srq-1', [{ txHash: '0xaa', payee: CREDITOR, amount: 12_500_000n }]]]),
      authorizationsUsed: new Map([[`${PAYER}:${NONCE}`, 1]]),
    },
    price: '150000',
  };
}

/** The problems found, each prefixed with its check's name. */
const problemsOf = (input: ReconcileInput) => reconcile(input).flatMap((check) => check.problems.map((problem) => `${check.name}: ${problem}`));

describe('the soak reconciliation', () => {
  it('passes a consistent run', () => {
    expect(problemsOf(consistentRun())).toEqual([]);
  });

  it.each<[string, (run: Run) => void, RegExp]>([
    ['an acknowledged payment stored twice', (run) => run.database.payments.push({ ...run.database.payments[0]!, railPaymentId: 'pay_2' }), /exists once.*SOAK-1: 2 payment rows/],
    ['an acknowledged payment lost', (run) => (run.database = { ...run.database, payments: [], callbacks: [] }), /exists once.*acknowledged as pay_1 \(SETTLED\) but no payment row/],
    ['acknowledged under another id', (run) => (run.payments[0]!.answers[0]!.railPaymentId = 'pay_9'), /acknowledged as pay_9, stored as pay_1/],
    ['acknowledged SETTLED, stored FAILED', (run) => (run.payments[0]!.answers[0]!.status = 'FAILED'), /acknowledged FAILED, stored SETTLED/],
    ['a payment no client asked for', (run) => (run.payments[0]!.tmsReference = 'SOAK-other'), /a payment no client of the soak asked for/],
    ['a payment left PENDING', (run) => (run.database.payments[0]!.status = 'PENDING'), /final status.*pay_1 \(SOAK-1\) is still PENDING/],
    ['a SETTLED payment settled twice on chain', (run) => run.chain.settlements.get('srq-1')!.push({ txHash: '0xbb', payee: CREDITOR, amount: 12_500_000n }), /SETTLED with 2 Settled events/],
    ['a SETTLED payment never settled on chain', (run) => run.chain.settlements.clear(), /SETTLED with 0 Settled events/],
    ['settled for another amount', (run) => (run.chain.settlements.get('srq-1')![0]!.amount = 1n), /settled 1 to .*asked 12.50 USD/],
    ['a FAILED payment settled on chain', (run) => (run.database.payments[0]!.status = 'FAILED'), /is FAILED but its quote srq-1 was settled/],
    ['one quote for two payments', (run) => run.database.payments.push({ ...run.database.payments[0]!, railPaymentId: 'pay_3', tmsReference: 'SOAK-1' }), /quote srq-1 is the quote of 2 payments/],
    [
      'an unstored payment whose quote settled',
      (run) => run.payments.push({ tmsReference: 'SOAK-2', quoteId: 'srq-1', amount: '1.00', creditor: CREDITOR, answers: [{ outcome: 'network', at: T0 }] }),
      /SOAK-2: no payment row, yet its quote was settled/,
    ],
    ['a callback never delivered', (run) => (run.database.callbacks[0]!.state = 'FAILED'), /callback FAILED after 1 attempts/],
    ['a delivered attempt never received', (run) => (run.deliveries = []), /attempt 1 recorded as delivered, never received/],
    ['a callback that does not verify', (run) => (run.deliveries[0]!.signatureValid = false), /attempt 1 did not verify/],
    ['a callback with other bytes', (run) => (run.deliveries[0]!.body = '{}'), /carried other bytes than stored/],
    ['an attempt received twice, no fault in between', (run) => run.deliveries.push({ ...run.deliveries[0]!, at: T0 + 9_000 }), /attempt 1 received 2 times with no kill/],
    ['a final payment without a callback row', (run) => (run.database.callbacks = []), /no callback row/],
    ['an x402 payment charged for a 402', (run) => (run.x402[0]!.outcome = 402), /charged, but the client got 402/],
    ['an x402 claim left SETTLING', (run) => (run.database.x402[0]!.state = 'SETTLING'), /still SETTLING/],
    ['an x402 row SETTLED, unused on chain', (run) => run.chain.authorizationsUsed.clear(), /row SETTLED, used on chain 0 times/],
    ['an x402 answer 200 never charged', (run) => ((run.database.x402 = []), run.chain.authorizationsUsed.clear()), /answered 200 without being charged/],
    [
      'an x402 claim no client made',
      (run) => run.database.x402.push({ payer: PAYER, nonce: `0x${'22'.repeat(32)}`, state: 'CLAIMED', amount: '150000' }),
      /a claim for an authorization no client of the soak presented/,
    ],
    ['two API-key answers given one place', (run) => (run.keyCounts[1]!.remaining = 99), /places 1 given to two answers/],
    ['a kind never faulted', (run) => run.kinds.push('redis'), /no redis fault completed/],
    ['a process that did not come back', (run) => (run.faults[0]!.error = 'did not listen within 60 s'), /chain: did not listen within 60 s/],
  ])('finds %s', (_name, plant, expected) => {
    const run = consistentRun();
    plant(run);
    const problems = problemsOf(run);
    expect(
      problems.some((problem) => expected.test(problem)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('accepts a repeated attempt when a payments process was killed between the two deliveries (decision 0024 §5), and counts it', () => {
    const run = consistentRun();
    run.deliveries.push({ ...run.deliveries[0]!, at: T0 + 12_000 });
    run.faults.push(fault('payments', T0 + 1_300, T0 + 5_000));
    expect(problemsOf(run)).toEqual([]);
    expect(reconcile(run).find((check) => check.name.startsWith('every final payment'))?.notes[0]).toContain('1 repeats of an attempt explained');
  });

  it('accepts an x402 charge whose answer was lost while an intelligence process was being killed, and counts it', () => {
    const run = consistentRun();
    run.x402[0] = { ...run.x402[0]!, outcome: 'network', settledInAnswer: false, startedAt: T0 + 19_900, endedAt: T0 + 20_050 };
    expect(problemsOf(run)).toEqual([]);
    expect(reconcile(run).find((check) => check.name.startsWith('every x402'))?.notes[0]).toContain('1 of them with the answer lost to a kill');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../../drizzle/schema.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { createPaymentStore } from '../integration/store.js';
import { createAgentSettlementStore } from './store.js';

const T0 = new Date(TEST_NOW);
const DAY_START = new Date(Date.UTC(T0.getUTCFullYear(), T0.getUTCMonth(), T0.getUTCDate()));
let counter = 0;
const unique = (prefix: string) => `${prefix}_${process.pid}_${(counter += 1)}`;

/** A payments row as the service leaves it, with only the columns the store reads varied. */
function paymentRow(agentId: string | null, amountUsd: string | null, status: 'SETTLED' | 'PENDING' | 'BLOCKED' | 'FAILED', submittedAt: Date) {
  const id = unique('pay_agent_store');
  return { railPaymentId: id, tmsReference: id, requestSha256: 'x', request: {}, status, result: {}, submittedAt, agentId, agentAmountUsd: amountUsd, createdAt: submittedAt, updatedAt: submittedAt };
}

// Run once per driver (PGlite always; PostgreSQL when DATABASE_URL is set).
describe.each(testDatabases())('settlement agent store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it("settledSinceUsd sums the agent's SETTLED and PENDING settlements since the moment, exactly", async () => {
    const store = createAgentSettlementStore(handle.db);
    const agent = unique('agt');
    await handle.db
      .insert(payments)
      .values([
        paymentRow(agent, '1250.50', 'SETTLED', T0),
        paymentRow(agent, '0.000001', 'PENDING', DAY_START),
        paymentRow(agent, '100', 'BLOCKED', T0),
        paymentRow(agent, '100', 'FAILED', T0),
        paymentRow(agent, '7', 'SETTLED', new Date(DAY_START.getTime() - 1)),
        paymentRow(unique('agt'), '9', 'SETTLED', T0),
        paymentRow(null, null, 'SETTLED', T0),
      ]);
    expect(Number(await store.settledSinceUsd(agent, DAY_START))).toBe(1250.500001);
    expect(await store.settledSinceUsd(unique('agt'), DAY_START)).toBe('0');
  });

  it('claims of one agent at the same moment keep its daily cap: of five that each fit alone, only those that fit together are claimed', async () => {
    const paymentsStore = createPaymentStore(handle.db, { enqueue: async () => ({ id: 'unused', enqueued: false }) });
    const agentId = unique('agt');
    const claims = await Promise.all(
      [1, 2, 3, 4, 5].map(() => {
        const railPaymentId = unique('pay_cap');
        const payment = {
          tmsReference: railPaymentId,
          amount: '800',
          currency: 'USD',
          settlementAsset: 'USDC',
          creditor: { name: 'Creditor', walletAddress: '0x0000000000000000000000000000000000000001' },
          debtor: { name: 'Agent', walletAddress: '0x0000000000000000000000000000000000000002' },
        };
        return paymentsStore.claim(
          { railPaymentId, payment, requestSha256: railPaymentId, pending: {} as never, agent: { agentId, amountUsd: '800', dailyCap: { capUsd: '2000', since: DAY_START } } },
          T0,
        );
      }),
    );
    // 2 x 800 fits 2,000; a third would be 2,400.
    expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(2);
    expect(claims.filter((claim) => claim.kind === 'over-daily-cap')).toHaveLength(3);
    expect(Number(await createAgentSettlementStore(handle.db).settledSinceUsd(agentId, DAY_START))).toBe(1600);
  });

  it("a held settlement is decided once: of releases started at once one proposal is kept, a started release cannot be dismissed, RELEASED takes the payment's id", async () => {
    const store = createAgentSettlementStore(handle.db);
    const holdId = unique('hld');
    const violations = [
      { rule: 'MAX_NOTIONAL' as const, message: 'over' },
      { rule: 'ESG_FLOOR' as const, message: 'under' },
    ];
    await store.recordHold(
      {
        holdId,
        agentId: unique('agt'),
        request: { amount: '1250.5', sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: '0x0000000000000000000000000000000000000001' },
        amountUsd: '1250.5',
        violations,
      },
      T0,
    );
    expect(await store.findHold(holdId)).toMatchObject({ status: 'HELD', violations, railPaymentId: null });
    expect(await Promise.all(['pay_a', 'pay_b', 'pay_c'].map((id) => store.startRelease(holdId, id)))).toEqual([true, true, true]);
    const proposed = (await store.findHold(holdId))!.railPaymentId;
    expect(['pay_a', 'pay_b', 'pay_c']).toContain(proposed);
    expect(await store.dismissHold(holdId, T0)).toBeUndefined();
    expect(await Promise.all([store.finishRelease(holdId, 'pay_won', T0), store.finishRelease(holdId, 'pay_won', T0)])).toEqual(expect.arrayContaining([true, false]));
    expect(await store.findHold(holdId)).toMatchObject({ status: 'RELEASED', railPaymentId: 'pay_won', decidedAt: T0 });
    expect(await store.startRelease(holdId, 'pay_late')).toBe(false);
  });

  it('a release that failed before its payment was claimed is abandoned, and the hold can be dismissed; not once a payment exists', async () => {
    const store = createAgentSettlementStore(handle.db);
    const hold = (holdId: string) =>
      store.recordHold(
        {
          holdId,
          agentId: unique('agt'),
          request: { amount: '5', sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: '0x0000000000000000000000000000000000000001' },
          amountUsd: '5',
          violations: [],
        },
        T0,
      );
    const failed = unique('hld');
    await hold(failed);
    await store.startRelease(failed, 'pay_failed');
    expect(await store.abandonRelease(failed, 'pay_other_process', `AGT-HLD-${failed}`)).toBe(false);
    expect(await store.abandonRelease(failed, 'pay_failed', `AGT-HLD-${failed}`)).toBe(true);
    expect(await store.dismissHold(failed, T0)).toMatchObject({ holdId: failed, status: 'DISMISSED' });

    const claimed = unique('hld');
    await hold(claimed);
    await store.startRelease(claimed, 'pay_claimed');
    await handle.db.insert(payments).values({ ...paymentRow(null, null, 'PENDING', T0), tmsReference: `AGT-HLD-${claimed}` });
    expect(await store.abandonRelease(claimed, 'pay_claimed', `AGT-HLD-${claimed}`)).toBe(false);
    expect(await store.dismissHold(claimed, T0)).toBeUndefined();
  });

  it('recordMandateUse records a reference once', async () => {
    const store = createAgentSettlementStore(handle.db);
    const reference = unique('ref');
    expect(await store.recordMandateUse({ reference, issuer: 'https://wallet.example', railPaymentId: unique('pay') }, T0)).toBe(true);
    expect(await store.recordMandateUse({ reference, issuer: 'https://wallet.example', railPaymentId: unique('pay') }, T0)).toBe(false);
    // At the same moment: one wins.
    const other = unique('ref');
    const uses = await Promise.all([1, 2, 3].map(() => store.recordMandateUse({ reference: other, issuer: 'https://wallet.example', railPaymentId: unique('pay') }, T0)));
    expect(uses.filter(Boolean)).toHaveLength(1);
  });
});

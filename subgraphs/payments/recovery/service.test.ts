import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentCallbacks } from '../../../drizzle/schema.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { createLogger } from '../../../platform/log.js';
import { createRequestContext } from '../../../platform/request-context.js';
import { openTestPglite, startTestServer, type TestServer } from '../../../test/helpers.js';
import { createCallbackStore } from '../callbacks/store.js';
import { finalResult, type NativePayment, type PaymentResult, pendingResult, type SettlingRecord, usdcTextOfUnits } from '../domain/index.js';
import { createPaymentsService } from '../integration/service.js';
import { createPaymentStore, type PaymentStore } from '../integration/store.js';
import { freshWallet } from '../integration/testing.js';
import { createRailLookup } from '../rail/lookup.js';
import { createRailSettlement, RailError, type RailSettlement } from '../rail/settlement.js';
import { COMPLIANCE_SERVICE, createComplianceClient } from '../upstream/compliance.js';
import { createFeesClient, FEES_SERVICE } from '../upstream/fees.js';
import { createPaymentRecovery, recoveryDelaysFor, type RecoverySummary } from './service.js';

// Issue 10: nothing is lost when the process running a payment stops. A payment left PENDING is
// ended by the recovery (decision 0039) from what it recorded and from the chain: FAILED when
// nothing was sent, SETTLED as the chain says when the router settled its quote, FAILED when it
// recorded the send but the chain has no settlement. Real embedded chain, PGlite of its own.

const MINUTE = 60_000;
const delays = { beforeSettlingMs: 5 * MINUTE, afterSettlingMs: 10 * MINUTE };
const vop = {
  requestId: 'vop_rec',
  result: 'VERIFIED',
  proceedSafe: true,
  score: 100,
  resolvedBy: 'LEI_EXACT_MATCH',
  message: 'Name and LEI match',
  attestation: { fatfR16Compliant: true, regulatoryNote: 'FATF R.16 data verified' },
};
const aml = { action: 'PROCEED' as const, riskScore: 8, riskTier: 'LOW', sanctionsHit: false };
const none: RecoverySummary = { settled: 0, failed: 0, undetermined: 0, alreadyEnded: 0 };

let server: TestServer;
let handle: DatabaseHandle;
let store: PaymentStore;

beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['fees'] });
  handle = await openTestPglite();
  store = createPaymentStore(handle.db, createCallbackStore(handle.db));
}, 60_000);
afterAll(async () => {
  await handle?.close();
  await server?.close();
});

/** The institution the payments of these tests belong to. */
const INSTITUTION = 'inst_recovery_test';
const TENANT = { kind: 'institution', institutionId: INSTITUTION } as const;

function paymentTo(creditor: string, callbackUrl?: string): NativePayment {
  return {
    tmsReference: `TMS-REC-${randomBytes(6).toString('hex')}`,
    amount: '12.50',
    currency: 'USD',
    creditor: { name: 'Shell Catalysts & Technologies Pte. Ltd.', walletAddress: creditor },
    debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
    ...(callbackUrl ? { callbackUrl } : {}),
  } as NativePayment;
}

/** A payment claimed by a process that then stopped (the claim is all it wrote). */
async function claimed(payment: NativePayment) {
  const railPaymentId = `pay_${crypto.randomUUID()}`;
  const frame = { railPaymentId, payment, submittedAt: Math.floor(server.clock.now().getTime() / 1000), network: 'embedded-base' };
  await store.claim({ institution: INSTITUTION, railPaymentId, payment, requestSha256: randomBytes(32).toString('hex'), pending: pendingResult(frame) }, server.clock.now());
  return railPaymentId;
}

async function recordedSettling(railPaymentId: string, quoteId: string): Promise<SettlingRecord> {
  const now = server.clock.now();
  const settling: SettlingRecord = { quoteId, vop, aml, exchangeRate: '1', recordedAtMs: now.getTime() };
  expect(await store.recordSettling(railPaymentId, settling, now)).toBe(true);
  return settling;
}

const resultOf = async (railPaymentId: string) => (await store.findById(railPaymentId))!.result as PaymentResult;

describe('payments left PENDING by a stopped process', () => {
  it('ends each as the record and the chain say, once, with its callback', async () => {
    const { chain } = server.platform!;
    const recovery = createPaymentRecovery({
      store,
      lookup: createRailLookup({ chain, timeoutMs: 5_000 }),
      clock: server.clock,
      network: () => 'embedded-base',
      delays,
      logger: createLogger({ logLevel: 'silent' }),
    });
    // 1. Four payments stop at different steps: A and D after the claim (D with a callback), B after
    //    its settlement was sent on chain, C after recording the send but before sending.
    const payeeB = freshWallet();
    const a = await claimed(paymentTo(freshWallet()));
    const d = await claimed(paymentTo(freshWallet(), 'https://receiver.example/rail-callbacks'));
    const b = await claimed(paymentTo(payeeB));
    const c = await claimed(paymentTo(freshWallet()));
    const quoteB = `srq-1-${randomBytes(16).toString('hex')}`;
    await recordedSettling(b, quoteB);
    const receipt = await createRailSettlement({ chain, timeoutMs: 5_000 }).settle({
      payee: payeeB as `0x${string}`,
      amount: 12_500_000n,
      hasFx: false,
      esgScore: 50,
      monthlyVolumeUsd: 0,
      quoteId: quoteB,
    });
    await recordedSettling(c, `srq-1-${randomBytes(16).toString('hex')}`);

    // 2. Four minutes on (under 5): nothing is taken, a live process could still be running them.
    server.clock.advance(4 * MINUTE);
    expect(await recovery.runOnce()).toEqual(none);

    // 3. Six minutes on: A and D recorded nothing, so nothing was sent: FAILED; D's callback is in the outbox.
    server.clock.advance(2 * MINUTE);
    expect(await recovery.runOnce()).toEqual({ ...none, failed: 2 });
    for (const id of [a, d]) {
      const result = await resultOf(id);
      expect(result.status).toBe('FAILED');
      expect(result.settlement.txHash).toBe('');
      expect(result.compliance.regulatoryNote).toContain('stopped before its settlement was sent');
    }
    const [callback] = await handle.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.railPaymentId, d));
    expect({ url: callback?.url, state: callback?.state, body: JSON.parse(callback?.body ?? '{}') }).toEqual({
      url: 'https://receiver.example/rail-callbacks',
      state: 'PENDING',
      body: await resultOf(d),
    });

    // 4. Eleven minutes on (10 after the record): B is SETTLED as the chain says, C FAILED with its screening.
    server.clock.advance(5 * MINUTE);
    expect(await recovery.runOnce()).toEqual({ ...none, settled: 1, failed: 1 });
    const settled = await resultOf(b);
    const block = await (await chain.connect()).publicClient.getBlock({ blockNumber: (await (await chain.connect()).publicClient.getTransactionReceipt({ hash: receipt.txHash })).blockNumber });
    expect({ status: settled.status, txHash: settled.settlement.txHash, fee: settled.settlement.fee, settledAt: settled.settledAt, vop: settled.vop.result, aml: settled.compliance }).toEqual({
      status: 'SETTLED',
      txHash: receipt.txHash,
      fee: usdcTextOfUnits(receipt.fee),
      settledAt: Number(block.timestamp),
      vop: 'VERIFIED',
      aml: expect.objectContaining({ fatfR16Compliant: true }),
    });
    expect((await store.findById(b))?.txHash).toBe(receipt.txHash);
    const failed = await resultOf(c);
    expect({ status: failed.status, vop: failed.vop.result, txHash: failed.settlement.txHash }).toEqual({ status: 'FAILED', vop: 'VERIFIED', txHash: '' });
    expect(failed.compliance.regulatoryNote).toContain('not confirmed on chain');

    // 5. Ended once: a second pass finds nothing, and a process that comes back to C may no longer send.
    expect(await recovery.runOnce()).toEqual(none);
    expect(await store.recordSettling(c, { quoteId: 'srq-1-late', vop, aml, exchangeRate: '1', recordedAtMs: 0 }, server.clock.now())).toBe(false);
  }, 60_000);
});

describe('the payment flow and its recovery', () => {
  const INTERNAL_KEY = 'recovery-test-internal-key-0123456789abcdef';
  let full: TestServer;
  beforeAll(async () => {
    full = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], environment: { INTERNAL_KEY } });
  }, 60_000);
  afterAll(async () => {
    await full?.close();
  });

  /** The payments service on the full server's compliance and fees, with the given store and rail. */
  function serviceWith(paymentStore: PaymentStore, rail: RailSettlement) {
    const platform = full.platform!;
    return createPaymentsService({
      store: paymentStore,
      compliance: createComplianceClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey: INTERNAL_KEY }),
      fees: createFeesClient({ transport: platform.upstream.transport(FEES_SERVICE) }),
      rail,
      clock: full.clock,
      ids: platform.ids,
      logger: createLogger({ logLevel: 'silent' }),
    });
  }

  it('a process that comes back after the recovery ended its payment sends nothing and answers the recovered result', async () => {
    let sends = 0;
    const recovered: PaymentResult[] = [];
    // The recovery ends the payment between its screening and the record of its send (the race the record closes).
    const racedStore: PaymentStore = {
      ...store,
      async recordSettling(railPaymentId, settling, now) {
        const row = (await store.findById(railPaymentId))!;
        const frame = { railPaymentId, payment: row.request as NativePayment, submittedAt: Math.floor(row.submittedAt.getTime() / 1000), network: 'embedded-base' };
        const result = finalResult(frame, { kind: 'failed', reason: 'the process running this payment stopped before its settlement was sent (recovered); nothing was settled.' });
        expect(await store.complete(railPaymentId, { result }, now)).toBe(true);
        recovered.push(result);
        return store.recordSettling(railPaymentId, settling, now);
      },
    };
    const rail: RailSettlement = {
      network: () => 'embedded-base',
      settle: async () => {
        sends += 1;
        throw new Error('must not be sent');
      },
    };
    const answer = await serviceWith(racedStore, rail).for(TENANT).initiate(createRequestContext({}, full.clock), paymentTo(freshWallet()));
    expect(sends).toBe(0);
    expect(recovered).toHaveLength(1);
    expect(answer).toEqual(recovered[0]);
  }, 60_000);

  it('a settlement sent but not confirmed leaves the payment PENDING, and the recovery ends it as the chain says', async () => {
    const unconfirmedHash = `0x${'ab'.repeat(32)}` as const;
    const rail: RailSettlement = {
      network: () => 'embedded-base',
      settle: async () => {
        throw new RailError('the settlement was sent but not confirmed in time', unconfirmedHash, { unconfirmed: true });
      },
    };
    const payment = paymentTo(freshWallet());
    // 1. Answered PENDING (not FAILED: the transaction may still be mined), with the send recorded.
    const answer = await serviceWith(store, rail).for(TENANT).initiate(createRequestContext({}, full.clock), payment);
    expect(answer.status).toBe('PENDING');
    const row = (await store.findById(answer.railPaymentId))!;
    expect({ status: row.status, quoteId: (row.settling as SettlingRecord | null)?.quoteId }).toEqual({ status: 'PENDING', quoteId: row.quoteId });
    // 2. Ten minutes after the record, the chain has no settlement of its quote: FAILED, once.
    const recovery = createPaymentRecovery({
      store,
      lookup: createRailLookup({ chain: server.platform!.chain, timeoutMs: 5_000 }),
      clock: full.clock,
      network: () => 'embedded-base',
      delays,
      logger: createLogger({ logLevel: 'silent' }),
    });
    full.clock.advance(11 * MINUTE);
    const summary = await recovery.runOnce();
    expect(summary.failed).toBeGreaterThanOrEqual(1);
    expect((await resultOf(answer.railPaymentId)).status).toBe('FAILED');
  }, 60_000);
});

describe('when the recovery takes a payment (RECONCILE_AFTER_MS, decision 0087)', () => {
  it.each([
    // Today's defaults: 10 minutes asked, 5 s RPC (20 x 5 s = 100 s is less): 5 and 10 minutes.
    [
      { reconcileAfterMs: 10 * MINUTE, timeoutMs: 5_000 },
      { beforeSettlingMs: 5 * MINUTE, afterSettlingMs: 10 * MINUTE },
    ],
    // A soak: 1 minute asked, 2 s RPC (40 s): 30 s and 1 minute.
    [
      { reconcileAfterMs: MINUTE, timeoutMs: 2_000 },
      { beforeSettlingMs: 30_000, afterSettlingMs: MINUTE },
    ],
    // 1 minute asked but 5 s RPC: after the send never under 20 x 5 s = 100 s.
    [
      { reconcileAfterMs: MINUTE, timeoutMs: 5_000 },
      { beforeSettlingMs: 30_000, afterSettlingMs: 100_000 },
    ],
  ])('%o: %o', (chain, expected) => {
    expect(recoveryDelaysFor(chain)).toEqual(expected);
  });
});

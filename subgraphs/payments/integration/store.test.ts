import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLEMENT_AGENT_INSTITUTION } from '../../../drizzle/schema.js';
import { canonicalSha256, type JsonValue } from '../../../platform/canonical-json.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { AppError, InfrastructureError } from '../../../platform/errors.js';
import { testDatabases } from '../../../test/helpers.js';
import { createCallbackStore } from '../callbacks/store.js';
import { finalResult, type NativePayment, pendingResult, type ResultFrame } from '../domain/index.js';
import type { PaymentToClaim } from './claim.js';
import { requestDigestOf } from './service.js';
import { createPaymentStore, type PaymentStore } from './store.js';

// The payments store on each driver: claims by tmsReference, replays, and the final rows kept for
// replays (decision 0039).

const NOW = new Date('2026-11-25T03:00:00.000Z');
/** The institution the claims of these tests are for (decision 0050). */
const INSTITUTION = 'inst_store_test';
let sequence = 0;

function paymentOf(amount = '10.00'): NativePayment {
  sequence += 1;
  return {
    tmsReference: `TMS-STORE-${process.pid}-${Date.now().toString(36)}-${sequence}`,
    amount,
    currency: 'USD',
    creditor: { name: 'Shell Catalysts & Technologies Pte. Ltd.', walletAddress: '0x1111111111111111111111111111111111111111' },
    debtor: { name: 'Acme Treasury Ltd', walletAddress: '0x2222222222222222222222222222222222222222' },
  } as NativePayment;
}

function claimOf(payment: NativePayment, digest = 'a'.repeat(64)): PaymentToClaim & { frame: ResultFrame } {
  const railPaymentId = `pay_00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  const frame: ResultFrame = { railPaymentId, payment, submittedAt: NOW.getTime() / 1000, network: 'embedded-base' };
  return { institution: INSTITUTION, railPaymentId, payment, requestSha256: digest, pending: pendingResult(frame), frame };
}

describe.each(testDatabases())('the payments store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let store: PaymentStore;
  beforeAll(async () => {
    handle = await testDatabase.open();
    store = createPaymentStore(handle.db, createCallbackStore(handle.db));
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it('claims a reference once: the same request replays the stored row, another body is a 409', async () => {
    const claim = claimOf(paymentOf());
    expect((await store.claim(claim, NOW)).kind).toBe('claimed');
    const replay = await store.claim({ ...claim, railPaymentId: 'pay_other' }, NOW);
    expect(replay.kind === 'replay' && replay.row.railPaymentId).toBe(claim.railPaymentId);
    await expect(store.claim({ ...claim, requestSha256: 'b'.repeat(64) }, NOW)).rejects.toMatchObject({ code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' } satisfies Partial<AppError>);
  });

  it('replays a payment stored before the amount had one spelling (its digest of "100.00" as sent) for the identical body; another body is still a 409', async () => {
    const payment = paymentOf('100.00');
    const legacyDigest = canonicalSha256(payment as unknown as JsonValue);
    expect(requestDigestOf(payment)).not.toBe(legacyDigest);
    const stored = claimOf(payment, legacyDigest);
    expect((await store.claim(stored, NOW)).kind).toBe('claimed');
    const settled = finalResult(stored.frame, { kind: 'failed', reason: 'stored before this release' });
    await store.complete(stored.railPaymentId, { result: settled }, NOW);
    const retry = await store.claim({ ...claimOf(payment, requestDigestOf(payment)), railPaymentId: 'pay_retry' }, NOW);
    expect(retry.kind === 'replay' && { railPaymentId: retry.row.railPaymentId, result: retry.row.result }).toEqual({ railPaymentId: stored.railPaymentId, result: settled });
    const other = { ...payment, amount: '100.01' };
    await expect(store.claim(claimOf(other, requestDigestOf(other)), NOW)).rejects.toMatchObject({ code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' } satisfies Partial<AppError>);
  });

  it('never keeps a PENDING row: a replay after complete answers the final result', async () => {
    const claim = claimOf(paymentOf());
    await store.claim(claim, NOW);
    const pending = await store.claim(claim, NOW);
    expect(pending.kind === 'replay' && pending.row.status).toBe('PENDING');
    const failed = finalResult(claim.frame, { kind: 'failed', reason: 'the rail did not answer; nothing was settled.' });
    expect(await store.complete(claim.railPaymentId, { result: failed }, NOW)).toBe(true);
    const replay = await store.claim(claim, NOW);
    expect(replay.kind === 'replay' && replay.row.status).toBe('FAILED');
    expect((await store.findByTmsReference(INSTITUTION, claim.payment.tmsReference))?.result).toEqual(failed);
  });

  // A tmsReference is unique within its institution (decision 0050): one payment per institution.
  it('one reference claimed at once by two institutions on two replicas, 10 times each: one payment per institution, the other 9 replay it', async () => {
    const replica = createPaymentStore(handle.db, createCallbackStore(handle.db));
    const payment = paymentOf();
    const institutions = [`${INSTITUTION}-a`, `${INSTITUTION}-b`];
    const claims = institutions.flatMap((institution) =>
      Array.from({ length: 10 }, (_, index) => ({ ...claimOf(payment), institution, railPaymentId: `pay_00000000-0000-4000-8000-${institution.at(-1)}${String(index).padStart(11, '0')}` })),
    );
    const outcomes = await Promise.all(claims.map((claim, index) => (index % 2 === 0 ? store : replica).claim(claim, NOW)));
    for (const institution of institutions) {
      const own = outcomes.filter((_, index) => claims[index]!.institution === institution);
      const claimed = own.filter((outcome) => outcome.kind === 'claimed');
      expect(claimed).toHaveLength(1);
      const owner = claimed[0]!.kind === 'claimed' ? claimed[0]!.row : undefined;
      expect(owner).toMatchObject({ institutionId: institution, tmsReference: payment.tmsReference });
      expect(own.map((outcome) => 'row' in outcome && outcome.row.railPaymentId)).toEqual(own.map(() => owner!.railPaymentId));
      expect((await store.findByTmsReference(institution, payment.tmsReference))?.railPaymentId).toBe(owner!.railPaymentId);
    }
    expect(new Set(outcomes.map((outcome) => 'row' in outcome && outcome.row.railPaymentId)).size).toBe(2);
    expect((await store.findAllByTmsReference(payment.tmsReference)).map((row) => row.institutionId)).toEqual(expect.arrayContaining(institutions));
  });

  it("another institution's reference is no conflict: a body of its own is its own payment; the same body too", async () => {
    const claim = claimOf(paymentOf());
    expect((await store.claim(claim, NOW)).kind).toBe('claimed');
    const other = `${INSTITUTION}-other`;
    const differentBody = await store.claim({ ...claim, institution: other, railPaymentId: 'pay_00000000-0000-4000-8000-0000000000ff', requestSha256: 'd'.repeat(64) }, NOW);
    expect(differentBody.kind === 'claimed' && differentBody.row.institutionId).toBe(other);
    const third = `${INSTITUTION}-third`;
    const sameBody = await store.claim({ ...claim, institution: third, railPaymentId: 'pay_00000000-0000-4000-8000-0000000000fe' }, NOW);
    expect(sameBody.kind === 'claimed' && sameBody.row.railPaymentId).toBe('pay_00000000-0000-4000-8000-0000000000fe');
    expect((await store.findByTmsReference(INSTITUTION, claim.payment.tmsReference))?.railPaymentId).toBe(claim.railPaymentId);
  });

  // What the recovery of payments a stopped process left reads and writes (decision 0039).
  const settlingOf = (quoteId: string, at: Date) => ({
    quoteId,
    vop: { requestId: 'vop_1', result: 'VERIFIED', proceedSafe: true, score: 100, resolvedBy: 'LEI_EXACT_MATCH', message: 'ok', attestation: { fatfR16Compliant: true, regulatoryNote: 'note' } },
    aml: { action: 'PROCEED' as const, riskScore: 3, riskTier: 'LOW', sanctionsHit: false },
    exchangeRate: '1',
    recordedAtMs: at.getTime(),
  });

  it('records the settling of a PENDING payment (and its quote), refuses it once the payment has ended', async () => {
    const claim = claimOf(paymentOf());
    await store.claim(claim, NOW);
    const at = new Date(NOW.getTime() + 2_000);
    expect(await store.recordSettling(claim.railPaymentId, settlingOf('srq-1-recorded', at), at)).toBe(true);
    const row = await store.findById(claim.railPaymentId);
    expect({ settling: row?.settling, quoteId: row?.quoteId, updatedAt: row?.updatedAt }).toEqual({ settling: settlingOf('srq-1-recorded', at), quoteId: 'srq-1-recorded', updatedAt: at });
    await store.complete(claim.railPaymentId, { result: finalResult(claim.frame, { kind: 'failed', reason: 'recovered' }) }, at);
    expect(await store.recordSettling(claim.railPaymentId, settlingOf('srq-1-late', at), at)).toBe(false);
    expect((await store.findById(claim.railPaymentId))?.quoteId).toBe('srq-1-recorded');
  });

  it('lists PENDING payments last stepped at or before a moment, oldest first, never ended ones', async () => {
    const base = new Date('2031-01-01T00:00:00.000Z');
    const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000);
    const [older, newer, ended, tooRecent] = [claimOf(paymentOf()), claimOf(paymentOf()), claimOf(paymentOf()), claimOf(paymentOf())];
    await store.claim(newer, at(2));
    await store.claim(older, at(1));
    await store.claim(ended, at(0));
    await store.complete(ended.railPaymentId, { result: finalResult(ended.frame, { kind: 'failed', reason: 'done' }) }, at(0));
    await store.claim(tooRecent, at(4));
    const listed = (await store.pendingSince(at(3), 10)).filter((row) => row.updatedAt >= base).map((row) => row.railPaymentId);
    expect(listed).toEqual([older.railPaymentId, newer.railPaymentId]);
  });

  // A quote given with a payment pays for that payment only (decision 0046).
  const quotedClaim = (quoteId: string) => claimOf({ ...paymentOf(), quoteId });
  const storedReferences = async (claims: ReadonlyArray<PaymentToClaim>) =>
    (await Promise.all(claims.map((claim) => store.findByTmsReference(INSTITUTION, claim.payment.tmsReference)))).filter(Boolean).length;

  it('a quote used by one payment is 409 for another, which stores nothing; the first still replays', async () => {
    const quoteId = `srq-store-${sequence}-once`;
    const first = quotedClaim(quoteId);
    expect((await store.claim(first, NOW)).kind).toBe('claimed');
    const second = quotedClaim(quoteId);
    await expect(store.claim(second, NOW)).rejects.toMatchObject({ code: 'PAY_ERR_QUOTE_USED', status: 409 } satisfies Partial<AppError>);
    expect(await store.findByTmsReference(INSTITUTION, second.payment.tmsReference)).toBeUndefined();
    const replay = await store.claim(first, NOW);
    expect(replay.kind === 'replay' && replay.row.railPaymentId).toBe(first.railPaymentId);
    // The second may go under a quote of its own.
    expect((await store.claim({ ...second, payment: { ...second.payment, quoteId: `${quoteId}-new` } }, NOW)).kind).toBe('claimed');
  });

  it('20 payments under one quote at once: one is claimed, 19 are 409 and stored nowhere', async () => {
    const quoteId = `srq-store-${sequence}-race`;
    const claims = Array.from({ length: 20 }, () => quotedClaim(quoteId));
    const outcomes = await Promise.allSettled(claims.map((claim) => store.claim(claim, NOW)));
    const claimed = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value.kind === 'claimed');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected' && (outcome.reason as AppError).code === 'PAY_ERR_QUOTE_USED');
    expect({ claimed: claimed.length, refused: refused.length, stored: await storedReferences(claims) }).toEqual({ claimed: 1, refused: 19, stored: 1 });
  });

  it("an agent's claim within its daily cap takes its quote the same way", async () => {
    const quoteId = `srq-store-${sequence}-agent`;
    const agent = { agentId: `agt_store${sequence}`, amountUsd: '10', dailyCap: { capUsd: '1000', since: NOW } };
    const first = { ...quotedClaim(quoteId), agent };
    expect((await store.claim(first, NOW)).kind).toBe('claimed');
    const second = { ...quotedClaim(quoteId), agent };
    await expect(store.claim(second, NOW)).rejects.toMatchObject({ code: 'PAY_ERR_QUOTE_USED' });
    expect(await store.findByTmsReference(INSTITUTION, second.payment.tmsReference)).toBeUndefined();
  });

  it("an agent's claim of a reference another institution holds is the settlement agent's own payment, not a replay of the other's", async () => {
    const payment = paymentOf();
    const others = claimOf(payment);
    expect((await store.claim(others, NOW)).kind).toBe('claimed');
    const agent = { agentId: `agt_store${sequence}`, amountUsd: '10', fundsUsd: '100' };
    const agents = { ...claimOf(payment), institution: undefined, railPaymentId: 'pay_00000000-0000-4000-8000-00000000a9e7', agent };
    const claimed = await store.claim(agents, NOW);
    expect(claimed.kind === 'claimed' && { railPaymentId: claimed.row.railPaymentId, institutionId: claimed.row.institutionId }).toEqual({
      railPaymentId: agents.railPaymentId,
      institutionId: SETTLEMENT_AGENT_INSTITUTION,
    });
    expect((await store.findByTmsReference(INSTITUTION, payment.tmsReference))?.railPaymentId).toBe(others.railPaymentId);
  });
});

describe.each(testDatabases())('final rows answered without the database on $driver', (testDatabase) => {
  it('a final row read once replays while the database is gone; a new reference then fails as infrastructure', async () => {
    const handle = await testDatabase.open();
    const store = createPaymentStore(handle.db, createCallbackStore(handle.db), { timeoutMs: 2000 });
    const claim = claimOf(paymentOf());
    await store.claim(claim, NOW);
    const failed = finalResult(claim.frame, { kind: 'failed', reason: 'no FX rate; nothing was sent.' });
    await store.complete(claim.railPaymentId, { result: failed }, NOW);
    // 1. The first replay reads the final row from the database and keeps it.
    expect((await store.claim(claim, NOW)).kind).toBe('replay');
    // 2. The database goes away: the replay still answers (no statement), and another body under the reference is still a 409.
    await testDatabase.dispose(handle);
    const replay = await store.claim(claim, NOW);
    expect(replay.kind === 'replay' && replay.row.result).toEqual(failed);
    await expect(store.claim({ ...claim, requestSha256: 'c'.repeat(64) }, NOW)).rejects.toMatchObject({ code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' });
    // 3. Anything that needs the database fails as infrastructure, not as a wrong answer.
    await expect(store.claim(claimOf(paymentOf()), NOW)).rejects.toBeInstanceOf(InfrastructureError);
  });
});

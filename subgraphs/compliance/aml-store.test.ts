import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amlScreenings } from '../../drizzle/schema.js';
import { ManualClock } from '../../platform/clock.js';
import type { DatabaseHandle } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { TEST_NOW, testDatabases } from '../../test/helpers.js';
import type { AmlScreenBody } from './aml-inputs.js';
import type { AmlService } from './aml-service.js';
import { testAmlService } from './aml-testing.js';

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const body = (overrides: Partial<AmlScreenBody> = {}): AmlScreenBody => ({
  wallet: wallet(1), counterparty: wallet(2), amount: 100, currency: 'USDC', paymentId: 'pay-1', direction: 'SEND', ...overrides,
});

describe.each(testDatabases())('AML screening store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let service: AmlService;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
    service = testAmlService({ db: handle.db, clock });
  });
  afterAll(async () => testDatabase.dispose(handle));

  const screensOf = async (walletAddress: string) => (await handle.db.select({ n: count() }).from(amlScreenings).where(eq(amlScreenings.walletKey, walletAddress.toLowerCase())))[0]!.n;

  it('50 concurrent screens of one wallet: every one counted, none lost', async () => {
    const w = wallet(0x50);
    const amounts = Array.from({ length: 50 }, (_, i) => 100 + i);
    const results = await Promise.all(amounts.map((amount, i) => service.screen(body({ wallet: w, amount, paymentId: `concurrent-${i}` }))));
    expect(results.every((result) => result.action !== 'BLOCK')).toBe(true);
    const profile = await service.profile(w);
    // mean of 100..149 = 124.5; sample sd = sqrt(50 x 51 / 12) = 14.58 (variance of 0..49 with n - 1).
    expect(profile).toMatchObject({ maturity: 'DEVELOPING', txCount: 50, screenCount: 50, blockedCount: 0, txVolumeAvg: 124.5, txVolumeStdDev: 14.58, txVolumeTotal: 6_225, txVolumeMax: 149, counterpartyCount: 1 });
    expect(await screensOf(w)).toBe(50);
    // Each screen saw the one before it: the txCount answered is 1..50, each once.
    expect(results.map((result) => result.profile.txCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('the same paymentId screened 20 times at once counts once; every answer is the stored result', async () => {
    const w = wallet(0x20);
    const results = await Promise.all(Array.from({ length: 20 }, () => service.screen(body({ wallet: w, paymentId: 'same-payment' }))));
    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    expect(await service.profile(w)).toMatchObject({ txCount: 1, screenCount: 1 });
    expect(await screensOf(w)).toBe(1);
    // Later, the same again: still the stored result, still one transaction.
    clock.advance(60_000);
    expect(await service.screen(body({ wallet: w, paymentId: 'same-payment' }))).toEqual(results[0]);
    expect((await service.profile(w)).txCount).toBe(1);
  });

  it('one paymentId screens both sides of a payment (SEND for the payer, RECEIVE for the payee), each once', async () => {
    const payer = wallet(0x31);
    const payee = wallet(0x32);
    await service.screen(body({ wallet: payer, counterparty: payee, paymentId: 'two-sided' }));
    await service.screen(body({ wallet: payee, counterparty: payer, paymentId: 'two-sided', direction: 'RECEIVE' }));
    expect((await service.profile(payer)).txCount).toBe(1);
    expect((await service.profile(payee)).txCount).toBe(1);
  });

  it('a paymentId reused with other terms is refused (409) and counts nothing', async () => {
    const w = wallet(0x40);
    await service.screen(body({ wallet: w, paymentId: 'reused' }));
    await expect(service.screen(body({ wallet: w, paymentId: 'reused', amount: 101 }))).rejects.toSatisfy((error) => error instanceof AppError && error.code === 'CMP_ERR_AML_PAYMENT_CONFLICT');
    expect((await service.profile(w)).txCount).toBe(1);
  });

  it('a BLOCKed screen is not a transaction: the profile counts it as blocked only', async () => {
    const w = wallet(0x41);
    await service.screen(body({ wallet: w, paymentId: 'ok-1' }));
    const blocked = await service.screen(body({ wallet: w, paymentId: 'to-lazarus', counterparty: 'Lazarus Group' }));
    expect(blocked).toMatchObject({ action: 'BLOCK', riskScore: 100, sanctions: { hit: true }, profile: { txCount: 1 } });
    expect(await service.profile(w)).toMatchObject({ txCount: 1, screenCount: 2, blockedCount: 1, counterpartyCount: 1 });
    // The next screen carries PRIOR_BLOCKS.
    const next = await service.screen(body({ wallet: w, paymentId: 'ok-2' }));
    expect(next.signals.map((signal) => signal.code)).toContain('PRIOR_BLOCKS');
  });

  it('events: the last 50 of level WARNING and above, newest first', async () => {
    const w = wallet(0x55);
    // Venezuela is under FATF increased monitoring: every screen is MEDIUM (WARNING), as docs/aml-model.md works out.
    for (let i = 1; i <= 55; i += 1) {
      const result = await service.screen(body({ wallet: w, paymentId: `event-${i}`, counterpartyCountry: 'VE' }));
      expect(result.riskTier).toBe('MEDIUM');
    }
    const { events, count: answered } = await service.events(w);
    expect(answered).toBe(50);
    expect(events.map((event) => event.paymentId)).toEqual(Array.from({ length: 50 }, (_, i) => `event-${55 - i}`));
    expect(events[0]).toMatchObject({ level: 'WARNING', riskTier: 'MEDIUM', action: 'PROCEED', direction: 'SEND', amountUsd: 100, sanctionsHit: false, recommendation: null, checkedAt: Date.parse(clock.now().toISOString()) / 1000 });
    expect(events[0]!.signals).toContain('FATF_INCREASED_MONITORING');
    // A wallet with LOW screens only has no events.
    expect(await service.events(wallet(0x50))).toEqual({ wallet: wallet(0x50), count: 0, events: [] });
  });

  it('a wallet never screened: an UNKNOWN profile with zeros and nulls', async () => {
    expect(await service.profile(wallet(0x99))).toEqual({
      wallet: wallet(0x99), maturity: 'UNKNOWN', txCount: 0, txVolumeAvg: 0, txVolumeStdDev: null, txVolumeTotal: 0, txVolumeMax: 0, counterpartyCount: 0,
      screenCount: 0, blockedCount: 0, riskScore: null, firstSeenAt: null, lastSeenAt: null, lastScreenedAt: null,
    });
  });
});

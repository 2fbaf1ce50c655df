import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amlCounterparties, amlScreenings } from '../../drizzle/schema.js';
import { ManualClock } from '../../platform/clock.js';
import type { DatabaseHandle } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { EMPTY_AML_PROFILE, type AmlProfileStats } from './domain/aml.js';
import { TEST_NOW, testDatabases } from '../../test/helpers.js';
import type { AmlScreenBody } from './aml-inputs.js';
import type { AmlService } from './aml-service.js';
import { createAmlStore, type AmlLockedState, type AmlScreenKey, type AmlScreenWrite, type AmlStore } from './aml-store.js';
import { testAmlService } from './aml-testing.js';

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const body = (overrides: Partial<AmlScreenBody> = {}): AmlScreenBody => ({
  wallet: wallet(1), counterparty: wallet(2), amount: 100, currency: 'USDC', paymentId: 'pay-1', direction: 'SEND', ...overrides,
});

describe.each(testDatabases())('AML screening store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let service: AmlService;
  let store: AmlStore;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
    service = testAmlService({ db: handle.db, clock });
    store = createAmlStore(handle.db);
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

  // The screen's statements (built once, the reads under the lock merged into one) against the store
  // itself: the state `decide` is given and the rows answered, at the boundaries of each read.
  const at = (seconds: number) => new Date(Date.parse(TEST_NOW) + seconds * 1000);
  const key = (walletKey: string, paymentId: string, counterpartyKey: string, since: { velocity: Date; structuring: Date }): AmlScreenKey => ({
    walletKey, paymentId, counterpartyKey, velocitySince: since.velocity, structuringSince: since.structuring,
  });
  const farBack = { velocity: at(-86_400), structuring: at(-86_400) };

  /** A decide that keeps the states it was given and writes `profile` with a screen checked at `checkedAt`. */
  function recorder(checkedAt: Date, options: { profile?: Partial<Omit<AmlProfileStats, 'screenCount'>>; nearThreshold?: boolean; countCounterparty?: boolean } = {}) {
    const states: AmlLockedState[] = [];
    const decide = (state: AmlLockedState): AmlScreenWrite => {
      states.push(state);
      return {
        profile: { ...state.profile, lastScreenedAt: checkedAt, ...options.profile, screenCount: state.sequence },
        // Keys out of jsonb's order, a nested array with a null: the stored result is answered as jsonb gives it back.
        screening: { fingerprint: `fp-${state.sequence}`, direction: 'SEND', amountUsd: 100.25, nearThreshold: options.nearThreshold ?? false, riskScore: 10, action: 'PROCEED', level: 'INFO', result: { zeta: 1, alpha: [1, 'x', null], checkedAt: checkedAt.toISOString() }, checkedAt },
        countCounterparty: options.countCounterparty ?? true,
      };
    };
    return { states, decide };
  }

  it('no profile yet: the empty profile, a new counterparty, nothing in the windows, sequence 1; nullable columns written as null', async () => {
    const first = recorder(at(0), { profile: { riskScore: null, firstSeenAt: null, lastSeenAt: null } });
    const outcome = await store.screen(key('w-first', 'p-1', 'c-1', farBack), first.decide);
    expect(first.states).toEqual([{ profile: EMPTY_AML_PROFILE, newCounterparty: true, recentScreens: 0, recentNearThreshold: 0, sequence: 1 }]);
    expect(outcome).toEqual({
      kind: 'SCREENED',
      row: { paymentId: 'p-1', walletKey: 'w-first', fingerprint: 'fp-1', sequence: 1, direction: 'SEND', amountUsd: 100.25, nearThreshold: false, riskScore: 10, action: 'PROCEED', level: 'INFO', result: { zeta: 1, alpha: [1, 'x', null], checkedAt: at(0).toISOString() }, checkedAt: at(0) },
    });
    expect(await store.profile('w-first')).toEqual({ ...EMPTY_AML_PROFILE, screenCount: 1, lastScreenedAt: at(0) });
  });

  it('an existing profile: read as last written, the counterparty known once counted, the windows strictly after their start', async () => {
    const written: Omit<AmlProfileStats, 'screenCount'> = {
      txCount: 3, amountMeanUsd: 0.1 + 0.2, amountM2: 1e-9, volumeTotalUsd: 1234567.891, amountMaxUsd: 999.99, counterpartyCount: 2, blockedCount: 1,
      riskScore: 12.5, firstSeenAt: at(-100), lastSeenAt: at(-1), lastScreenedAt: at(0),
    };
    await store.screen(key('w-known', 'p-0', 'c-a', farBack), recorder(at(0), { profile: written, nearThreshold: true }).decide);
    await store.screen(key('w-known', 'p-30', 'c-a', farBack), recorder(at(30), { profile: written, nearThreshold: true }).decide);
    await store.screen(key('w-known', 'p-31', 'c-uncounted', farBack), recorder(at(31), { profile: written, countCounterparty: false }).decide);
    // Velocity from t=30: only the screen at 31 is after it. Structuring from t=0: the near-threshold screen at 30, not the one at 0.
    const seen = recorder(at(90), { profile: written });
    await store.screen(key('w-known', 'p-90', 'c-a', { velocity: at(30), structuring: at(0) }), seen.decide);
    // Both from far back: 4 screens, 2 near the threshold; a counterparty screened but not counted is still new.
    await store.screen(key('w-known', 'p-91', 'c-uncounted', farBack), seen.decide);
    expect(seen.states).toEqual([
      { profile: { ...written, screenCount: 3 }, newCounterparty: false, recentScreens: 1, recentNearThreshold: 1, sequence: 4 },
      { profile: { ...written, screenCount: 4 }, newCounterparty: true, recentScreens: 4, recentNearThreshold: 2, sequence: 5 },
    ]);
    // Counted at 0, 30 and 90 (first seen at 0, last at 90); the uncounted one first counted at 90.
    const counterparties = await handle.db.select().from(amlCounterparties).where(eq(amlCounterparties.walletKey, 'w-known')).orderBy(amlCounterparties.counterpartyKey);
    expect(counterparties).toEqual([
      { walletKey: 'w-known', counterpartyKey: 'c-a', txCount: 3, firstSeenAt: at(0), lastSeenAt: at(90) },
      { walletKey: 'w-known', counterpartyKey: 'c-uncounted', txCount: 1, firstSeenAt: at(90), lastSeenAt: at(90) },
    ]);
  });

  it('a repeated paymentId: the stored row as it was answered, decide not called, nothing written; another wallet screens it anew', async () => {
    const screened = await store.screen(key('w-replay', 'p-same', 'c-1', farBack), recorder(at(0)).decide);
    const profile = await store.profile('w-replay');
    const again = recorder(at(60));
    const replayed = await store.screen(key('w-replay', 'p-same', 'c-other', farBack), again.decide);
    expect(again.states).toEqual([]);
    expect(replayed.kind).toBe('REPLAYED');
    expect(JSON.stringify(replayed.row)).toBe(JSON.stringify(screened.row));
    expect(replayed.row.checkedAt).toEqual(at(0));
    expect(await store.profile('w-replay')).toEqual(profile);
    expect((await store.screen(key('w-replay-2', 'p-same', 'c-1', farBack), recorder(at(0)).decide)).kind).toBe('SCREENED');
  });
});

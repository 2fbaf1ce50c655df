import { and, asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { amlCounterparties, amlProfiles, amlScreenings } from '../../../drizzle/schema.js';
import { ManualClock } from '../../../platform/clock.js';
import type { Database, DatabaseHandle } from '../../../platform/db.js';
import { AppError, InfrastructureError } from '../../../platform/errors.js';
import { loggedDatabase, TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { type AmlProfileStats, EMPTY_AML_PROFILE } from './domain/index.js';
import type { AmlScreenBody } from './inputs.js';
import type { AmlService } from './service.js';
import { type AmlScreeningRow, type AmlScreenKey, type AmlScreenState, type AmlScreenWrite, type AmlStore, createAmlStore } from './store.js';
import { testAmlService } from './testing.js';

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const body = (overrides: Partial<AmlScreenBody> = {}): AmlScreenBody => ({
  wallet: wallet(1),
  counterparty: wallet(2),
  amount: 100,
  currency: 'USDC',
  paymentId: 'pay-1',
  direction: 'SEND',
  ...overrides,
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
    expect(profile).toMatchObject({
      maturity: 'DEVELOPING',
      txCount: 50,
      screenCount: 50,
      blockedCount: 0,
      txVolumeAvg: 124.5,
      txVolumeStdDev: 14.58,
      txVolumeTotal: 6_225,
      txVolumeMax: 149,
      counterpartyCount: 1,
    });
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
    expect(events[0]).toMatchObject({
      level: 'WARNING',
      riskTier: 'MEDIUM',
      action: 'PROCEED',
      direction: 'SEND',
      amountUsd: 100,
      sanctionsHit: false,
      recommendation: null,
      checkedAt: Date.parse(clock.now().toISOString()) / 1000,
    });
    expect(events[0]!.signals).toContain('FATF_INCREASED_MONITORING');
    // A wallet with LOW screens only has no events.
    expect(await service.events(wallet(0x50))).toEqual({ wallet: wallet(0x50), count: 0, events: [] });
  });

  it('a wallet never screened: an UNKNOWN profile with zeros and nulls', async () => {
    expect(await service.profile(wallet(0x99))).toEqual({
      wallet: wallet(0x99),
      maturity: 'UNKNOWN',
      txCount: 0,
      txVolumeAvg: 0,
      txVolumeStdDev: null,
      txVolumeTotal: 0,
      txVolumeMax: 0,
      counterpartyCount: 0,
      screenCount: 0,
      blockedCount: 0,
      riskScore: null,
      firstSeenAt: null,
      lastSeenAt: null,
      lastScreenedAt: null,
    });
  });

  // The screen's statements (built once: one read, one conditional write) against the store itself:
  // the state `decide` is given and the rows answered, at the boundaries of each read.
  const at = (seconds: number) => new Date(Date.parse(TEST_NOW) + seconds * 1000);
  const key = (walletKey: string, paymentId: string, counterpartyKey: string, since: { velocity: Date; structuring: Date }): AmlScreenKey => ({
    walletKey,
    paymentId,
    counterpartyKey,
    velocitySince: since.velocity,
    structuringSince: since.structuring,
  });
  const farBack = { velocity: at(-86_400), structuring: at(-86_400) };

  /** A screen's row as `recorder` writes it. */
  const screeningOf = (sequence: number, checkedAt: Date, nearThreshold = false): AmlScreenWrite['screening'] => ({
    // Keys out of jsonb's order, a nested array with a null: the stored result is answered as jsonb gives it back.
    fingerprint: `fp-${sequence}`,
    direction: 'SEND',
    amountUsd: 100.25,
    nearThreshold,
    riskScore: 10,
    action: 'PROCEED',
    level: 'INFO',
    result: { zeta: 1, alpha: [1, 'x', null], checkedAt: checkedAt.toISOString() },
    checkedAt,
  });

  /** A decide that keeps the states it was given and writes `profile` with a screen checked at `checkedAt`. */
  function recorder(checkedAt: Date, options: { profile?: Partial<Omit<AmlProfileStats, 'screenCount'>>; nearThreshold?: boolean; countCounterparty?: boolean } = {}) {
    const states: AmlScreenState[] = [];
    const decide = (state: AmlScreenState): AmlScreenWrite => {
      states.push(state);
      return {
        profile: { ...state.profile, lastScreenedAt: checkedAt, ...options.profile, screenCount: state.sequence },
        screening: screeningOf(state.sequence, checkedAt, options.nearThreshold),
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
      row: {
        paymentId: 'p-1',
        walletKey: 'w-first',
        fingerprint: 'fp-1',
        sequence: 1,
        direction: 'SEND',
        amountUsd: 100.25,
        nearThreshold: false,
        riskScore: 10,
        action: 'PROCEED',
        level: 'INFO',
        result: { zeta: 1, alpha: [1, 'x', null], checkedAt: at(0).toISOString() },
        checkedAt: at(0),
      },
    });
    expect(await store.profile('w-first')).toEqual({ ...EMPTY_AML_PROFILE, screenCount: 1, lastScreenedAt: at(0) });
  });

  it('an existing profile: read as last written, the counterparty known once counted, the windows strictly after their start', async () => {
    const written: Omit<AmlProfileStats, 'screenCount'> = {
      txCount: 3,
      amountMeanUsd: 0.1 + 0.2,
      amountM2: 1e-9,
      volumeTotalUsd: 1234567.891,
      amountMaxUsd: 999.99,
      counterpartyCount: 2,
      blockedCount: 1,
      riskScore: 12.5,
      firstSeenAt: at(-100),
      lastSeenAt: at(-1),
      lastScreenedAt: at(0),
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

  // Concurrency. Screens of one wallet queue inside one store (one process), so the tests below
  // race several stores over one database, as several processes would.
  const stores = (n: number) => Array.from({ length: n }, () => createAmlStore(handle.db));
  const sequencesOf = async (walletKey: string) =>
    (await handle.db.select({ sequence: amlScreenings.sequence }).from(amlScreenings).where(eq(amlScreenings.walletKey, walletKey)).orderBy(asc(amlScreenings.sequence))).map((row) => row.sequence);
  const counterpartiesOf = async (walletKey: string) =>
    (await handle.db.select().from(amlCounterparties).where(eq(amlCounterparties.walletKey, walletKey)).orderBy(amlCounterparties.counterpartyKey)).map(({ walletKey: _, ...row }) => row);

  /** A write made between a screen's read and its write: the query, which `release` executes at once. */
  type Change = (db: Pick<Database, 'insert' | 'update'>) => { execute(): Promise<unknown> };
  /**
   * Holds the writes of the wallet's profile: screens started now read, and their writes wait until
   * `release`, which first makes `change`, as another process writing in between would:
   * - PostgreSQL: a transaction holds the profile's row lock (reads pass, the conditional write
   *   waits); `release` makes the change in that transaction and commits it;
   * - PGlite (one connection) runs statements in the order they are sent, and a screen sends its
   *   read at once and its write right after `decide`: screens started together all read before
   *   any writes, and a change sent from `decide` (`release` called there) runs before that write.
   */
  async function holdProfileWrites(walletKey: string): Promise<(change?: Change) => Promise<void>> {
    if (handle.driver === 'pglite') return async (change) => void (await change?.(handle.db).execute());
    let locked!: () => void;
    let release!: (change: Change | undefined) => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<Change | undefined>((resolve) => (release = resolve));
    const holding = handle.db.transaction(async (tx) => {
      await tx.select({ walletKey: amlProfiles.walletKey }).from(amlProfiles).where(eq(amlProfiles.walletKey, walletKey)).for('update');
      locked();
      await (await released)?.(tx).execute();
    });
    await isLocked;
    return async (change) => {
      release(change);
      await holding;
    };
  }

  it('one screen sends two statements (its read, its conditional write), a replay one; screens of one wallet in one store queue and send two each', async () => {
    const logged = loggedDatabase(handle);
    const counted = createAmlStore(logged.db);
    expect((await counted.screen(key('w-count', 'p-1', 'c-1', farBack), recorder(at(0)).decide)).kind).toBe('SCREENED');
    expect(logged.statements).toHaveLength(2);
    expect(logged.statements[0]).toMatch(/^select /);
    expect(logged.statements[1]).toMatch(/^with "profile_write" as \(insert into "aml_profiles" .* where "aml_profiles"\."screen_count" = \$\d+ returning/);
    expect((await counted.screen(key('w-count', 'p-1', 'c-1', farBack), recorder(at(0)).decide)).kind).toBe('REPLAYED');
    expect(logged.statements).toHaveLength(3);
    // Ten at once: queued, none is overtaken (each would cost 2 statements more, and the locked retry's 4).
    const ten = recorder(at(1));
    await Promise.all(Array.from({ length: 10 }, (_, i) => counted.screen(key('w-count', `p-queued-${i}`, 'c-1', farBack), ten.decide)));
    expect(logged.statements).toHaveLength(3 + 20);
    expect(ten.states.map((state) => state.sequence)).toEqual(Array.from({ length: 10 }, (_, i) => i + 2));
  });

  it('a screen overtaken between its read and its write is decided again, under the lock, on what the other screen left', async () => {
    await store.screen(key('w-overtaken', 'p-0', 'c-1', farBack), recorder(at(0)).decide);
    const [first, second] = [recorder(at(10)), recorder(at(10))];
    const release = await holdProfileWrites('w-overtaken');
    // 1. Two stores (two processes) screen the wallet at once, with a new counterparty: both read sequence 2.
    const [one, other] = stores(2);
    const outcomes = Promise.all([one!.screen(key('w-overtaken', 'p-1', 'c-2', farBack), first.decide), other!.screen(key('w-overtaken', 'p-2', 'c-2', farBack), second.decide)]);
    await vi.waitFor(() => expect(first.states.length + second.states.length).toBeGreaterThanOrEqual(2));
    // 2. Written one after the other: the second write finds screen_count 2, not 1, and writes nothing.
    await release();
    const [written, overtaken] = (await outcomes).sort((a, b) => a.row.sequence - b.row.sequence);
    expect([written, overtaken].map((outcome) => [outcome!.kind, outcome!.row.sequence])).toEqual([
      ['SCREENED', 2],
      ['SCREENED', 3],
    ]);
    // 3. The overtaken screen was decided a second time, on the profile, windows and counterparty the first left.
    const states = [...first.states, ...second.states].sort((a, b) => a.sequence - b.sequence);
    const read = { recentScreens: 1, recentNearThreshold: 0, newCounterparty: true, sequence: 2, profile: { ...EMPTY_AML_PROFILE, screenCount: 1, lastScreenedAt: at(0) } };
    expect(states).toEqual([read, read, { recentScreens: 2, recentNearThreshold: 0, newCounterparty: false, sequence: 3, profile: { ...EMPTY_AML_PROFILE, screenCount: 2, lastScreenedAt: at(10) } }]);
    expect(await sequencesOf('w-overtaken')).toEqual([1, 2, 3]);
    expect(await counterpartiesOf('w-overtaken')).toEqual([
      { counterpartyKey: 'c-1', txCount: 1, firstSeenAt: at(0), lastSeenAt: at(0) },
      { counterpartyKey: 'c-2', txCount: 2, firstSeenAt: at(10), lastSeenAt: at(10) },
    ]);
  });

  it("the same (paymentId, wallet) stored between a screen's read and its write: the write fails whole on the key, and the screen answers the stored row (REPLAYED)", async () => {
    await store.screen(key('w-planted', 'p-0', 'c-1', farBack), recorder(at(0)).decide);
    const profile = await store.profile('w-planted');
    const planted: AmlScreeningRow = { paymentId: 'p-1', walletKey: 'w-planted', sequence: 99, ...screeningOf(99, at(5)) };
    const release = await holdProfileWrites('w-planted');
    const screening = recorder(at(10));
    let released: Promise<void> | undefined;
    const outcome = await store.screen(key('w-planted', 'p-1', 'c-1', farBack), (state) => {
      released ??= release((db) => db.insert(amlScreenings).values(planted));
      return screening.decide(state);
    });
    await released;
    expect(outcome).toEqual({ kind: 'REPLAYED', row: planted });
    expect(screening.states).toHaveLength(1);
    // Nothing of the failed write stayed: the profile and the counterparty as the first screen left them.
    expect(await store.profile('w-planted')).toEqual(profile);
    expect(await counterpartiesOf('w-planted')).toEqual([{ counterpartyKey: 'c-1', txCount: 1, firstSeenAt: at(0), lastSeenAt: at(0) }]);
  });

  it('a profile is written only over the one read: changed in between (here its screen_count alone), the write writes nothing and the screen is decided again on the changed profile', async () => {
    await store.screen(key('w-changed', 'p-0', 'c-1', farBack), recorder(at(0)).decide);
    const release = await holdProfileWrites('w-changed');
    const screening = recorder(at(10));
    let released: Promise<void> | undefined;
    const outcome = await store.screen(key('w-changed', 'p-1', 'c-1', farBack), (state) => {
      released ??= release((db) => db.update(amlProfiles).set({ screenCount: 2 }).where(eq(amlProfiles.walletKey, 'w-changed')));
      return screening.decide(state);
    });
    await released;
    expect(screening.states.map((state) => [state.profile.screenCount, state.sequence])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(outcome).toMatchObject({ kind: 'SCREENED', row: { sequence: 3 } });
    expect((await store.profile('w-changed')).screenCount).toBe(3);
  });

  it('a unique violation under the lock as well (a sequence taken that the profile does not count): the screen fails after two tries (InfrastructureError) and writes nothing', async () => {
    await store.screen(key('w-stray', 'p-0', 'c-1', farBack), recorder(at(0)).decide);
    const profile = await store.profile('w-stray');
    await handle.db.insert(amlScreenings).values({ paymentId: 'p-stray', walletKey: 'w-stray', sequence: 2, ...screeningOf(2, at(1)) });
    const tries = recorder(at(10));
    await expect(store.screen(key('w-stray', 'p-1', 'c-1', farBack), tries.decide)).rejects.toBeInstanceOf(InfrastructureError);
    expect(tries.states.map((state) => state.sequence)).toEqual([2, 2]);
    expect(await store.profile('w-stray')).toEqual(profile);
    expect(await sequencesOf('w-stray')).toEqual([1, 2]);
    expect(await counterpartiesOf('w-stray')).toEqual([{ counterpartyKey: 'c-1', txCount: 1, firstSeenAt: at(0), lastSeenAt: at(0) }]);
  });

  it("finding: a screen stuck behind a lock held its wallet's queue; it now releases the next after the store timeout, and a queued screen whose caller had its 503 is never started", async () => {
    await store.screen(key('w-stuck', 'p-0', 'c-1', farBack), recorder(at(0)).decide);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    // Another session holds the profile's row (on PGlite, its one connection) as a dead connection would.
    const blocker = handle.db.transaction(async (tx) => {
      await tx.execute(sql`select wallet_key from aml_profiles where wallet_key = 'w-stuck' for update`);
      locked();
      await gate;
    });
    await holding;
    const outcomes = await Promise.allSettled(['p-1', 'p-2'].map((paymentId, index) => store.screen(key('w-stuck', paymentId, 'c-1', farBack), recorder(at(index + 1)).decide)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(InfrastructureError);
    release();
    await blocker;
    // The queue goes on: a new screen of the wallet is answered. (The first screen's statements were
    // sent before its caller's timeout: they may still complete, or the server may cancel them.)
    expect((await store.screen(key('w-stuck', 'p-3', 'c-1', farBack), recorder(at(3)).decide)).kind).toBe('SCREENED');
    // The second, queued behind it when its caller had its answer, was never started.
    expect(
      await handle.db
        .select({ paymentId: amlScreenings.paymentId })
        .from(amlScreenings)
        .where(and(eq(amlScreenings.walletKey, 'w-stuck'), eq(amlScreenings.paymentId, 'p-2'))),
    ).toEqual([]);
  }, 20_000);

  it('one (paymentId, wallet) screened 20 times at once by 5 stores: one SCREENED, 19 REPLAYED with the same row, counted once', async () => {
    const screens = stores(5).flatMap((each) => Array.from({ length: 4 }, () => each.screen(key('w-same', 'p-same', 'c-1', farBack), recorder(at(0)).decide)));
    const outcomes = await Promise.all(screens);
    expect(outcomes.filter((outcome) => outcome.kind === 'SCREENED')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'REPLAYED')).toHaveLength(19);
    expect(new Set(outcomes.map((outcome) => JSON.stringify(outcome.row))).size).toBe(1);
    expect(await sequencesOf('w-same')).toEqual([1]);
    expect((await store.profile('w-same')).screenCount).toBe(1);
    expect(await counterpartiesOf('w-same')).toEqual([{ counterpartyKey: 'c-1', txCount: 1, firstSeenAt: at(0), lastSeenAt: at(0) }]);
  });

  it('40 screens of one wallet at once through 5 services (5 processes): each counted once, sequences 1..40 without a gap, the profile and counterparties a serial run leaves', async () => {
    const [concurrent, serial] = [wallet(0x4c), wallet(0x4d)];
    const bodies = (w: string) => Array.from({ length: 40 }, (_, i) => body({ wallet: w, amount: 100 + i, counterparty: wallet(0x600 + (i % 3)), paymentId: `many-${i}` }));
    const services = Array.from({ length: 5 }, () => testAmlService({ db: handle.db, clock }));
    const answers = await Promise.all(bodies(concurrent).map((each, i) => services[i % 5]!.screen(each)));
    for (const each of bodies(serial)) await service.screen(each);
    expect(answers.map((answer) => answer.profile.txCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await sequencesOf(concurrent)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // The statistics do not depend on the order; the risk score (a weighted mean of the screens' scores, in order) does.
    const { wallet: _c, riskScore: _cr, ...fromConcurrent } = await service.profile(concurrent);
    const { wallet: _s, riskScore: _sr, ...fromSerial } = await service.profile(serial);
    expect(fromConcurrent).toEqual(fromSerial);
    expect(fromConcurrent).toMatchObject({ txCount: 40, screenCount: 40, blockedCount: 0, counterpartyCount: 3, txVolumeTotal: 4_780 });
    expect(await counterpartiesOf(concurrent)).toEqual(await counterpartiesOf(serial));
  });
});

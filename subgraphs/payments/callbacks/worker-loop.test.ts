import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { createLogger } from '../../../platform/log.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import type { NativePayment } from '../domain/index.js';
import { createPaymentStore } from '../integration/store.js';
import { type CallbackStore, createCallbackStore, type PaymentCallbackRow } from './store.js';
import { samplePaymentResult, TEST_WEBHOOK_KEY } from './testing.js';
import { type CallbackFetch, type CallbackWorker, createCallbackWorker } from './worker.js';

// The worker's loop (decision 0024 §12): it drains the outbox run after run while runs claim full
// batches, and a wake() sends a just-committed callback at once. Every worker here is started with
// an interval of an hour, so whatever it delivers it delivered without the interval passing. The
// tests wait on events (a claim answered, a delivery made, an attempt recorded), each wait bounded
// by WAIT_MS: the bound turns a hang into a failure naming what never happened; no test measures time.

const logger = createLogger({ logLevel: 'silent' });
const HOUR = 3_600_000;
const BATCH = 3;
const WAIT_MS = 10_000;
/** Not resolvable (.invalid): with private targets allowed nothing looks it up, the fake fetch answers. */
const URL = 'https://receiver.invalid/hooks/rail';

/** Wakes the tests' waits whenever something they observe happened. */
class Events {
  readonly #checks = new Set<() => void>();

  notify(): void {
    for (const check of [...this.#checks]) check();
  }

  /** Resolves once `condition` holds (checked now and at every event); rejects naming `what` after WAIT_MS. */
  until(condition: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(bound);
        this.#checks.delete(check);
      };
      const check = () => {
        if (!condition()) return;
        done();
        resolve();
      };
      const bound = setTimeout(() => {
        done();
        reject(new Error(`never happened (waited ${WAIT_MS} ms): ${what}`));
      }, WAIT_MS);
      this.#checks.add(check);
      check();
    });
  }
}

interface Delivery {
  paymentId: string;
  attempt: number;
}

/**
 * A receiver behind the worker's fetch: it keeps every delivery, counts the deliveries in flight,
 * answers after a turn of the event loop (so a batch is in flight together) and can hold answers.
 */
function fakeReceiver(events: Events, answer: (delivery: Delivery) => number = () => 200) {
  const deliveries: Delivery[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  const fetch: CallbackFetch = async (_url, init) => {
    const delivery = { paymentId: init.headers['x-rail-paymentid']!, attempt: Number(init.headers['x-rail-attempt']) };
    deliveries.push(delivery);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    events.notify();
    try {
      await gate;
      await new Promise((resolve) => setImmediate(resolve));
      return { status: answer(delivery) };
    } finally {
      inFlight -= 1;
    }
  };
  return {
    fetch,
    deliveries,
    maxInFlight: () => maxInFlight,
    /** Deliveries made from now on wait for release() before answering. */
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    deliveriesOf: (paymentId: string) => deliveries.filter((delivery) => delivery.paymentId === paymentId).length,
  };
}

/** The store with its claims (calls made; rows claimed per answered call) and recorded attempts counted. */
function observedStore(store: CallbackStore, events: Events) {
  const claims: number[] = [];
  let claimCalls = 0;
  let recorded = 0;
  const observed: CallbackStore = {
    ...store,
    async claimDue(...args) {
      claimCalls += 1; // counted when the run starts, before the database answers
      const rows = await store.claimDue(...args);
      claims.push(rows.length);
      events.notify();
      return rows;
    },
    async recordAttempt(...args) {
      const result = await store.recordAttempt(...args);
      if (result.recorded) recorded += 1;
      events.notify();
      return result;
    },
  };
  return { store: observed, claims, claimCalls: () => claimCalls, recorded: () => recorded };
}

let paymentCounter = 0;
const newPaymentId = () => `rp_loop_${process.pid}_${(paymentCounter += 1)}`;

describe.each(testDatabases())('payment callback worker loop on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  const workers: CallbackWorker[] = [];
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((running) => running.stop()));
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  function worker(clock: ManualClock, store: CallbackStore, fetch: CallbackFetch, workerId = `loop-${Math.random()}`): CallbackWorker {
    const created = createCallbackWorker({ store, clock, signingKey: TEST_WEBHOOK_KEY, timeoutMs: 2000, logger, workerId, allowPrivateTargets: true, batchSize: BATCH, fetch });
    workers.push(created);
    return created;
  }

  /** Each test's clock starts a year before the previous test's: rows other tests left PENDING are never due for it. */
  let epoch = 0;
  function freshClock(): ManualClock {
    epoch += 1;
    return new ManualClock(new Date(new Date(TEST_NOW).getTime() - epoch * 365 * 86_400_000));
  }

  /** `count` callbacks due now, each committed in its own transaction (the outbox pattern). */
  async function enqueue(store: CallbackStore, clock: ManualClock, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const railPaymentId = newPaymentId();
      await handle.db.transaction(async (tx) => {
        await store.enqueue(tx, { railPaymentId, url: URL, body: JSON.stringify(samplePaymentResult(railPaymentId)) }, clock.now());
      });
      ids.push(railPaymentId);
    }
    return ids;
  }

  async function statesOf(store: CallbackStore, ids: string[]) {
    return Promise.all(ids.map(async (id) => (await store.findByPayment(id))!));
  }

  it('drains: 3 x batchSize due rows are all delivered by one start(), a full batch followed at once, at most batchSize in flight', async () => {
    const clock = freshClock();
    const events = new Events();
    const receiver = fakeReceiver(events);
    const { store, claims } = observedStore(createCallbackStore(handle.db), events);
    const ids = await enqueue(store, clock, 3 * BATCH);
    const running = worker(clock, store, receiver.fetch);
    running.start(HOUR);
    // Runs follow each other until one claims less than a full batch (here: nothing left).
    await events.until(() => claims.includes(0), 'a run finding nothing due');
    await running.stop();

    expect(claims).toEqual([BATCH, BATCH, BATCH, 0]);
    expect(ids.map(receiver.deliveriesOf)).toEqual(ids.map(() => 1));
    // A run sends its whole batch at once, and the next claims only after it ended.
    expect(receiver.maxInFlight()).toBe(BATCH);
    expect((await statesOf(store, ids)).map((row) => row.state)).toEqual(ids.map(() => 'DELIVERED'));
  });

  it('wake() while the loop waits for its interval: the callback committed since is delivered at once', async () => {
    const clock = freshClock();
    const events = new Events();
    const receiver = fakeReceiver(events);
    const { store, claims } = observedStore(createCallbackStore(handle.db), events);
    const running = worker(clock, store, receiver.fetch);
    running.start(HOUR);
    // 1. The first run finds nothing: the loop now waits an hour.
    await events.until(() => claims.length === 1, 'the first run');
    // 2. A callback is committed, and its process wakes the worker.
    const [id] = (await enqueue(store, clock, 1)) as [string];
    running.wake();
    await events.until(() => receiver.deliveriesOf(id) === 1, 'the woken delivery');
    await running.stop();
    expect(claims).toEqual([0, 1]);
    expect((await store.findByPayment(id))?.state).toBe('DELIVERED');
  });

  it('wake() during a run (whose claim came before the commit): another run follows it at once', async () => {
    const clock = freshClock();
    const events = new Events();
    const receiver = fakeReceiver(events);
    const { store, claims } = observedStore(createCallbackStore(handle.db), events);
    const [first] = (await enqueue(store, clock, 1)) as [string];
    receiver.hold();
    const running = worker(clock, store, receiver.fetch);
    running.start(HOUR);
    // 1. The first run has claimed and is sending (held by the receiver).
    await events.until(() => receiver.deliveriesOf(first) === 1, 'the first run sending');
    // 2. A second callback is committed after that claim; the wake comes during the run.
    const [second] = (await enqueue(store, clock, 1)) as [string];
    running.wake();
    receiver.release();
    // 3. It goes out in the run right after, not an hour later.
    await events.until(() => receiver.deliveriesOf(second) === 1, 'the second callback delivered');
    await running.stop();
    expect(claims).toEqual([1, 1]);
  });

  it('complete() wakes the worker through onCallbackQueued after its commit: the first attempt goes out without the interval', async () => {
    const clock = freshClock();
    const events = new Events();
    const receiver = fakeReceiver(events);
    const callbacks = createCallbackStore(handle.db);
    const { store, claims } = observedStore(callbacks, events);
    const running = worker(clock, store, receiver.fetch);
    const railPaymentId = newPaymentId();
    /** What a query made from the hook sees: on PostgreSQL another connection, which sees the row only once committed. */
    const seenFromHook: Array<Promise<PaymentCallbackRow | undefined>> = [];
    const payments = createPaymentStore(handle.db, callbacks, {
      onCallbackQueued: () => {
        seenFromHook.push(callbacks.findByPayment(railPaymentId));
        running.wake();
      },
    });
    running.start(HOUR);
    await events.until(() => claims.length === 1, 'the first run');
    await claimPayment(payments, railPaymentId, clock.now());
    expect(await payments.complete(railPaymentId, { result: samplePaymentResult(railPaymentId), callbackUrl: URL }, clock.now())).toBe(true);
    await events.until(() => receiver.deliveriesOf(railPaymentId) === 1, 'the woken delivery');
    await running.stop();
    expect(seenFromHook).toHaveLength(1);
    expect(await seenFromHook[0]).toMatchObject({ railPaymentId, attempt: 0 });
    expect((await callbacks.findByPayment(railPaymentId))?.state).toBe('DELIVERED');
  });

  it('onCallbackQueued is called only when complete committed a new callback row', async () => {
    const clock = freshClock();
    const callbacks = createCallbackStore(handle.db);
    let calls = 0;
    const payments = createPaymentStore(handle.db, callbacks, { onCallbackQueued: () => (calls += 1) });
    const complete = (id: string, callbackUrl?: string) => payments.complete(id, { result: samplePaymentResult(id), ...(callbackUrl ? { callbackUrl } : {}) }, clock.now());
    const [withCallback, withoutCallback, alreadyQueued, refusedUrl] = [newPaymentId(), newPaymentId(), newPaymentId(), newPaymentId()];
    for (const id of [withCallback, withoutCallback, alreadyQueued, refusedUrl]) await claimPayment(payments, id, clock.now());

    // 1. A callback enqueued and committed: one call.
    expect(await complete(withCallback, URL)).toBe(true);
    expect(calls).toBe(1);
    // 2. The payment had already left PENDING: nothing written, no call.
    expect(await complete(withCallback, URL)).toBe(false);
    // 3. No callbackUrl: no row, no call.
    expect(await complete(withoutCallback)).toBe(true);
    // 4. The payment's callback row existed already (enqueue answers enqueued: false): no call.
    await callbacks.enqueue(handle.db, { railPaymentId: alreadyQueued, url: URL, body: '{}' }, clock.now());
    expect(await complete(alreadyQueued, URL)).toBe(true);
    // 5. An unusable URL rolls the transaction back: no call.
    await expect(complete(refusedUrl, 'ftp://receiver.invalid/x')).rejects.toMatchObject({ cause: expect.any(RangeError) });
    expect(calls).toBe(1);
  });

  it('two workers draining one database send each attempt exactly once', async () => {
    const clock = freshClock();
    const events = new Events();
    // Attempt 1 of every callback fails, attempt 2 succeeds.
    const receiver = fakeReceiver(events, (delivery) => (delivery.attempt === 1 ? 500 : 200));
    const { store, recorded } = observedStore(createCallbackStore(handle.db), events);
    const ids = await enqueue(store, clock, 8 * BATCH);
    const pair = [worker(clock, store, receiver.fetch, 'drain-a'), worker(clock, store, receiver.fetch, 'drain-b')];
    // 1. Both drain at once: every first attempt made and recorded (each retry due 5 s later).
    for (const running of pair) running.start(HOUR);
    await events.until(() => recorded() === ids.length, 'every first attempt recorded');
    // 2. 5 s later the retries are due; both are woken and drain again.
    clock.advance(5000);
    for (const running of pair) running.wake();
    await events.until(() => recorded() === 2 * ids.length, 'every second attempt recorded');
    await Promise.all(pair.map((running) => running.stop()));

    const perAttempt = new Map<string, number>();
    for (const { paymentId, attempt } of receiver.deliveries) perAttempt.set(`${paymentId}#${attempt}`, (perAttempt.get(`${paymentId}#${attempt}`) ?? 0) + 1);
    // 24 callbacks x 2 attempts, each sent once.
    expect(perAttempt.size).toBe(2 * ids.length);
    expect([...perAttempt.values()].every((count) => count === 1)).toBe(true);
    expect((await statesOf(store, ids)).map((row) => [row.state, row.attempt])).toEqual(ids.map(() => ['DELIVERED', 2]));
  });

  it('stop() during a drain: the run under way finishes and records, no run follows, the rest is free for another worker at once', async () => {
    const clock = freshClock();
    const events = new Events();
    const receiver = fakeReceiver(events);
    const { store, claims, claimCalls } = observedStore(createCallbackStore(handle.db), events);
    const ids = await enqueue(store, clock, 3 * BATCH);
    receiver.hold();
    const running = worker(clock, store, receiver.fetch);
    running.start(HOUR);
    // 1. The first run's full batch is in flight; stop() is called, then the receiver answers.
    await events.until(() => receiver.deliveries.length === BATCH, 'the first batch in flight');
    const stopped = running.stop();
    receiver.release();
    await stopped;
    // 2. A run the drain had scheduled "at once" would have begun (called claimDue) within one
    //    turn of the timers; a wake() after stop() starts none either.
    running.wake();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(claimCalls()).toBe(1);
    expect(claims).toEqual([BATCH]);
    const rows = await statesOf(store, ids);
    expect(rows.filter((row) => row.state === 'DELIVERED')).toHaveLength(BATCH);
    // 3. The rows left behind are PENDING and not leased: another worker takes them at once.
    const left = rows.filter((row) => row.state === 'PENDING');
    expect(left.map((row) => [row.attempt, row.claimedBy])).toEqual(left.map(() => [0, null]));
    expect(left).toHaveLength(2 * BATCH);
    const next = worker(clock, store, receiver.fetch);
    next.start(HOUR);
    await events.until(() => claims.length === 4, 'the next worker draining the rest');
    await next.stop();
    expect(claims).toEqual([BATCH, BATCH, BATCH, 0]);
    expect(ids.map(receiver.deliveriesOf)).toEqual(ids.map(() => 1));
  });
});

/** Claims a payment as the service does before it runs it (PENDING), so complete() can move it. */
async function claimPayment(payments: ReturnType<typeof createPaymentStore>, railPaymentId: string, now: Date): Promise<void> {
  const payment: NativePayment = {
    tmsReference: `TMS-${railPaymentId}`,
    amount: '1250.00',
    currency: 'EUR',
    settlementAsset: 'USDC',
    creditor: { name: 'Creditor', walletAddress: '0x0000000000000000000000000000000000000001' },
    debtor: { name: 'Debtor', walletAddress: '0x0000000000000000000000000000000000000002' },
  } as NativePayment;
  const claim = await payments.claim(
    { institution: 'inst_callback_loop', railPaymentId, payment, requestSha256: railPaymentId, pending: { ...samplePaymentResult(railPaymentId), status: 'PENDING' } },
    now,
  );
  expect(claim.kind).toBe('claimed');
}

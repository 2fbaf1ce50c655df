import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../../../platform/db.js';
import { createLogger } from '../../../platform/log.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { type CallbackStore, createCallbackStore } from './store.js';
import { type CallbackReceiver, type ReceivedCallback, type ReceiverAnswer, samplePaymentResult, startCallbackReceiver, TEST_WEBHOOK_KEY } from './testing.js';
import { type CallbackWorkerOptions, createCallbackWorker } from './worker.js';

const logger = createLogger({ logLevel: 'silent' });
const SECOND = 1000;

/** The Node verification example of docs/webhooks.md, loaded from the page itself. */
type VerifyRailSignature = (rawBody: Buffer, signatureHeader: string, key: string) => boolean;
async function docsNodeVerifier(): Promise<VerifyRailSignature> {
  const page = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
  const code = /```js\n(\/\/ verify-rail-callback\.mjs\n[\s\S]*?)```/.exec(page)?.[1];
  if (!code) throw new Error('docs/webhooks.md has no verify-rail-callback.mjs block');
  const file = join(mkdtempSync(join(tmpdir(), 'srg-webhooks-')), 'verify-rail-callback.mjs');
  writeFileSync(file, code);
  const module = (await import(pathToFileURL(file).href)) as { verifyRailSignature: VerifyRailSignature };
  return module.verifyRailSignature;
}

/** The Python example of docs/webhooks.md run on a delivery's raw bytes; undefined without python3. */
const python = spawnSync('python3', ['--version']).status === 0;
function docsPythonVerifies(delivery: ReceivedCallback, key: string): boolean {
  const page = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
  const code = /```python\n(# verify_rail_callback\.py\n[\s\S]*?)```/.exec(page)?.[1];
  if (!code) throw new Error('docs/webhooks.md has no verify_rail_callback.py block');
  const script = `${code}\nimport sys\nraw = sys.stdin.buffer.read()\nprint(verify_rail_signature(raw, sys.argv[1], sys.argv[2].encode()))\n`;
  const result = spawnSync('python3', ['-c', script, delivery.signature, key], { input: delivery.rawBody });
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr.toString()}`);
  return result.stdout.toString().trim() === 'True';
}

let paymentCounter = 0;
const newPaymentId = () => `rp_worker_${process.pid}_${(paymentCounter += 1)}`;

/** (paymentId, attempt) -> how many deliveries carried it. */
function deliveriesPerAttempt(received: ReceivedCallback[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const delivery of received) {
    const key = `${delivery.paymentId}#${delivery.attempt}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe.each(testDatabases())('payment callback worker on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let verify: VerifyRailSignature;
  const receivers: CallbackReceiver[] = [];
  beforeAll(async () => {
    handle = await testDatabase.open();
    verify = await docsNodeVerifier();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  async function receiver(clock: ManualClock, answer: ReceiverAnswer): Promise<CallbackReceiver> {
    const started = await startCallbackReceiver(clock, answer);
    receivers.push(started);
    return started;
  }

  function worker(clock: ManualClock, overrides: Partial<CallbackWorkerOptions> = {}) {
    const store = overrides.store ?? createCallbackStore(handle.db);
    const created = createCallbackWorker({ store, clock, signingKey: TEST_WEBHOOK_KEY, timeoutMs: 2000, logger, workerId: `w-${Math.random()}`, allowPrivateTargets: true, ...overrides });
    return { store, worker: created };
  }

  /** Each test's clock starts a year before the previous test's: rows other tests left PENDING are never due for it. */
  let epoch = 0;
  function freshClock(): ManualClock {
    epoch += 1;
    return new ManualClock(new Date(new Date(TEST_NOW).getTime() - epoch * 365 * 86_400_000));
  }

  async function enqueuePayment(store: CallbackStore, clock: ManualClock, url: string) {
    const railPaymentId = newPaymentId();
    const body = JSON.stringify(samplePaymentResult(railPaymentId));
    // The outbox pattern: the callback is written in the payment's own transaction.
    await handle.db.transaction(async (tx) => {
      await store.enqueue(tx, { railPaymentId, url, body }, clock.now());
    });
    return { railPaymentId, body };
  }

  it('fails three times, then succeeds: one delivery per attempt at 0 s, 5 s, 35 s, 5 min 35 s, each signed, across a restart', async () => {
    const clock = freshClock();
    const start = clock.now().getTime();
    const target = await receiver(clock, (_delivery, index) => (index < 3 ? 503 : 200));
    let first = worker(clock);
    const { railPaymentId, body } = await enqueuePayment(first.store, clock, target.url);

    // 1. t = 0: the immediate attempt fails; a second run at the same instant sends nothing.
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 0 });
    // 2. t = 4.999 s: not due yet; t = 5 s: the second attempt fails.
    clock.advance(4_999);
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(1);
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    // 3. Restart: the worker and its store are dropped; new ones on the same database.
    await first.worker.stop();
    first = worker(clock);
    // 4. t = 35 s (5 + 30): the third attempt fails.
    clock.advance(29_999);
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(1);
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    // 5. Another restart, then t = 5 min 35 s (35 + 300): the fourth attempt is delivered.
    await first.worker.stop();
    first = worker(clock);
    clock.advance(299_999);
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(1);
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    clock.advance(3_600_000);
    expect(await first.worker.runOnce()).toMatchObject({ claimed: 0 });
    await first.worker.stop();

    expect(target.received.map((delivery) => [delivery.attempt, delivery.at.getTime() - start])).toEqual([
      [1, 0],
      [2, 5 * SECOND],
      [3, 35 * SECOND],
      [4, 335 * SECOND],
    ]);
    for (const delivery of target.received) {
      expect(delivery.paymentId).toBe(railPaymentId);
      expect(delivery.contentType).toBe('application/json');
      expect(delivery.rawBody.toString('utf8')).toBe(body);
      expect(delivery.signature).toMatch(/^[0-9a-f]{64}$/);
      // The docs' Node example accepts it; under another key, or with one byte changed, it does not.
      expect(verify(delivery.rawBody, delivery.signature, TEST_WEBHOOK_KEY)).toBe(true);
      expect(verify(delivery.rawBody, delivery.signature, `${TEST_WEBHOOK_KEY}x`)).toBe(false);
      expect(verify(Buffer.concat([delivery.rawBody, Buffer.from(' ')]), delivery.signature, TEST_WEBHOOK_KEY)).toBe(false);
    }
    expect(await createCallbackStore(handle.db).findByPayment(railPaymentId)).toMatchObject({
      state: 'DELIVERED',
      attempt: 4,
      lastStatus: 200,
      lastError: null,
      deliveredAt: new Date(start + 335 * SECOND),
    });
  });

  it.skipIf(!python)("the docs' Python example verifies a real delivery and refuses a forged one", async () => {
    const clock = freshClock();
    const target = await receiver(clock, () => 200);
    const { store, worker: running } = worker(clock);
    await enqueuePayment(store, clock, target.url);
    await running.runOnce();
    await running.stop();
    const [delivery] = target.received;
    expect(delivery).toBeDefined();
    expect(docsPythonVerifies(delivery!, TEST_WEBHOOK_KEY)).toBe(true);
    expect(docsPythonVerifies({ ...delivery!, rawBody: Buffer.from(delivery!.rawBody.toString('utf8').replace('SETTLED', 'FAILED')) }, TEST_WEBHOOK_KEY)).toBe(false);
  });

  it('a receiver that never succeeds: FAILED after exactly 4 attempts, never a 5th', async () => {
    const clock = freshClock();
    const target = await receiver(clock, () => 500);
    const { store, worker: running } = worker(clock);
    const { railPaymentId } = await enqueuePayment(store, clock, target.url);
    // Runs every 5 s for 10 minutes of test time: more than enough for every attempt.
    for (let step = 0; step < 120; step += 1) {
      await running.runOnce();
      clock.advance(5 * SECOND);
    }
    await running.stop();
    expect(target.received.map((delivery) => delivery.attempt)).toEqual([1, 2, 3, 4]);
    expect(await store.findByPayment(railPaymentId)).toMatchObject({ state: 'FAILED', attempt: 4, lastStatus: 500, lastError: 'HTTP 500', deliveredAt: null });
  });

  it('a 4xx other than 408/429 ends the callback after one attempt', async () => {
    const clock = freshClock();
    const target = await receiver(clock, () => 404);
    const { store, worker: running } = worker(clock);
    const { railPaymentId } = await enqueuePayment(store, clock, target.url);
    expect(await running.runOnce()).toMatchObject({ claimed: 1, failed: 1 });
    clock.advance(3_600_000);
    expect(await running.runOnce()).toMatchObject({ claimed: 0 });
    await running.stop();
    expect(target.received).toHaveLength(1);
    expect(await store.findByPayment(railPaymentId)).toMatchObject({ state: 'FAILED', attempt: 1, lastStatus: 404 });
  });

  it('a hanging receiver is cut by the timeout and retried on the schedule', async () => {
    const clock = freshClock();
    const target = await receiver(clock, (_delivery, index) => (index === 0 ? 'hang' : 204));
    const { store, worker: running } = worker(clock, { timeoutMs: 300 });
    const { railPaymentId } = await enqueuePayment(store, clock, target.url);
    expect(await running.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(await store.findByPayment(railPaymentId)).toMatchObject({
      state: 'PENDING',
      attempt: 1,
      lastStatus: null,
      lastError: 'no answer within 300 ms',
      nextAttemptAt: new Date(clock.now().getTime() + 5 * SECOND),
    });
    clock.advance(5 * SECOND);
    expect(await running.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    await running.stop();
    expect(target.received.map((delivery) => delivery.attempt)).toEqual([1, 2]);
  });

  it('a crash after sending, before recording: the same attempt is sent again after the lease (at least once), and the receiver dedupes it', async () => {
    const clock = freshClock();
    const processed = new Set<string>();
    const target = await receiver(clock, (delivery) => {
      processed.add(delivery.paymentId); // the receiver's dedupe by X-Rail-PaymentId
      return 200;
    });
    const leaseMs = 60 * SECOND;
    const realStore = createCallbackStore(handle.db);
    // 1. The first worker sends, then "dies" before its record reaches the database.
    const crashing: CallbackStore = { ...realStore, recordAttempt: () => Promise.reject(new Error('process killed')) };
    const doomed = worker(clock, { store: crashing, leaseMs });
    const { railPaymentId } = await enqueuePayment(realStore, clock, target.url);
    expect(await doomed.worker.runOnce()).toMatchObject({ claimed: 1, unrecorded: 1 });
    expect(target.received).toHaveLength(1);
    // 2. A restarted worker finds the row leased: nothing is sent while the lease holds.
    const restarted = worker(clock, { leaseMs });
    clock.advance(leaseMs - 1);
    expect(await restarted.worker.runOnce()).toMatchObject({ claimed: 0 });
    // 3. Once the lease has run out, the same attempt (1) is sent again and recorded.
    clock.advance(1);
    expect(await restarted.worker.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    await restarted.worker.stop();
    await doomed.worker.stop();
    expect(target.received.map((delivery) => [delivery.paymentId, delivery.attempt])).toEqual([
      [railPaymentId, 1],
      [railPaymentId, 1],
    ]);
    expect(target.received[1]!.rawBody.equals(target.received[0]!.rawBody)).toBe(true);
    expect(target.received[1]!.signature).toBe(target.received[0]!.signature);
    expect(processed.size).toBe(1);
    expect(await realStore.findByPayment(railPaymentId)).toMatchObject({ state: 'DELIVERED', attempt: 1 });
  });

  it('refuses loopback targets unless allowed: nothing is sent and the callback is FAILED', async () => {
    const clock = freshClock();
    const target = await receiver(clock, () => 200);
    const { store, worker: strict } = worker(clock, { allowPrivateTargets: false });
    const byIp = await enqueuePayment(store, clock, target.url);
    const byName = await enqueuePayment(store, clock, target.url.replace('127.0.0.1', 'localhost'));
    expect(await strict.runOnce()).toMatchObject({ claimed: 2, failed: 2 });
    await strict.stop();
    expect(target.received).toEqual([]);
    expect(await store.findByPayment(byIp.railPaymentId)).toMatchObject({ state: 'FAILED', attempt: 1, lastError: 'target refused: non-public address' });
    expect(await store.findByPayment(byName.railPaymentId)).toMatchObject({ state: 'FAILED', attempt: 1, lastError: 'target refused: host resolves to a non-public address' });
  });

  it('a refused connection is a network error, retried', async () => {
    const clock = freshClock();
    const closed = await startCallbackReceiver(clock, () => 200);
    await closed.close(); // nothing listens on its port any more
    const { store, worker: running } = worker(clock);
    const { railPaymentId } = await enqueuePayment(store, clock, closed.url);
    expect(await running.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    await running.stop();
    expect(await store.findByPayment(railPaymentId)).toMatchObject({ state: 'PENDING', attempt: 1, lastError: 'network error: ECONNREFUSED' });
  });

  it('runs never overlap: runOnce during a run returns that run; start/stop runs the loop and stops it', async () => {
    const clock = freshClock();
    const target = await receiver(clock, () => 200);
    const realStore = createCallbackStore(handle.db);
    let inFlight = 0;
    let maxInFlight = 0;
    let claims = 0;
    const counting: CallbackStore = {
      ...realStore,
      async claimDue(...args) {
        claims += 1;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await realStore.claimDue(...args);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const { worker: running } = worker(clock, { store: counting });
    await enqueuePayment(realStore, clock, target.url);
    const [a, b] = [running.runOnce(), running.runOnce()];
    expect(a).toBe(b);
    await a;
    expect(claims).toBe(1);

    await enqueuePayment(realStore, clock, target.url);
    running.start(5);
    running.start(5); // a second start is ignored
    await expect.poll(() => target.received.length, { timeout: 10_000 }).toBe(2);
    await running.stop();
    const claimsAtStop = claims;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(claims).toBe(claimsAtStop);
    expect(maxInFlight).toBe(1);
  });
});

// Two workers, each with its own connection pool, on one PostgreSQL schema, running at once.
describe.runIf(process.env.DATABASE_URL)('two payment callback workers on PostgreSQL', () => {
  const databaseUrl = process.env.DATABASE_URL ?? '';
  const schemaName = `t_cb_${process.pid}_${Date.now().toString(36)}`;
  let handles: DatabaseHandle[] = [];
  beforeAll(async () => {
    // One after the other: the second open finds the migrations applied.
    handles = [await openDatabase({ databaseUrl, schemaName, poolSize: 4 }), await openDatabase({ databaseUrl, schemaName, poolSize: 4 })];
  });
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    await dropSchema(databaseUrl, schemaName);
  });

  it('never send the same attempt: 40 callbacks, first attempts failing, each (payment, attempt) delivered exactly once', async () => {
    const clock = new ManualClock(TEST_NOW);
    // Attempt 1 of every payment fails, attempt 2 succeeds.
    const target = await startCallbackReceiver(clock, (delivery) => (delivery.attempt === 1 ? 500 : 200));
    try {
      const stores = handles.map((handle) => createCallbackStore(handle.db));
      const workers = stores.map((store, index) =>
        createCallbackWorker({ store, clock, signingKey: TEST_WEBHOOK_KEY, timeoutMs: 5000, logger, workerId: `worker-${index}`, allowPrivateTargets: true, batchSize: 3 }),
      );
      const ids = Array.from({ length: 40 }, () => newPaymentId());
      for (const railPaymentId of ids) {
        await stores[0]!.enqueue(handles[0]!.db, { railPaymentId, url: target.url, body: JSON.stringify(samplePaymentResult(railPaymentId)) }, clock.now());
      }
      /** Each worker runs until a run claims nothing; both at once. */
      const drain = async (running: (typeof workers)[number]) => {
        let claimed = 0;
        for (;;) {
          const summary = await running.runOnce();
          if (summary.claimed === 0) return claimed;
          claimed += summary.claimed;
        }
      };
      const firstRound = await Promise.all(workers.map(drain));
      clock.advance(5 * SECOND);
      const secondRound = await Promise.all(workers.map(drain));
      await Promise.all(workers.map((running) => running.stop()));

      // 40 payments x 2 attempts, each claimed by one worker and delivered once.
      expect(firstRound[0]! + firstRound[1]!).toBe(40);
      expect(secondRound[0]! + secondRound[1]!).toBe(40);
      const counts = deliveriesPerAttempt(target.received);
      expect(counts.size).toBe(80);
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
      for (const railPaymentId of ids) {
        expect(counts.get(`${railPaymentId}#1`)).toBe(1);
        expect(counts.get(`${railPaymentId}#2`)).toBe(1);
        expect(await stores[1]!.findByPayment(railPaymentId)).toMatchObject({ state: 'DELIVERED', attempt: 2 });
      }
    } finally {
      await target.close();
    }
  });
});

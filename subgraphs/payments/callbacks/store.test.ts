import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentCallbacks } from '../../../drizzle/schema.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { createCallbackStore } from './store.js';

const T0 = new Date(TEST_NOW);
const at = (ms: number) => new Date(T0.getTime() + ms);
let counter = 0;
const paymentId = () => `rp_store_${process.pid}_${(counter += 1)}`;
const callbackFor = (railPaymentId: string) => ({ railPaymentId, url: 'https://tms.example.com/hooks/rail', body: JSON.stringify({ railPaymentId }) });

// One conformance suite, run once per driver (PGlite always; PostgreSQL when DATABASE_URL is set).
describe.each(testDatabases())('payment callback store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it("enqueue is part of the caller's transaction: rolled back with it, committed with it", async () => {
    const store = createCallbackStore(handle.db);
    const [rolledBack, committed] = [paymentId(), paymentId()];
    await expect(
      handle.db.transaction(async (tx) => {
        await store.enqueue(tx, callbackFor(rolledBack), T0);
        throw new Error('the payment write failed');
      }),
    ).rejects.toThrow('the payment write failed');
    expect(await store.findByPayment(rolledBack)).toBeUndefined();

    await handle.db.transaction(async (tx) => {
      await store.enqueue(tx, callbackFor(committed), T0);
    });
    expect(await store.findByPayment(committed)).toMatchObject({
      railPaymentId: committed,
      body: JSON.stringify({ railPaymentId: committed }),
      attempt: 0,
      state: 'PENDING',
      nextAttemptAt: T0,
      createdAt: T0,
      claimedBy: null,
      deliveredAt: null,
    });
  });

  it('one callback per payment: a second enqueue keeps the first and answers its id', async () => {
    const store = createCallbackStore(handle.db);
    const id = paymentId();
    const first = await store.enqueue(handle.db, callbackFor(id), T0);
    const second = await store.enqueue(handle.db, { ...callbackFor(id), body: '{"other":true}' }, at(1000));
    expect(first.enqueued).toBe(true);
    expect(second).toEqual({ id: first.id, enqueued: false });
    expect((await store.findByPayment(id))?.body).toBe(JSON.stringify({ railPaymentId: id }));
  });

  it.each(['ftp://example.com/x', 'javascript:alert(1)', 'https://user:secret@example.com/', 'not a url'])('refuses to enqueue %s', async (url) => {
    const store = createCallbackStore(handle.db);
    await expect(store.enqueue(handle.db, { ...callbackFor(paymentId()), url }, T0)).rejects.toThrow(RangeError);
  });

  it('claims a due row once: a second claim while the lease holds gets nothing; after it runs out, another worker gets it', async () => {
    // A clock of its own, far from other tests' rows: only this test's row is due.
    const base = new Date('2031-01-01T00:00:00.000Z');
    const store = createCallbackStore(handle.db);
    const id = paymentId();
    await store.enqueue(handle.db, callbackFor(id), base);
    const mine = <Row extends { railPaymentId: string }>(rows: Row[]) => rows.filter((row) => row.railPaymentId === id);

    const first = mine(await store.claimDue(base, 'worker-a', 1000, 60_000));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ claimedBy: 'worker-a', claimedUntil: new Date(base.getTime() + 60_000) });
    expect(mine(await store.claimDue(new Date(base.getTime() + 59_999), 'worker-b', 1000, 60_000))).toEqual([]);
    const taken = mine(await store.claimDue(new Date(base.getTime() + 60_000), 'worker-b', 1000, 60_000));
    expect(taken.map((row) => row.claimedBy)).toEqual(['worker-b']);
    // worker-a lost the row: its late record writes nothing; worker-b's is recorded.
    expect(await store.recordAttempt(first[0]!.id, 'worker-a', { kind: 'response', status: 200 }, new Date(base.getTime() + 60_001))).toEqual({ recorded: false });
    const recorded = await store.recordAttempt(first[0]!.id, 'worker-b', { kind: 'response', status: 200 }, new Date(base.getTime() + 60_001));
    expect(recorded).toMatchObject({ recorded: true, step: { state: 'DELIVERED', attemptsMade: 1 } });
    expect(await store.findByPayment(id)).toMatchObject({ state: 'DELIVERED', attempt: 1, lastStatus: 200, claimedBy: null, claimedUntil: null, deliveredAt: new Date(base.getTime() + 60_001) });
  });

  it('does not record past the lease, nor for a worker that never claimed the row', async () => {
    const base = new Date('2032-01-01T00:00:00.000Z');
    const store = createCallbackStore(handle.db);
    const id = paymentId();
    const { id: callbackId } = await store.enqueue(handle.db, callbackFor(id), base);
    await store.claimDue(base, 'worker-a', 1000, 10_000);
    const outcome = { kind: 'response', status: 500 } as const;
    expect(await store.recordAttempt(callbackId, 'worker-z', outcome, base)).toEqual({ recorded: false });
    expect(await store.recordAttempt(callbackId, 'worker-a', outcome, new Date(base.getTime() + 10_000))).toEqual({ recorded: false });
    expect(await store.findByPayment(id)).toMatchObject({ attempt: 0, state: 'PENDING', lastStatus: null });
  });

  it('a retry is due on the schedule and the row is claimable again at that time, not before', async () => {
    const base = new Date('2033-01-01T00:00:00.000Z');
    const store = createCallbackStore(handle.db);
    const id = paymentId();
    const { id: callbackId } = await store.enqueue(handle.db, callbackFor(id), base);
    await store.claimDue(base, 'worker-a', 1000, 10_000);
    await store.recordAttempt(callbackId, 'worker-a', { kind: 'network-error', message: 'ECONNREFUSED' }, base);
    const [row] = await handle.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.id, callbackId));
    // attempt 0 failed at base -> attempt 1 due at base + 5 000 ms
    expect(row).toMatchObject({ attempt: 1, state: 'PENDING', nextAttemptAt: new Date(base.getTime() + 5_000), lastStatus: null, lastError: 'network error: ECONNREFUSED', claimedBy: null });
    const mine = (rows: Array<{ id: string }>) => rows.filter((claimed) => claimed.id === callbackId);
    expect(mine(await store.claimDue(new Date(base.getTime() + 4_999), 'worker-a', 1000, 10_000))).toEqual([]);
    expect(mine(await store.claimDue(new Date(base.getTime() + 5_000), 'worker-a', 1000, 10_000))).toHaveLength(1);
  });

  it('claims at most `limit` rows, oldest due first', async () => {
    const base = new Date('2034-01-01T00:00:00.000Z');
    const store = createCallbackStore(handle.db);
    // Earlier tests' rows are leased away for ten years first: only this test's rows are free.
    await store.claimDue(new Date(base.getTime() + 2000), 'sweeper', 100_000, 10 * 365 * 86_400_000);
    const ids = [paymentId(), paymentId(), paymentId()];
    // Enqueued newest first: due at base+2 s, base+1 s, base.
    for (const [index, id] of ids.entries()) await store.enqueue(handle.db, callbackFor(id), new Date(base.getTime() + (2 - index) * 1000));
    const claimed = await store.claimDue(new Date(base.getTime() + 2000), 'worker-a', 2, 10_000);
    expect(claimed.map((row) => row.railPaymentId)).toEqual([ids[2], ids[1]]);
  });
});

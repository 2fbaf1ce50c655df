import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../drizzle/schema.js';
import { TEST_NOW, testDatabases } from '../test/helpers.js';
import { canonicalSha256 } from './canonical-json.js';
import { ManualClock } from './clock.js';
import type { DatabaseHandle } from './db.js';
import { AppError } from './errors.js';
import { createIdempotency, type Idempotency, readIdempotencyKey } from './idempotency.js';

// Idempotency-Key (decision 0048) on PGlite, and on PostgreSQL when DATABASE_URL is set.

describe.each(testDatabases())('idempotency keys on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let idempotency: Idempotency;
  const clock = new ManualClock(TEST_NOW);
  let scope = 0;
  const nextScope = () => `test:${(scope += 1)}`;

  beforeAll(async () => {
    handle = await testDatabase.open();
    idempotency = createIdempotency(handle.db, { clock, waitMs: 5_000, staleAfterMs: 60_000 });
  });
  afterAll(async () => testDatabase.dispose(handle));

  /** Work that counts its runs and answers its run number, after `delayMs`. */
  function counted(delayMs = 0) {
    const runs = { count: 0 };
    const work = async () => {
      runs.count += 1;
      const run = runs.count;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { statusCode: 201, body: { run } };
    };
    return { runs, work };
  }

  it('the same key and body answer the first answer without running again; another body is 409', async () => {
    const where = nextScope();
    const { runs, work } = counted();
    const first = await idempotency.once(where, 'k1', { amount: 1, memo: undefined }, work);
    // An omitted member and an undefined one are the same request, as on the wire.
    const again = await idempotency.once(where, 'k1', { amount: 1 }, work);
    expect([first, again]).toEqual([
      { statusCode: 201, body: { run: 1 } },
      { statusCode: 201, body: { run: 1 } },
    ]);
    expect(runs.count).toBe(1);
    await expect(idempotency.once(where, 'k1', { amount: 2 }, work)).rejects.toMatchObject({ code: 'GEN_ERR_IDEMPOTENCY_CONFLICT', status: 409 });
    // Another scope (another agent or route) is another key.
    expect(await idempotency.once(nextScope(), 'k1', { amount: 2 }, work)).toEqual({ statusCode: 201, body: { run: 2 } });
  });

  it('concurrent requests with one key run the work once and all get its answer', async () => {
    const where = nextScope();
    const { runs, work } = counted(150);
    const answers = await Promise.all(Array.from({ length: 12 }, () => idempotency.once(where, 'k2', { amount: 7 }, work)));
    expect(runs.count).toBe(1);
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(new Set([JSON.stringify({ statusCode: 201, body: { run: 1 } })]));
  });

  it('a failed run gives its key back: the error is not kept, a retry runs again', async () => {
    const where = nextScope();
    await expect(idempotency.once(where, 'k3', { a: 1 }, async () => Promise.reject(new AppError('PAY_ERR_INSUFFICIENT_FUNDS')))).rejects.toMatchObject({ code: 'PAY_ERR_INSUFFICIENT_FUNDS' });
    const { runs, work } = counted();
    expect(await idempotency.once(where, 'k3', { a: 1 }, work)).toEqual({ statusCode: 201, body: { run: 1 } });
    expect(runs.count).toBe(1);
  });

  it('a run abandoned by a dead process is taken over once it is stale; before that a retry waits, then is 409 in progress', async () => {
    const where = nextScope();
    await handle.db.insert(idempotencyKeys).values({ scope: where, key: 'k4', requestSha256: 'not-this-request', state: 'RUNNING', createdAt: clock.now(), updatedAt: clock.now() });
    await expect(idempotency.once(where, 'k4', { b: 1 }, counted().work)).rejects.toMatchObject({ code: 'GEN_ERR_IDEMPOTENCY_CONFLICT' });
    const impatient = createIdempotency(handle.db, { clock, waitMs: 50, staleAfterMs: 60_000 });
    const sha = canonicalSha256({ b: 1 });
    await handle.db.insert(idempotencyKeys).values({ scope: where, key: 'k5', requestSha256: sha, state: 'RUNNING', createdAt: clock.now(), updatedAt: clock.now() });
    await expect(impatient.once(where, 'k5', { b: 1 }, counted().work)).rejects.toMatchObject({ code: 'GEN_ERR_IDEMPOTENCY_IN_PROGRESS', retryAfterSeconds: 1 });
    clock.advance(60_001);
    const { runs, work } = counted();
    expect(await impatient.once(where, 'k5', { b: 1 }, work)).toEqual({ statusCode: 201, body: { run: 1 } });
    expect(runs.count).toBe(1);
    clock.advance(-60_001);
  });

  it.each([[''], ['has space'], ['x'.repeat(256)], ['caf\u00e9']])('a malformed Idempotency-Key %j is 400', (key) => {
    expect(() => readIdempotencyKey(key)).toThrow(expect.objectContaining({ code: 'GEN_ERR_BAD_REQUEST' }));
  });
});

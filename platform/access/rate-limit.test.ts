import { createServer, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loggedDatabase, openTestPglite, testConfig, testDatabases } from '../../test/helpers.js';
import { ManualClock } from '../clock.js';
import type { DatabaseHandle } from '../db.js';
import { AppError, InfrastructureError } from '../errors.js';
import { createHttpServer, genericErrorBody } from '../http.js';
import { sequentialIds } from '../ids.js';
import { createLogger } from '../log.js';
import { startTcpProxy } from '../testing/tcp-proxy.js';
import { type ApiKeys, createApiKeys } from './api-keys.js';
import { coalesceHits, createDatabaseRateLimitStore, createRedisRateLimitStore, type RateLimitStore, rateLimitStoreFor } from './rate-limit.js';
import { requireKey } from './require-key.js';

/** The Redis every machine of the project runs (and CI); each run keeps its keys under a prefix of its own. */
const REDIS_URL = 'redis://127.0.0.1:6379';
const WINDOW_MS = 60_000;
const silent = createLogger({ logLevel: 'silent' });

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'info', destination }) };
}

describe.each(testDatabases())('the database rate-limit store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it('counts 50 concurrent hits of one window as exactly 1..50, and each window and key apart', async () => {
    const store = createDatabaseRateLimitStore(handle.db);
    const window = new Date('2026-11-22T12:30:00.000Z');
    const counts = await Promise.all(Array.from({ length: 50 }, () => store.hit('key_db_concurrent', window, WINDOW_MS)));
    expect(counts.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(await store.hit('key_db_concurrent', new Date(window.getTime() + WINDOW_MS), WINDOW_MS)).toBe(1);
    expect(await store.hit('key_db_other', window, WINDOW_MS)).toBe(1);
  });
});

describe('the Redis rate-limit store (127.0.0.1:6379)', () => {
  const keyPrefix = `ratelimit-test:${process.pid}:${Date.now().toString(36)}:`;
  const stores: RateLimitStore[] = [];
  let admin: Redis;
  let database: DatabaseHandle;

  /** A store under this run's prefix, closed after the suite. */
  function redisStore(options: { url?: string; timeoutMs?: number; logger?: ReturnType<typeof createLogger> } = {}): RateLimitStore {
    const store = createRedisRateLimitStore({ url: options.url ?? REDIS_URL, keyPrefix, logger: options.logger ?? silent, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
    stores.push(store);
    return store;
  }

  function appFor(keys: ApiKeys, clock: ManualClock) {
    const app = createHttpServer({ logger: silent, clock });
    app.get('/protected', { preHandler: requireKey(keys, 'api') }, async () => ({ ok: true }));
    return app;
  }

  beforeAll(async () => {
    admin = new Redis(REDIS_URL, { connectTimeout: 2000, commandTimeout: 2000, maxRetriesPerRequest: 1 });
    database = await openTestPglite();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    const ours = await admin.keys(`${keyPrefix}*`);
    if (ours.length > 0) await admin.del(...ours);
    expect(await admin.keys(`${keyPrefix}*`)).toEqual([]);
    await admin.quit();
    await database.close();
  });

  it('counts with INCR under <prefix><keyId>:<window start ms>, expiring within one window, each window and key apart', async () => {
    const store = redisStore();
    const window = new Date('2026-11-22T12:10:00.000Z');
    expect(await store.hit('key_a', window, WINDOW_MS)).toBe(1);
    expect(await store.hit('key_a', window, WINDOW_MS)).toBe(2);
    expect(await store.hit('key_a', new Date(window.getTime() + WINDOW_MS), WINDOW_MS)).toBe(1);
    expect(await store.hit('key_b', window, WINDOW_MS)).toBe(1);
    const key = `${keyPrefix}key_a:${window.getTime()}`;
    expect(await admin.get(key)).toBe('2');
    const ttl = await admin.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
  });

  it('admits exactly 20 of 50 concurrent requests on a key limited to 20, counted by two clients as two replicas would', async () => {
    const clock = new ManualClock('2026-11-22T12:20:15.000Z');
    const [first, second] = [redisStore(), redisStore()];
    const ids = sequentialIds(1000);
    const keysOnFirst = createApiKeys({ db: database.db, clock, ids, rateLimits: first });
    const keysOnSecond = createApiKeys({ db: database.db, clock, ids, rateLimits: second });
    const { record, key } = await keysOnFirst.create('api', 'busy agent', 20);
    const admitted = await Promise.all(Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? keysOnFirst : keysOnSecond).admit('api', key)));
    const states = admitted.map((entry) => entry!.state);
    expect(states.filter((state) => !state.exceeded)).toHaveLength(20);
    expect(states.filter((state) => state.exceeded)).toHaveLength(30);
    // Every admitted request saw its own count: remaining 19, 18, ... 0 once each.
    expect(
      states
        .filter((state) => !state.exceeded)
        .map((state) => state.remaining)
        .toSorted((a, b) => a - b),
    ).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(states.every((state) => state.limit === 20 && state.resetSeconds === 45)).toBe(true);
    expect(await admin.get(`${keyPrefix}${record.id}:${Date.parse('2026-11-22T12:20:00.000Z')}`)).toBe('50');
  });

  it('looks keys up in the database then counts in Redis: concurrent admissions of one key share one read, a revocation is seen by the next', async () => {
    const clock = new ManualClock('2026-11-22T12:30:00.000Z');
    const { db, statements } = loggedDatabase(database);
    const keys = createApiKeys({ db, clock, ids: sequentialIds(4000), rateLimits: redisStore() });
    const { record, key } = await keys.create('api', 'shared lookups', 10);
    statements.length = 0;
    const admitted = await Promise.all(Array.from({ length: 10 }, () => keys.admit('api', key)));
    expect(admitted.map((entry) => entry?.state.remaining).toSorted((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // One read of api_keys for the ten, and nothing counted in the database.
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('from "api_keys"');
    expect(await admin.get(`${keyPrefix}${record.id}:${clock.now().getTime()}`)).toBe('10');
    await keys.revoke(record.id);
    expect(await keys.admit('api', key)).toBeNull();
    expect(await admin.get(`${keyPrefix}${record.id}:${clock.now().getTime()}`)).toBe('10');
  });

  it('answers with the same X-RateLimit-* headers and 429 as the database store', async () => {
    const clock = new ManualClock('2026-11-22T12:40:15.000Z');
    const keys = createApiKeys({ db: database.db, clock, ids: sequentialIds(2000), rateLimits: redisStore() });
    const { key } = await keys.create('api', 'dashboard', 2);
    const app = appFor(keys, clock);
    const ask = () => app.inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } });
    const admitted = await ask();
    expect(admitted.statusCode).toBe(200);
    expect(admitted.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '45' });
    expect((await ask()).statusCode).toBe(200);
    const over = await ask();
    expect(over.statusCode).toBe(429);
    expect(over.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '45', 'retry-after': '45' });
    expect(over.json()).toEqual(genericErrorBody(new AppError('GEN_ERR_RATE_LIMITED')));
    clock.set('2026-11-22T12:41:00.000Z');
    const next = await ask();
    expect(next.statusCode).toBe(200);
    expect(next.headers).toMatchObject({ 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '60' });
  });

  it('finding: a Redis that is down (127.0.0.1:1) fails the count at once with an InfrastructureError, answered 503 GEN_ERR_UNAVAILABLE, logged once', async () => {
    const { lines, logger } = capture();
    const store = redisStore({ url: 'redis://127.0.0.1:1', logger });
    const window = new Date('2026-11-22T12:50:00.000Z');
    await expect(store.hit('key_down', window, WINDOW_MS)).rejects.toBeInstanceOf(InfrastructureError);
    // Now reconnecting in the background: the next count fails without waiting for it.
    await expect(store.hit('key_down', window, WINDOW_MS)).rejects.toThrow(/count a request in Redis failed/);

    const clock = new ManualClock('2026-11-22T12:50:00.000Z');
    const keys = createApiKeys({ db: database.db, clock, ids: sequentialIds(3000), rateLimits: store });
    const { key } = await keys.create('api', 'during an outage', 10);
    const response = await appFor(keys, clock).inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual(genericErrorBody(new AppError('GEN_ERR_UNAVAILABLE')));
    expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect(JSON.stringify(response.json())).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|Redis/);
    expect(lines.filter((line) => line.includes('rate-limit Redis unreachable'))).toHaveLength(1);
  });

  it('finding: a Redis that accepts the connection and never answers fails the count within its bound instead of hanging', async () => {
    const sockets = new Set<Socket>();
    const silentServer = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silentServer.address() as { port: number }).port;
      const store = redisStore({ url: `redis://127.0.0.1:${port}`, timeoutMs: 300 });
      await expect(store.hit('key_silent', new Date('2026-11-22T12:55:00.000Z'), WINDOW_MS)).rejects.toThrow(/count a request in Redis/);
      await store.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silentServer.close(() => resolve()));
    }
  });

  it('fails fast while its connection is cut, and counts on where it left off once Redis is back', async () => {
    const proxy = await startTcpProxy(6379);
    try {
      const store = redisStore({ url: `redis://127.0.0.1:${proxy.port}` });
      const window = new Date('2026-11-22T13:00:00.000Z');
      expect(await store.hit('key_cut', window, WINDOW_MS)).toBe(1);
      await proxy.stop();
      await expect(store.hit('key_cut', window, WINDOW_MS)).rejects.toBeInstanceOf(InfrastructureError);
      await proxy.start();
      // The client reconnects in the background (backing off up to 2 s); until then counts fail.
      const count = await vi.waitFor(() => store.hit('key_cut', window, WINDOW_MS), { timeout: 10_000, interval: 100 });
      expect(count).toBeGreaterThanOrEqual(2);
    } finally {
      await proxy.close();
    }
  });

  it('rateLimitStoreFor: Redis when REDIS_URL is set, the database otherwise', async () => {
    const inDatabase = rateLimitStoreFor(testConfig(), database.db, silent);
    expect(inDatabase.kind).toBe('database');
    expect(await inDatabase.hit('key_factory_db', new Date('2026-11-22T13:10:00.000Z'), WINDOW_MS)).toBe(1);
    await inDatabase.close();
    const inRedis = rateLimitStoreFor(testConfig({ REDIS_URL }), database.db, silent);
    try {
      expect(inRedis.kind).toBe('redis');
      const window = new Date('2026-11-22T13:10:00.000Z');
      expect(await inRedis.hit(`key_factory_${process.pid}_${Date.now()}`, window, WINDOW_MS)).toBe(1);
    } finally {
      await inRedis.close();
      // The factory uses the production prefix: remove what this test counted there.
      const counted = await admin.keys(`ratelimit:key_factory_${process.pid}_*`);
      if (counted.length > 0) await admin.del(...counted);
    }
  });
});

describe('the server counts in Redis when REDIS_URL is set', () => {
  it('a paid request with an API key leaves its window in Redis, not in the database', async () => {
    const { startTestServer } = await import('../../test/helpers.js');
    const server = await startTestServer({ subgraphs: ['intelligence'], environment: { REDIS_URL } });
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      const { key, record } = await server.platform!.access.keys.create('api', 'wiring check', 5);
      const response = await server.app.inject({ method: 'GET', url: '/reports/report/climate', headers: { 'x-api-key': key } });
      expect(response.headers['x-ratelimit-remaining']).toBe('4');
      await redis.connect();
      const windows = await redis.keys(`ratelimit:${record.id}:*`);
      expect(windows).toHaveLength(1);
      expect(await redis.get(windows[0]!)).toBe('1');
      await redis.del(...windows);
    } finally {
      redis.disconnect();
      await server.close();
    }
  }, 60_000);
});

describe('hits of one key coalesced while a count is at the store (decision 0039)', () => {
  /** A store whose counts answer when the test says: each call recorded with its increment. */
  function heldStore() {
    const calls: { keyId: string; requests: number; answer(): void; fail(error: Error): void }[] = [];
    const totals = new Map<string, number>();
    const store: RateLimitStore = {
      kind: 'database',
      hit: (keyId, windowStart, _windowMs, requests = 1) =>
        new Promise<number>((resolve, reject) => {
          calls.push({
            keyId,
            requests,
            answer: () => {
              const window = `${keyId}@${windowStart.toISOString()}`;
              const total = (totals.get(window) ?? 0) + requests;
              totals.set(window, total);
              resolve(total);
            },
            fail: reject,
          });
        }),
      close: async () => {},
    };
    return { calls, store };
  }
  const window = new Date('2026-11-25T03:00:00.000Z');
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('sends the first hit at once, the 10 that came meanwhile as one increment of 10, each with its exact place', async () => {
    const { calls, store } = heldStore();
    const coalesced = coalesceHits(store);
    const first = coalesced.hit('key_a', window, WINDOW_MS);
    const rest = Array.from({ length: 10 }, () => coalesced.hit('key_a', window, WINDOW_MS));
    // 1. Only the first is at the store; the other ten wait for it.
    expect(calls.map((call) => call.requests)).toEqual([1]);
    calls[0]!.answer();
    expect(await first).toBe(1);
    await settle();
    // 2. The ten go together: the store adds 10 (1 + 10 = 11) and each learns 2..11 in arrival order.
    expect(calls.map((call) => call.requests)).toEqual([1, 10]);
    calls[1]!.answer();
    expect(await Promise.all(rest)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('keeps keys and windows apart, and a failed count fails only its own hits', async () => {
    const { calls, store } = heldStore();
    const coalesced = coalesceHits(store);
    const a = coalesced.hit('key_a', window, WINDOW_MS);
    const b = coalesced.hit('key_b', window, WINDOW_MS);
    const nextWindow = coalesced.hit('key_a', new Date(window.getTime() + WINDOW_MS), WINDOW_MS);
    expect(calls.map((call) => call.keyId)).toEqual(['key_a', 'key_b', 'key_a']);
    const waiting = coalesced.hit('key_a', window, WINDOW_MS);
    calls[0]!.fail(new InfrastructureError('count a request', new Error('down')));
    await expect(a).rejects.toBeInstanceOf(InfrastructureError);
    await settle();
    calls[3]!.answer();
    expect(await waiting).toBe(1);
    calls[1]!.answer();
    calls[2]!.answer();
    expect([await b, await nextWindow]).toEqual([1, 1]);
  });
});

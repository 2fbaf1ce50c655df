import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import type { DatabaseHandle } from '../db.js';
import { AppError } from '../errors.js';
import { sequentialIds } from '../ids.js';
import { createHttpServer, genericErrorBody } from '../http.js';
import { apiKeys } from '../../drizzle/schema.js';
import { createLogger } from '../log.js';
import { loggedDatabase, TEST_NOW, testDatabases } from '../../test/helpers.js';
import { createApiKeys, type ApiKeys } from './api-keys.js';
import { requireKey } from './require-key.js';

describe.each(testDatabases())('API keys on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let keys: ApiKeys;
  const clock = new ManualClock(TEST_NOW);
  beforeAll(async () => {
    handle = await testDatabase.open();
    keys = createApiKeys({ db: handle.db, clock, ids: sequentialIds() });
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  function appFor(kind: 'api' | 'bearer') {
    const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock });
    app.get('/protected', { preHandler: requireKey(keys, kind) }, async () => ({ ok: true }));
    return app;
  }

  it('stores only a hash, and admits a valid key with the rate-limit headers', async () => {
    const { record, key } = await keys.create('api', 'treasury dashboard', 3);
    const stored = await handle.db.select().from(apiKeys);
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(key.slice(4));
    expect(stored.find((row) => row.id === record.id)?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    const app = appFor('api');
    const response = await app.inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '60' });
    expect(record.kind).toBe('api');
  });

  it('refuses a missing, unknown, revoked or wrong-kind key with 401 in the error shape', async () => {
    const { record, key } = await keys.create('api', 'to revoke');
    const bearer = await keys.create('bearer', 'an institution');
    const app = appFor('api');
    await keys.revoke(record.id);
    for (const headers of [{}, { 'x-api-key': 'srk_unknown' }, { 'x-api-key': key }, { 'x-api-key': bearer.key }]) {
      const response = await app.inject({ method: 'GET', url: '/protected', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(genericErrorBody(new AppError('GEN_ERR_UNAUTHORIZED')));
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(await keys.revoke(record.id)).toBe(false);
  });

  it('lets concurrent lookups of one key share one read, and reads again once it returned (a revocation is seen at once)', async () => {
    const { record, key } = await keys.create('api', 'shared lookups');
    const { db, statements } = loggedDatabase(handle);
    const counted = createApiKeys({ db, clock, ids: sequentialIds() });
    const keyReads = () => statements.filter((statement) => statement.includes('from "api_keys"')).length;
    const found = await Promise.all(Array.from({ length: 10 }, () => counted.authenticate('api', key)));
    expect(found.map((entry) => entry?.id)).toEqual(Array.from({ length: 10 }, () => record.id));
    expect(keyReads()).toBe(1);
    await keys.revoke(record.id);
    expect(await counted.authenticate('api', key)).toBeNull();
    expect(keyReads()).toBe(2);
  });

  it('takes institution keys as Authorization: Bearer', async () => {
    const { key } = await keys.create('bearer', 'bank');
    const app = appFor('bearer');
    expect((await app.inject({ method: 'GET', url: '/protected', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
  });

  it('counts every request of a minute exactly once under concurrency, answers 429 with Reset over the limit, and starts afresh the next minute', async () => {
    clock.set('2026-11-22T12:10:15.000Z');
    const { key } = await keys.create('api', 'busy agent', 5);
    const app = appFor('api');
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => app.inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } })))).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    const over = await app.inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } });
    expect(over.statusCode).toBe(429);
    expect(over.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '45', 'retry-after': '45' });
    expect(over.json()).toMatchObject({ code: 'GEN_ERR_RATE_LIMITED' });
    clock.set('2026-11-22T12:11:00.000Z');
    expect((await app.inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } })).statusCode).toBe(200);
  });

  it('holds one limit for two servers sharing the database', async () => {
    clock.set('2026-11-22T12:20:00.000Z');
    const { key } = await keys.create('api', 'two replicas', 4);
    const [first, second] = [appFor('api'), appFor('api')];
    const statuses: number[] = [];
    for (const app of [first, second, first, second, first, second]) statuses.push((await app.inject({ method: 'GET', url: '/protected', headers: { 'x-api-key': key } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

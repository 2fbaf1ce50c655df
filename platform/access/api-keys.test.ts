import { eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, rateLimitWindows } from '../../drizzle/schema.js';
import { loggedDatabase, TEST_NOW, testDatabases } from '../../test/helpers.js';
import { ManualClock } from '../clock.js';
import type { DatabaseHandle } from '../db.js';
import { AppError } from '../errors.js';
import { createHttpServer, genericErrorBody } from '../http.js';
import { sequentialIds } from '../ids.js';
import { createLogger } from '../log.js';
import { createRequestContext } from '../request-context.js';
import { admitInstitution, tenantOf } from './admission.js';
import { type ApiKeys, createApiKeys, UnknownInstitution } from './api-keys.js';
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

  it('a bearer key founds an institution or joins one; an API key has none; the admission gives the tenant (decision 0050)', async () => {
    const founder = await keys.create('bearer', 'Example Bank');
    const institutionId = founder.record.institutionId!;
    expect(institutionId).toMatch(/^inst_/);
    expect((await keys.institutions()).find((institution) => institution.id === institutionId)).toEqual({ id: institutionId, name: 'Example Bank', createdAt: clock.now() });
    const joined = await keys.create('bearer', 'Example Bank hub', 10, { institutionId });
    expect(joined.record.institutionId).toBe(institutionId);
    await expect(keys.create('bearer', 'Typo Bank', 10, { institutionId: 'inst_nosuch' })).rejects.toBeInstanceOf(UnknownInstitution);
    await expect(keys.create('api', 'dashboard', 10, { institutionId })).rejects.toBeInstanceOf(RangeError);
    expect((await keys.create('api', 'dashboard')).record.institutionId).toBeNull();
    const ADMIN_KEY = 'admin-key-of-this-test-0123456789abcdef';
    const contextOf = (bearer: string) => createRequestContext({ authorization: `Bearer ${bearer}` }, clock);
    const asJoined = contextOf(joined.key);
    expect((await admitInstitution(keys, ADMIN_KEY, asJoined)).tenant).toEqual({ kind: 'institution', institutionId });
    expect(tenantOf(asJoined)).toEqual({ kind: 'institution', institutionId });
    const asAdmin = contextOf(ADMIN_KEY);
    expect(await admitInstitution(keys, ADMIN_KEY, asAdmin)).toEqual({ headers: {}, tenant: { kind: 'admin' } });
    // Without ADMIN_KEY configured nothing is the admin; a key of another kind is no institution.
    for (const refused of [await admitInstitution(keys, undefined, contextOf(ADMIN_KEY)), await admitInstitution(keys, ADMIN_KEY, contextOf('srb_unknown'))]) {
      expect(refused.tenant).toBeUndefined();
      expect(refused.refusal?.code).toBe('GEN_ERR_UNAUTHORIZED');
    }
  });

  /** The requests counted for `keyId`, per window (rate_limit_windows). */
  async function windowsOf(keyId: string) {
    const rows = await handle.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.keyId, keyId));
    return rows.map((row) => ({ windowStart: row.windowStart.toISOString(), requests: row.requests }));
  }
  /** ApiKeys on the default database store whose statements are listed as sent. */
  function loggedKeys() {
    const { db, statements } = loggedDatabase(handle);
    return { keys: createApiKeys({ db, clock, ids: sequentialIds() }), statements };
  }

  it('looks a key up and counts it in one statement per admission on the database store (decision 0039)', async () => {
    clock.set('2026-11-22T12:30:10.000Z');
    const { record, key } = await keys.create('bearer', 'one statement', 3);
    const { keys: logged, statements } = loggedKeys();
    const states = [];
    for (let request = 0; request < 4; request += 1) states.push((await logged.admit('bearer', key))?.state);
    // 4 admissions, 4 statements, each reading api_keys and counting in rate_limit_windows.
    expect(statements).toHaveLength(4);
    for (const statement of statements) expect(statement).toMatch(/with "active_key" as .*"api_keys".*"counted" as \(insert into "rate_limit_windows"/s);
    // Limit 3: remaining 3 - 1, 3 - 2, 3 - 3, then the 4th is over; Reset 60 - 10 = 50 s.
    expect(states.map((state) => state?.remaining)).toEqual([2, 1, 0, 0]);
    expect(states.map((state) => state?.exceeded)).toEqual([false, false, false, true]);
    expect(states.every((state) => state?.limit === 3 && state.resetSeconds === 50)).toBe(true);
    expect(await windowsOf(record.id)).toEqual([{ windowStart: '2026-11-22T12:30:00.000Z', requests: 4 }]);
  });

  it('sends 20 concurrent admissions of one key as 2 statements (the first, then 19 together), each counted once at its own place', async () => {
    clock.set('2026-11-22T12:31:00.000Z');
    const { record, key } = await keys.create('api', 'burst', 10);
    const { keys: logged, statements } = loggedKeys();
    const admitted = await Promise.all(Array.from({ length: 20 }, () => logged.admit('api', key)));
    expect(statements).toHaveLength(2);
    for (const entry of admitted) expect(entry?.record).toEqual(record);
    const states = admitted.map((entry) => entry!.state);
    // Places 1..20 once each: the 10 within the limit have remaining 10 - 1 .. 10 - 10 = 9..0, the other 10 are over.
    expect(states.filter((state) => !state.exceeded).map((state) => state.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(states.filter((state) => state.exceeded)).toHaveLength(10);
    expect(await windowsOf(record.id)).toEqual([{ windowStart: '2026-11-22T12:31:00.000Z', requests: 20 }]);
  });

  it('refuses unknown, revoked and wrong-kind keys with null and counts nothing, a revocation from the next admission on', async () => {
    clock.set('2026-11-22T12:32:00.000Z');
    const { record, key } = await keys.create('api', 'revoked between two', 5);
    const bearer = await keys.create('bearer', 'of the other kind', 5);
    const { keys: logged, statements } = loggedKeys();
    expect((await logged.admit('api', key))?.state.remaining).toBe(4);
    expect(await keys.revoke(record.id)).toBe(true);
    expect(await logged.admit('api', key)).toBeNull();
    expect(await logged.admit('api', 'srk_unknown')).toBeNull();
    expect(await logged.admit('api', bearer.key)).toBeNull();
    expect(await logged.admit('bearer', key)).toBeNull();
    // The first admission, the revoked and the unknown key; the wrong prefixes never reach the database.
    expect(statements).toHaveLength(3);
    expect(await windowsOf(record.id)).toEqual([{ windowStart: '2026-11-22T12:32:00.000Z', requests: 1 }]);
    expect(await windowsOf(bearer.record.id)).toEqual([]);
    const unknownCounted = await handle.db
      .select()
      .from(rateLimitWindows)
      .where(
        notInArray(
          rateLimitWindows.keyId,
          (await keys.list()).map((entry) => entry.id),
        ),
      );
    expect(unknownCounted).toEqual([]);
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

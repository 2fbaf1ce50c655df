import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitWindows } from '../drizzle/schema.js';
import { type ApiKeys, createApiKeys } from '../platform/access/api-keys.js';
import { ManualClock } from '../platform/clock.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../platform/db.js';
import { randomIds } from '../platform/ids.js';

/** PostgreSQL runs on every machine of the project and on CI (which sets DATABASE_URL to the same). */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = 'redis://127.0.0.1:6379';
const serverScript = fileURLToPath(new URL('./fixtures/rate-limit-server.ts', import.meta.url));
/** Both replicas' clocks stand here: 15 s into a minute, so the window resets in 45 s. */
const NOW = '2026-11-22T12:10:15.000Z';
const WINDOW_START_MS = Date.parse('2026-11-22T12:10:00.000Z');
const LIMIT = 30;

interface Replica {
  child: ChildProcess;
  base: string;
  lines: string[];
}

/** Starts test/fixtures/rate-limit-server.ts as its own process on a free loopback port; resolves once it listens. */
function startReplica(environment: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', RATE_LIMIT_NOW: NOW, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const onLine = (chunk: Buffer) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(line);
        const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (listening?.[1]) resolve({ child, base: listening[1], lines });
      }
    };
    child.stdout.on('data', onLine);
    child.stderr.on('data', onLine);
    child.once('exit', (code) => reject(new Error(`the rate-limit server exited with ${code}: ${lines.join('\n')}`)));
  });
}

function stop(replica: Replica | undefined): Promise<void> {
  if (!replica || replica.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    replica.child.once('exit', () => resolve());
    replica.child.kill('SIGTERM');
  });
}

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  retryAfter: string | null;
}

/** Fires `count` requests at once with `key`, alternating between the replicas; each bounded in time. */
async function fire(replicas: [Replica, Replica], key: string, count: number): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await fetch(`${replicas[index % 2]!.base}/limited`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(15_000) });
      await response.arrayBuffer();
      const header = (name: string) => response.headers.get(name);
      return { status: response.status, limit: header('x-ratelimit-limit'), remaining: header('x-ratelimit-remaining'), reset: header('x-ratelimit-reset'), retryAfter: header('retry-after') };
    }),
  );
}

/** Exactly `LIMIT` answered 200 (remaining LIMIT-1 .. 0, once each) and the rest 429, every one with the X-RateLimit-* headers. */
function expectOneLimit(answers: Answer[]) {
  const admitted = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 429);
  expect(admitted).toHaveLength(LIMIT);
  expect(refused).toHaveLength(answers.length - LIMIT);
  for (const answer of answers) expect(answer).toMatchObject({ limit: String(LIMIT), reset: '45' });
  expect(admitted.map((answer) => Number(answer.remaining)).toSorted((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, index) => index));
  for (const answer of refused) expect(answer).toMatchObject({ remaining: '0', retryAfter: '45' });
}

describe('one rate limit across two server processes', () => {
  const schemaName = `t_rlproc_${process.pid}_${Date.now().toString(36)}`;
  const database = { DATABASE_URL, DATABASE_SCHEMA: schemaName };
  let handle: DatabaseHandle;
  let keys: ApiKeys;
  let onDatabase: [Replica, Replica];
  let onRedis: [Replica, Replica];
  const redisKeys: string[] = [];

  beforeAll(async () => {
    // The test migrates the schema before the replicas open it (theirs then find nothing to do).
    handle = await openDatabase({ databaseUrl: DATABASE_URL, schemaName, poolSize: 2 });
    keys = createApiKeys({ db: handle.db, clock: new ManualClock(NOW), ids: randomIds });
    const started = await Promise.allSettled([startReplica(database), startReplica(database), startReplica({ ...database, REDIS_URL }), startReplica({ ...database, REDIS_URL })]);
    const replicas = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) {
      await Promise.all(replicas.map(stop));
      throw failed.reason;
    }
    onDatabase = [replicas[0]!, replicas[1]!];
    onRedis = [replicas[2]!, replicas[3]!];
    // One request each on a key of its own first, so every replica has its connections open before the bursts.
    const warmUp = await keys.create('api', 'warm-up', 100);
    redisKeys.push(`ratelimit:${warmUp.record.id}:${WINDOW_START_MS}`);
    for (const replica of replicas) {
      const response = await fetch(`${replica.base}/limited`, { headers: { 'x-api-key': warmUp.key }, signal: AbortSignal.timeout(15_000) });
      expect(response.status, replica.lines.join('\n')).toBe(200);
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all([...(onDatabase ?? []), ...(onRedis ?? [])].map(stop));
    await handle?.close();
    await dropSchema(DATABASE_URL, schemaName);
    if (redisKeys.length > 0) {
      const redis = new Redis(REDIS_URL, { connectTimeout: 2000, commandTimeout: 2000, maxRetriesPerRequest: 1 });
      await redis.del(...redisKeys);
      await redis.quit();
    }
  });

  it('counts in PostgreSQL: of 60 concurrent requests over both processes, exactly 30 answered 200 and 30 answered 429', async () => {
    const { record, key } = await keys.create('api', 'two replicas on PostgreSQL', LIMIT);
    expectOneLimit(await fire(onDatabase, key, 2 * LIMIT));
    const rows = await handle.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.keyId, record.id));
    expect(rows).toEqual([{ keyId: record.id, windowStart: new Date(WINDOW_START_MS), requests: 2 * LIMIT }]);
  });

  it('counts in Redis when REDIS_URL is set: the same 30 and 30, and nothing counted in the database', async () => {
    const { record, key } = await keys.create('api', 'two replicas on Redis', LIMIT);
    const redisKey = `ratelimit:${record.id}:${WINDOW_START_MS}`;
    redisKeys.push(redisKey);
    expectOneLimit(await fire(onRedis, key, 2 * LIMIT));
    const redis = new Redis(REDIS_URL, { connectTimeout: 2000, commandTimeout: 2000, maxRetriesPerRequest: 1 });
    try {
      expect(await redis.get(redisKey)).toBe(String(2 * LIMIT));
    } finally {
      await redis.quit();
    }
    expect(await handle.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.keyId, record.id))).toEqual([]);
  });
});

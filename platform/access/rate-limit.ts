import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { rateLimitWindows } from '../../drizzle/schema.js';
import type { Config } from '../config.js';
import type { Database } from '../db.js';
import type { Logger } from '../log.js';
import { boundedCall } from '../timeout.js';
import { coalesce, placeIn } from './coalesce.js';

/**
 * Where the per-key fixed windows are counted. Every replica given the same store (the same
 * database, or the same Redis) shares one exact count per key and window.
 */
export interface RateLimitStore {
  readonly kind: 'database' | 'redis';
  /**
   * The database store's own database and bound: createApiKeys on that same database looks a key up
   * and counts it in one statement there (ApiKeys.admit) instead of a read, then this store's hit.
   */
  readonly database?: { readonly db: Database; readonly timeoutMs: number };
  /**
   * Counts `requests` (default 1) of `keyId` in the window that starts at `windowStart` and lasts
   * `windowMs`, and returns the requests counted in that window, these included. Counting and reading are
   * one atomic step, so concurrent requests never lose or share an increment. Rejects with an
   * InfrastructureError (answered 503 GEN_ERR_UNAVAILABLE) when the store does not answer in time.
   */
  hit(keyId: string, windowStart: Date, windowMs: number, requests?: number): Promise<number>;
  /** Releases the store's connections (the Redis client); the database store owns none. */
  close(): Promise<void>;
  /**
   * /health's check of a store of its own (Redis): rejects while a count could not be made. The
   * database store has none: the database is checked as a part already.
   */
  ping?(): Promise<void>;
}

/** Bound of one count in the database, as for the other stores. */
export const DATABASE_RATE_LIMIT_TIMEOUT_MS = 5000;
/** Bound of one count in Redis, connecting included: a local Redis answers in about a millisecond. */
export const REDIS_RATE_LIMIT_TIMEOUT_MS = 1000;
export const REDIS_KEY_PREFIX = 'ratelimit:';

/**
 * The windows in the table rate_limit_windows, one row per key and window: one statement,
 * INSERT ... ON CONFLICT DO UPDATE SET requests = requests + n RETURNING, counts and reads.
 */
export function createDatabaseRateLimitStore(db: Database, options: { timeoutMs?: number } = {}): RateLimitStore {
  const timeoutMs = options.timeoutMs ?? DATABASE_RATE_LIMIT_TIMEOUT_MS;
  // Prepared once: the statement is the same for every request, only its values change.
  const upsert = db
    .insert(rateLimitWindows)
    .values({ keyId: sql.placeholder('keyId'), windowStart: sql.placeholder('windowStart'), requests: sql.placeholder('requests') })
    .onConflictDoUpdate({ target: [rateLimitWindows.keyId, rateLimitWindows.windowStart], set: { requests: sql`${rateLimitWindows.requests} + excluded.requests` } })
    .returning({ requests: rateLimitWindows.requests })
    .prepare('rate_limit_windows_hit');
  return coalesceHits({
    kind: 'database',
    database: { db, timeoutMs },
    async hit(keyId, windowStart, _windowMs, requests = 1) {
      const [row] = await boundedCall(upsert.execute({ keyId, windowStart, requests }), timeoutMs, 'count a request in rate_limit_windows');
      return row?.requests ?? requests;
    },
    async close() {},
  });
}

export interface RedisRateLimitStoreOptions {
  url: string;
  logger: Logger;
  /** Prepended to every key (default `ratelimit:`); keys are `<prefix><keyId>:<window start in ms>`. */
  keyPrefix?: string;
  /** Longest wait for one count, the connection included; also ioredis's connect and command timeouts. */
  timeoutMs?: number;
}

/**
 * The windows in Redis: one key per API key and window, counted by INCR and given a PEXPIRE of
 * one window in the same MULTI, so the count and its expiry are one atomic step and a key lives
 * at most one window after its last request.
 *
 * Every call is bounded: the client connects on first use, keeps no offline queue (a request
 * while the connection is down fails at once instead of waiting to be sent, or being counted
 * late), and reconnects in the background. A count that cannot be made is an InfrastructureError,
 * which the error handler answers as 503 GEN_ERR_UNAVAILABLE with Retry-After.
 */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
  const timeoutMs = options.timeoutMs ?? REDIS_RATE_LIMIT_TIMEOUT_MS;
  const keyPrefix = options.keyPrefix ?? REDIS_KEY_PREFIX;
  const client = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    enableOfflineQueue: false,
    // A command written when the connection drops fails with it; it is not sent again later.
    maxRetriesPerRequest: 0,
    // Reconnects for ever, backing off to 2 s between attempts.
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt - 1, 5), 2000),
  });

  let unreachable = false;
  client.on('error', (error: Error) => {
    // Once per outage (the client retries in the background and would report every attempt).
    if (unreachable) return;
    unreachable = true;
    options.logger.warn({ err: error }, 'rate-limit Redis unreachable: requests with a key are answered 503 until it is back');
  });
  client.on('ready', () => {
    if (unreachable) options.logger.info('rate-limit Redis reachable again');
    unreachable = false;
  });

  let connecting: Promise<void> | undefined;
  /** Resolves when commands can be sent: at once when connected, after the first connection otherwise. */
  function connected(): Promise<void> {
    if (client.status === 'ready') return Promise.resolve();
    if (client.status === 'wait') connecting = client.connect().finally(() => (connecting = undefined));
    if (connecting) return connecting;
    return Promise.reject(new Error(`Redis is not connected (${client.status})`));
  }

  return coalesceHits({
    kind: 'redis',
    async hit(keyId, windowStart, windowMs, requests = 1) {
      const key = `${keyPrefix}${keyId}:${windowStart.getTime()}`;
      const count = async () => {
        await connected();
        const replies = await client.multi().incrby(key, requests).pexpire(key, windowMs).exec();
        const incr = replies?.[0];
        if (!incr) throw new Error('Redis discarded the MULTI');
        if (incr[0]) throw incr[0];
        return Number(incr[1]);
      };
      return boundedCall(count(), timeoutMs, 'count a request in Redis');
    },
    async ping() {
      const answer = async () => {
        await connected();
        await client.ping();
      };
      await boundedCall(answer(), timeoutMs, 'ping Redis');
    },
    async close() {
      if (client.status === 'end') return;
      if (client.status !== 'ready') return client.disconnect();
      await boundedCall(client.quit(), timeoutMs, 'close the Redis connection').catch(() => client.disconnect());
    },
  });
}

/** Redis when REDIS_URL is set (config.access.redisUrl), the database otherwise. The caller closes it. */
export function rateLimitStoreFor(config: Config, db: Database, logger: Logger): RateLimitStore {
  const url = config.access.redisUrl;
  return url ? createRedisRateLimitStore({ url, logger }) : createDatabaseRateLimitStore(db);
}

/**
 * Hits of one key and window that arrive while its count is at the store wait for that count to
 * return, then go to the store together as one increment (decision 0039; the lanes: coalesce.ts):
 * 1. every request is still counted once, atomically, before it is admitted, and learns its exact
 *    place in the window (the store's total after the increment, less the hits counted after it),
 *    so the limit and X-RateLimit-Remaining are what one statement per request would give;
 * 2. a key under load costs one statement per round trip instead of one per request, and those
 *    statements no longer queue on the one row of the window (each would wait for the last's lock);
 * 3. a hit never waits for more than the count in flight: the first of a quiet key goes at once.
 * A failed count fails every hit of its increment (each answered 503), none of the next.
 */
export function coalesceHits(store: RateLimitStore): RateLimitStore {
  const hitInLane = coalesce((window: { keyId: string; windowStart: Date; windowMs: number }, n: number) => store.hit(window.keyId, window.windowStart, window.windowMs, n), placeIn);
  return {
    kind: store.kind,
    ...(store.database ? { database: store.database } : {}),
    hit(keyId, windowStart, windowMs, requests = 1) {
      if (requests !== 1) return store.hit(keyId, windowStart, windowMs, requests);
      return hitInLane(`${keyId}\u0000${windowStart.getTime()}`, { keyId, windowStart, windowMs });
    },
    close: () => store.close(),
    ...(store.ping ? { ping: store.ping } : {}),
  };
}

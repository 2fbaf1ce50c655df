import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys } from '../../drizzle/schema.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db.js';
import type { IdSource } from '../ids.js';
import type { ForwardedHeaders } from '../request-context.js';
import { createDatabaseRateLimitStore, type RateLimitStore } from './rate-limit.js';

export type KeyKind = 'api' | 'bearer';

/** The integration API's limit (Document 2): 1,000 requests per minute per key. */
export const DEFAULT_REQUESTS_PER_MINUTE = 1000;
const KEY_PREFIX: Record<KeyKind, string> = { api: 'srk_', bearer: 'srb_' };
const WINDOW_MS = 60_000;

export interface ApiKeyRecord {
  id: string;
  kind: KeyKind;
  label: string;
  requestsPerMinute: number;
  createdAt: Date;
  revokedAt: Date | null;
}

/** What a request with a key may do now: the X-RateLimit-* values, and whether it is over. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  exceeded: boolean;
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * API keys (X-API-Key) and institution bearer keys (Authorization: Bearer), stored as SHA-256
 * hashes, with a fixed one-minute window per key counted in `rateLimits` (platform/access/
 * rate-limit.ts; default the database, Redis when REDIS_URL is set: rateLimitStoreFor). Every
 * replica on the same store shares one count, and the store counts and reads in one atomic step,
 * so concurrent requests never lose an increment.
 */
export function createApiKeys(deps: { db: Database; clock: Clock; ids: IdSource; rateLimits?: RateLimitStore }) {
  const rateLimits = deps.rateLimits ?? createDatabaseRateLimitStore(deps.db);
  const activeKeyByHash = deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), eq(apiKeys.kind, sql.placeholder('kind')), isNull(apiKeys.revokedAt)))
    .prepare('api_keys_active_by_hash');
  /**
   * Lookups of one key while the same lookup is at the database share its answer: a burst of
   * requests with one institution's key costs one read per round trip, and a revocation is seen by
   * every request that arrives after it committed (no answer is kept once its read returned).
   */
  const lookups = new Map<string, Promise<ApiKeyRecord | null>>();
  async function lookUp(kind: KeyKind, keyHash: string): Promise<ApiKeyRecord | null> {
    const [row] = await activeKeyByHash.execute({ keyHash, kind });
    if (!row) return null;
    const { keyHash: _keyHash, ...record } = row;
    return record;
  }
  return {
    /** Issues a key; the key itself is returned this once and never stored. */
    async create(kind: KeyKind, label: string, requestsPerMinute = DEFAULT_REQUESTS_PER_MINUTE): Promise<{ record: ApiKeyRecord; key: string }> {
      const key = `${KEY_PREFIX[kind]}${deps.ids.token(32)}`;
      const record: ApiKeyRecord = { id: `key_${deps.ids.token(9)}`, kind, label, requestsPerMinute, createdAt: deps.clock.now(), revokedAt: null };
      await deps.db.insert(apiKeys).values({ ...record, keyHash: hashKey(key) });
      return { record, key };
    },
    /** Revokes a key by id; false when no active key has that id. */
    async revoke(id: string): Promise<boolean> {
      const rows = await deps.db.update(apiKeys).set({ revokedAt: deps.clock.now() }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning({ id: apiKeys.id });
      return rows.length === 1;
    },
    async list(): Promise<ApiKeyRecord[]> {
      const rows = await deps.db.select().from(apiKeys).orderBy(apiKeys.createdAt);
      return rows.map(({ keyHash: _keyHash, ...record }) => record);
    },
    /** The active key of this kind the caller presented, or null (unknown, revoked or of another kind). */
    async authenticate(kind: KeyKind, key: string): Promise<ApiKeyRecord | null> {
      if (!key.startsWith(KEY_PREFIX[kind]) || key.length > 128) return null;
      const keyHash = hashKey(key);
      const lookupKey = `${kind}:${keyHash}`;
      const shared = lookups.get(lookupKey);
      if (shared) return shared;
      const lookup = lookUp(kind, keyHash).finally(() => lookups.delete(lookupKey));
      lookups.set(lookupKey, lookup);
      return lookup;
    },
    /** Counts this request against the key's current minute and says where it stands. */
    async count(record: ApiKeyRecord): Promise<RateLimitState> {
      const nowMs = deps.clock.now().getTime();
      const windowStart = new Date(nowMs - (nowMs % WINDOW_MS));
      const used = await rateLimits.hit(record.id, windowStart, WINDOW_MS);
      return {
        limit: record.requestsPerMinute,
        remaining: Math.max(0, record.requestsPerMinute - used),
        resetSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - nowMs) / 1000)),
        exceeded: used > record.requestsPerMinute,
      };
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;

/** The key a request presents for `kind`: X-API-Key, or the token of Authorization: Bearer (from the request context's forwarded headers). */
export function presentedKey(headers: ForwardedHeaders, kind: KeyKind): string | undefined {
  if (kind === 'api') return headers['x-api-key'];
  const match = headers.authorization ? /^Bearer\s+(\S+)$/i.exec(headers.authorization) : null;
  return match?.[1];
}

import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { apiKeys, institutions, rateLimitWindows } from '../../drizzle/schema.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db.js';
import type { IdSource } from '../ids.js';
import type { ForwardedHeaders } from '../request-context.js';
import { boundedCall } from '../timeout.js';
import { coalesce, placeIn } from './coalesce.js';
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
  /** The institution a bearer key belongs to (decision 0050); null for an API key. */
  institutionId: string | null;
}

export interface InstitutionRecord {
  id: string;
  name: string;
  createdAt: Date;
}

/** A bearer key was to join an institution that does not exist. */
export class UnknownInstitution extends Error {
  constructor(readonly institutionId: string) {
    super(`no institution ${institutionId}`);
  }
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
/** The columns of a key's ApiKeyRecord: all but its hash. */
const { keyHash: _keyHash, ...recordColumns } = getTableColumns(apiKeys);
/** The active key of the statement's `keyHash` and `kind`. */
const presentedActiveKey = () => and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), eq(apiKeys.kind, sql.placeholder('kind')), isNull(apiKeys.revokedAt));

/** A key that was presented, found active and counted: its record and where it stands in its window. */
interface Admitted {
  record: ApiKeyRecord;
  state: RateLimitState;
}

/** The presented key's lane: one key of one kind in one window. */
interface Presented {
  kind: KeyKind;
  keyHash: string;
  windowStart: Date;
}

/** What looking a key up and counting it gives: null for no such active key, else its record and its place in the window. */
type Counted = { record: ApiKeyRecord; used: number } | null;

function stateOf({ record, used }: NonNullable<Counted>, windowStart: Date, nowMs: number): RateLimitState {
  return {
    limit: record.requestsPerMinute,
    remaining: Math.max(0, record.requestsPerMinute - used),
    resetSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - nowMs) / 1000)),
    exceeded: used > record.requestsPerMinute,
  };
}

/**
 * The key's active row and its count in one prepared statement: a CTE finds the row, a
 * data-modifying CTE adds `requests` to its window (INSERT ... SELECT from that CTE, so an unknown
 * or revoked key inserts nothing), and the final SELECT returns the row with the window's total.
 * No row: no such active key, nothing counted.
 */
function prepareAdmission(db: Database) {
  const activeKey = db.$with('active_key').as(db.select(recordColumns).from(apiKeys).where(presentedActiveKey()));
  const counted = db.$with('counted').as(
    db
      .insert(rateLimitWindows)
      .select(
        db
          .select({
            keyId: activeKey.id,
            // Casts: Postgres cannot infer a parameter's type in a SELECT list.
            windowStart: sql<Date>`${sql.placeholder('windowStart')}::timestamptz`.as('window_start'),
            requests: sql<number>`${sql.placeholder('requests')}::integer`.as('requests'),
          })
          .from(activeKey),
      )
      .onConflictDoUpdate({ target: [rateLimitWindows.keyId, rateLimitWindows.windowStart], set: { requests: sql`${rateLimitWindows.requests} + excluded.requests` } })
      .returning({ requests: rateLimitWindows.requests }),
  );
  return db.with(activeKey, counted).select().from(activeKey).crossJoin(counted).prepare('api_keys_admit');
}

/**
 * Looks keys up and counts them in one statement on the database that holds both (the default
 * database rate-limit store), coalesced per key and window as coalesceHits does:
 * 1. each PostgreSQL round trip costs the Node process about 0.1 ms of CPU, and a whole replay
 *    about 0.2 ms: a second statement per request was about half of that;
 * 2. admissions of one key arriving while its statement is in flight go as the next one, with
 *    requests = n, and each learns its exact place; a revocation is seen by every statement that
 *    starts after it committed, as no answer is kept.
 */
function countInOneStatement(database: { db: Database; timeoutMs: number }): (presented: Presented) => Promise<Counted> {
  const admission = prepareAdmission(database.db);
  const admitInLane = coalesce(
    async ({ kind, keyHash, windowStart }: Presented, n: number) => {
      const work = admission.execute({ keyHash, kind, windowStart: windowStart.toISOString(), requests: n });
      const [row] = await boundedCall(work, database.timeoutMs, 'look up a key and count it in api_keys and rate_limit_windows');
      return row;
    },
    (row, index, n): Counted => (row ? { record: row.active_key, used: placeIn(row.counted.requests, index, n) } : null),
  );
  return (presented) => admitInLane(`${presented.kind}\u0000${presented.keyHash}\u0000${presented.windowStart.getTime()}`, presented);
}

/**
 * Looks keys up in the database, then counts them in `rateLimits` (Redis): lookups of one key
 * while the same lookup is at the database share its answer, so a burst of requests with one
 * institution's key costs one read per round trip, and a revocation is seen by every request that
 * arrives after it committed (no answer is kept once its read returned).
 */
function lookUpThenCount(db: Database, rateLimits: RateLimitStore): (presented: Presented) => Promise<Counted> {
  const activeKeyByHash = db.select(recordColumns).from(apiKeys).where(presentedActiveKey()).prepare('api_keys_active_by_hash');
  const lookups = new Map<string, Promise<ApiKeyRecord | null>>();
  async function lookUp(kind: KeyKind, keyHash: string): Promise<ApiKeyRecord | null> {
    const [record] = await activeKeyByHash.execute({ keyHash, kind });
    return record ?? null;
  }
  function sharedLookUp(kind: KeyKind, keyHash: string): Promise<ApiKeyRecord | null> {
    const lookupKey = `${kind}:${keyHash}`;
    const shared = lookups.get(lookupKey);
    if (shared) return shared;
    const lookup = lookUp(kind, keyHash).finally(() => lookups.delete(lookupKey));
    lookups.set(lookupKey, lookup);
    return lookup;
  }
  return async ({ kind, keyHash, windowStart }) => {
    const record = await sharedLookUp(kind, keyHash);
    if (!record) return null;
    return { record, used: await rateLimits.hit(record.id, windowStart, WINDOW_MS) };
  };
}

/**
 * API keys (X-API-Key) and institution bearer keys (Authorization: Bearer), stored as SHA-256
 * hashes, with a fixed one-minute window per key counted in `rateLimits` (platform/access/
 * rate-limit.ts; default the database, Redis when REDIS_URL is set: rateLimitStoreFor). Every
 * replica on the same store shares one count, and the store counts and reads in one atomic step,
 * so concurrent requests never lose an increment. With the database store of `db`, a key is looked
 * up and counted in one statement (countInOneStatement); with another store, looked up, then counted there.
 */
export function createApiKeys(deps: { db: Database; clock: Clock; ids: IdSource; rateLimits?: RateLimitStore }) {
  const rateLimits = deps.rateLimits ?? createDatabaseRateLimitStore(deps.db);
  const countKey = rateLimits.database?.db === deps.db ? countInOneStatement(rateLimits.database) : lookUpThenCount(deps.db, rateLimits);
  return {
    /**
     * Issues a key; the key itself is returned this once and never stored. A bearer key joins
     * `institutionId` (which must exist), or without it founds an institution of its own, named
     * by the label (decision 0050); an API key belongs to no institution.
     */
    async create(kind: KeyKind, label: string, requestsPerMinute = DEFAULT_REQUESTS_PER_MINUTE, options: { institutionId?: string } = {}): Promise<{ record: ApiKeyRecord; key: string }> {
      if (kind === 'api' && options.institutionId !== undefined) throw new RangeError('an API key belongs to no institution');
      const key = `${KEY_PREFIX[kind]}${deps.ids.token(32)}`;
      const now = deps.clock.now();
      return deps.db.transaction(async (tx) => {
        let institutionId: string | null = null;
        if (kind === 'bearer' && options.institutionId !== undefined) {
          const [found] = await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, options.institutionId));
          if (!found) throw new UnknownInstitution(options.institutionId);
          institutionId = found.id;
        } else if (kind === 'bearer') {
          institutionId = `inst_${deps.ids.token(9)}`;
          await tx.insert(institutions).values({ id: institutionId, name: label, createdAt: now });
        }
        const record: ApiKeyRecord = { id: `key_${deps.ids.token(9)}`, kind, label, requestsPerMinute, createdAt: now, revokedAt: null, institutionId };
        await tx.insert(apiKeys).values({ ...record, keyHash: hashKey(key) });
        return { record, key };
      });
    },
    async institutions(): Promise<InstitutionRecord[]> {
      return deps.db.select().from(institutions).orderBy(institutions.createdAt, institutions.id);
    },
    /** Revokes a key by id; false when no active key has that id. */
    async revoke(id: string): Promise<boolean> {
      const rows = await deps.db
        .update(apiKeys)
        .set({ revokedAt: deps.clock.now() })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return rows.length === 1;
    },
    async list(): Promise<ApiKeyRecord[]> {
      return deps.db.select(recordColumns).from(apiKeys).orderBy(apiKeys.createdAt);
    },
    /**
     * The active key of this kind the caller presented, counted against its current minute, with
     * where it stands; null (nothing counted) when it is unknown, revoked or of another kind.
     */
    async admit(kind: KeyKind, key: string): Promise<Admitted | null> {
      if (!key.startsWith(KEY_PREFIX[kind]) || key.length > 128) return null;
      const nowMs = deps.clock.now().getTime();
      const windowStart = new Date(nowMs - (nowMs % WINDOW_MS));
      const counted = await countKey({ kind, keyHash: hashKey(key), windowStart });
      return counted && { record: counted.record, state: stateOf(counted, windowStart, nowMs) };
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

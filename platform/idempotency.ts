import { and, eq, lt, sql } from 'drizzle-orm';
import { idempotencyKeys } from '../drizzle/schema.js';
import { canonicalSha256, type JsonValue } from './canonical-json.js';
import type { Clock } from './clock.js';
import type { Database } from './db.js';
import { AppError } from './errors.js';
import { boundedCall } from './timeout.js';

/**
 * Idempotency-Key for the routes that move money or change authority (the agents' settlements and
 * mandates, decision 0048), after the IETF draft "The Idempotency-Key HTTP Header Field":
 * 1. The first request with a key inserts its row RUNNING (the primary key decides, on any replica)
 *    and runs; its answer (status and body) is kept, and every later request with the same key and
 *    the same body gets that answer without running again.
 * 2. The same key with another body is 409 GEN_ERR_IDEMPOTENCY_CONFLICT.
 * 3. A retry while the first still runs waits for its answer (polling, at most `waitMs`), then is
 *    409 GEN_ERR_IDEMPOTENCY_IN_PROGRESS: concurrent retries run the work once.
 * 4. A run that throws gives its key back (the row is deleted): the error is not kept, a retry runs
 *    again. The work must itself be safe to run again (a settlement claims the same payment).
 * 5. A RUNNING row older than `staleAfterMs` (its process died) is taken over by the next retry.
 */

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Printable ASCII without spaces, 1 to 255 characters: what a client library generates (a UUID, a ULID). */
const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;
const DEFAULT_WAIT_MS = 15_000;
const DEFAULT_STALE_AFTER_MS = 120_000;
const POLL_MS = 25;
const TIMEOUT_MS = 5000;

export interface IdempotentAnswer<T> {
  statusCode: number;
  body: T;
}

export interface IdempotencyOptions {
  clock: Clock;
  /** Longest wait for a running request with the same key; default 15 s. */
  waitMs?: number;
  /** A RUNNING row older than this is abandoned; default 2 minutes. */
  staleAfterMs?: number;
  timeoutMs?: number;
}

/** The key as given, or undefined without the header; a malformed one is 400. */
export function readIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY_PATTERN.test(header)) throw new AppError('GEN_ERR_BAD_REQUEST', { message: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.' });
  return header;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createIdempotency(db: Database, options: IdempotencyOptions) {
  const { clock } = options;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, options.timeoutMs ?? TIMEOUT_MS, operation);
  const row = (scope: string, key: string) => and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

  /** True when this request now owns the key: it inserted the row, or took over an abandoned one. */
  async function take(scope: string, key: string, requestSha256: string, startedAt: Date): Promise<boolean> {
    const inserted = await bounded(
      db
        .insert(idempotencyKeys)
        .values({ scope, key, requestSha256, state: 'RUNNING', createdAt: startedAt, updatedAt: startedAt })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key })
        .execute(),
      'insert into idempotency_keys',
    );
    if (inserted.length === 1) return true;
    const abandonedBefore = new Date(startedAt.getTime() - staleAfterMs);
    const takenOver = await bounded(
      db
        .update(idempotencyKeys)
        .set({ updatedAt: startedAt })
        .where(and(row(scope, key), eq(idempotencyKeys.state, 'RUNNING'), eq(idempotencyKeys.requestSha256, requestSha256), lt(idempotencyKeys.updatedAt, abandonedBefore)))
        .returning({ key: idempotencyKeys.key })
        .execute(),
      'take over an abandoned idempotency key',
    );
    return takenOver.length === 1;
  }

  async function read(scope: string, key: string) {
    const [found] = await bounded(db.select().from(idempotencyKeys).where(row(scope, key)).execute(), 'select from idempotency_keys');
    return found;
  }

  /** The kept answer of the same request, waiting while it runs; refusals as 409. Undefined when the key was given back meanwhile. */
  async function answerOf<T>(scope: string, key: string, requestSha256: string): Promise<IdempotentAnswer<T> | undefined> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await read(scope, key);
      if (!found) return undefined;
      if (found.requestSha256 !== requestSha256) throw new AppError('GEN_ERR_IDEMPOTENCY_CONFLICT');
      if (found.state === 'DONE') return { statusCode: found.statusCode ?? 200, body: found.answer as T };
      if (Date.now() >= deadline) throw new AppError('GEN_ERR_IDEMPOTENCY_IN_PROGRESS', { retryAfterSeconds: 1 });
      await sleep(POLL_MS);
    }
  }

  return {
    /**
     * Runs `work` once per (scope, key) and request: without a key, simply runs it. `request` is
     * what makes two requests the same (the body, and whatever else the answer depends on).
     */
    async once<T>(scope: string, key: string | undefined, request: unknown, work: () => Promise<IdempotentAnswer<T>>): Promise<IdempotentAnswer<T>> {
      if (key === undefined) return work();
      // Through JSON first: an omitted optional member (undefined) is no member, as on the wire.
      const requestSha256 = canonicalSha256(JSON.parse(JSON.stringify(request ?? null)) as JsonValue);
      for (;;) {
        const startedAt = clock.now();
        if (await take(scope, key, requestSha256, startedAt)) return run(scope, key, startedAt, work);
        const answer = await answerOf<T>(scope, key, requestSha256);
        if (answer) return answer;
      }
    },
  };

  async function run<T>(scope: string, key: string, startedAt: Date, work: () => Promise<IdempotentAnswer<T>>): Promise<IdempotentAnswer<T>> {
    const ours = and(row(scope, key), eq(idempotencyKeys.state, 'RUNNING'), eq(idempotencyKeys.updatedAt, startedAt));
    let answer: IdempotentAnswer<T>;
    try {
      answer = await work();
    } catch (error) {
      await bounded(db.delete(idempotencyKeys).where(ours).execute(), 'give back an idempotency key').catch(() => undefined);
      throw error;
    }
    await bounded(
      db
        .update(idempotencyKeys)
        .set({ state: 'DONE', statusCode: answer.statusCode, answer: sql`${JSON.stringify(answer.body)}::json`, updatedAt: clock.now() })
        .where(ours)
        .execute(),
      'update idempotency_keys (answered)',
    );
    return answer;
  }
}

export type Idempotency = ReturnType<typeof createIdempotency>;

import { and, eq, gt, sql } from 'drizzle-orm';
import { streamSessions } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';

const STORE_TIMEOUT_MS = 5000;

export type StreamSessionRow = typeof streamSessions.$inferSelect;

export type TickOutcome =
  { outcome: 'TICKED'; session: StreamSessionRow } | { outcome: 'NOT_FOUND' } | { outcome: 'EXPIRED'; session: StreamSessionRow } | { outcome: 'INSUFFICIENT_BALANCE'; session: StreamSessionRow };

/**
 * The streaming sessions (stream_sessions); every call bounded in time. A session is found by its
 * id and the SHA-256 of its bearer token together: without the token, a session id finds nothing.
 */
export function createStreamStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);
  const owned = (sessionId: string, tokenHash: string) => and(eq(streamSessions.sessionId, sessionId), eq(streamSessions.tokenHash, tokenHash));

  async function find(sessionId: string, tokenHash: string): Promise<StreamSessionRow | undefined> {
    const [row] = await bounded(db.select().from(streamSessions).where(owned(sessionId, tokenHash)).execute(), 'select from stream_sessions');
    return row;
  }

  return {
    /** A session opened by a settled payment; (payer, paymentNonce) is unique, so a second insert for one payment fails. */
    async insert(session: StreamSessionRow): Promise<void> {
      await bounded(db.insert(streamSessions).values(session).execute(), 'insert into stream_sessions');
    },

    find,

    /**
     * Takes `units x unitPrice` off the balance in one statement, only while the session is
     * unexpired and its balance covers the cost: PostgreSQL re-checks the WHERE on the row it
     * locked (READ COMMITTED), so concurrent ticks are applied one after another and the
     * balance never goes below zero. The cost is computed in numeric, so no product overflows.
     * When nothing was taken, the session as it now stands says why.
     */
    async tick(sessionId: string, tokenHash: string, units: number, now: Date): Promise<TickOutcome> {
      const cost = sql`(${streamSessions.unitPrice}::numeric * ${String(units)}::numeric)`;
      const query = db
        .update(streamSessions)
        .set({
          balance: sql`${streamSessions.balance} - ${cost}`,
          unitsUsed: sql`${streamSessions.unitsUsed} + ${String(units)}::bigint`,
          lastTickAt: now,
        })
        .where(and(owned(sessionId, tokenHash), gt(streamSessions.expiresAt, now), sql`${streamSessions.balance} >= ${cost}`))
        .returning()
        .execute();
      const [ticked] = await bounded(query, 'update stream_sessions (tick)');
      if (ticked) return { outcome: 'TICKED', session: ticked };
      const session = await find(sessionId, tokenHash);
      if (!session) return { outcome: 'NOT_FOUND' };
      if (session.expiresAt.getTime() <= now.getTime()) return { outcome: 'EXPIRED', session };
      return { outcome: 'INSUFFICIENT_BALANCE', session };
    },
  };
}

export type StreamStore = ReturnType<typeof createStreamStore>;

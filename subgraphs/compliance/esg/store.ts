import { and, eq, gt } from 'drizzle-orm';
import { entityEsgScores } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { CachedResult } from '../shared/cache.js';

const STORE_TIMEOUT_MS = 5000;

type EntityEsgScoreRow = typeof entityEsgScores.$inferInsert;

/**
 * The entity ESG cache (7 days; entity_esg_scores); every call bounded in time. A row is served only
 * before its expiry and only for the data version it was computed from.
 */
export function createEntityEsgStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);

  return {
    async entityEsg<T>(lei: string, inputsKey: string, dataVersion: string, now: Date): Promise<CachedResult<T> | undefined> {
      const query = db
        .select()
        .from(entityEsgScores)
        .where(and(eq(entityEsgScores.lei, lei), eq(entityEsgScores.inputsKey, inputsKey), eq(entityEsgScores.dataVersion, dataVersion), gt(entityEsgScores.expiresAt, now)))
        .execute();
      const [row] = await bounded(query, 'select from entity_esg_scores');
      return row && { result: row.result as T, computedAt: row.computedAt, expiresAt: row.expiresAt };
    },

    /** Keeps (or replaces) the score of (lei, inputsKey). */
    async saveEntityEsg(lei: string, inputsKey: string, dataVersion: string, entry: CachedResult<unknown>): Promise<void> {
      const row: EntityEsgScoreRow = { lei, inputsKey, dataVersion, result: entry.result, computedAt: entry.computedAt, expiresAt: entry.expiresAt };
      const { lei: _lei, inputsKey: _key, ...changes } = row;
      await bounded(
        db
          .insert(entityEsgScores)
          .values(row)
          .onConflictDoUpdate({ target: [entityEsgScores.lei, entityEsgScores.inputsKey], set: changes })
          .execute(),
        'upsert into entity_esg_scores',
      );
    },
  };
}

export type EntityEsgStore = ReturnType<typeof createEntityEsgStore>;

import { and, eq, gt } from 'drizzle-orm';
import { entityEsgScores, pepScreenCache } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';

const STORE_TIMEOUT_MS = 5000;

/** A cached result: the stored body, when it was computed and until when it is served. */
export interface CachedResult<T> {
  result: T;
  computedAt: Date;
  expiresAt: Date;
}

/**
 * The entity ESG (7 days) and PEP screen (6 hours) caches; every call bounded in time. A row is
 * served only before its expiry and only for the data version it was computed from.
 */
export function createScreeningCacheStore(db: Database) {
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
      const row = { lei, inputsKey, dataVersion, result: entry.result, computedAt: entry.computedAt, expiresAt: entry.expiresAt };
      const { lei: _lei, inputsKey: _key, ...changes } = row;
      await bounded(db.insert(entityEsgScores).values(row).onConflictDoUpdate({ target: [entityEsgScores.lei, entityEsgScores.inputsKey], set: changes }).execute(), 'upsert into entity_esg_scores');
    },

    async pepScreen<T>(screenKey: string, dataVersion: string, now: Date): Promise<CachedResult<T> | undefined> {
      const query = db
        .select()
        .from(pepScreenCache)
        .where(and(eq(pepScreenCache.screenKey, screenKey), eq(pepScreenCache.dataVersion, dataVersion), gt(pepScreenCache.expiresAt, now)))
        .execute();
      const [row] = await bounded(query, 'select from pep_screen_cache');
      return row && { result: row.result as T, computedAt: row.cachedAt, expiresAt: row.expiresAt };
    },

    async savePepScreen(screenKey: string, dataVersion: string, entry: CachedResult<unknown>): Promise<void> {
      const row = { screenKey, dataVersion, result: entry.result, cachedAt: entry.computedAt, expiresAt: entry.expiresAt };
      const { screenKey: _key, ...changes } = row;
      await bounded(db.insert(pepScreenCache).values(row).onConflictDoUpdate({ target: pepScreenCache.screenKey, set: changes }).execute(), 'upsert into pep_screen_cache');
    },
  };
}

export type ScreeningCacheStore = ReturnType<typeof createScreeningCacheStore>;

import { and, eq, gt } from 'drizzle-orm';
import { pepScreenCache } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { CachedResult } from '../shared/cache.js';

const STORE_TIMEOUT_MS = 5000;

type PepScreenCacheRow = typeof pepScreenCache.$inferInsert;

/**
 * The PEP screen cache (6 hours; pep_screen_cache); every call bounded in time. A row is served only
 * before its expiry and only for the data version it was computed from.
 */
export function createPepScreenStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);

  return {
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
      const row: PepScreenCacheRow = { screenKey, dataVersion, result: entry.result, cachedAt: entry.computedAt, expiresAt: entry.expiresAt };
      const { screenKey: _key, ...changes } = row;
      await bounded(db.insert(pepScreenCache).values(row).onConflictDoUpdate({ target: pepScreenCache.screenKey, set: changes }).execute(), 'upsert into pep_screen_cache');
    },
  };
}

export type PepScreenStore = ReturnType<typeof createPepScreenStore>;

import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { uboChainCache } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { OwnershipChain } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;

export interface ChainKey {
  lei: string;
  deep: boolean;
}

export interface CachedChain {
  chain: OwnershipChain;
  cachedAt: Date;
}

/** The map key of a (lei, deep) pair. */
export const chainKeyOf = ({ lei, deep }: ChainKey): string => `${lei}|${deep ? 'deep' : 'direct'}`;

/**
 * The 24-hour ownership-chain cache (ubo_chain_cache); every call bounded in time, a batch read in
 * one query and a batch write in one statement. A row is served only while it is younger than the
 * caller's cut-off and only for the snapshot version it was computed from.
 */
export function createUboStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);

  return {
    /** The chains of these keys cached after `cachedAfter` from `dataVersion`, by chainKeyOf: one query. */
    async freshChains(keys: readonly ChainKey[], dataVersion: string, cachedAfter: Date): Promise<Map<string, CachedChain>> {
      const leis = [...new Set(keys.map((key) => key.lei))];
      if (leis.length === 0) return new Map();
      const wanted = new Set(keys.map(chainKeyOf));
      const query = db
        .select()
        .from(uboChainCache)
        .where(and(inArray(uboChainCache.lei, leis), eq(uboChainCache.dataVersion, dataVersion), gt(uboChainCache.cachedAt, cachedAfter)))
        .execute();
      const rows = await bounded(query, 'select from ubo_chain_cache');
      const found = new Map<string, CachedChain>();
      for (const row of rows) {
        const key = chainKeyOf(row);
        // The rows were written by saveChains from OwnershipChain values.
        if (wanted.has(key)) found.set(key, { chain: row.result as OwnershipChain, cachedAt: row.cachedAt });
      }
      return found;
    },

    /** Keeps (or replaces) these chains, computed from `dataVersion` at `cachedAt`: one statement. */
    async saveChains(chains: readonly OwnershipChain[], dataVersion: string, cachedAt: Date): Promise<void> {
      if (chains.length === 0) return;
      const rows = chains.map((chain) => ({ lei: chain.lei, deep: chain.deep, dataVersion, result: chain, cachedAt }));
      const upsert = db
        .insert(uboChainCache)
        .values(rows)
        .onConflictDoUpdate({
          target: [uboChainCache.lei, uboChainCache.deep],
          set: { dataVersion: sql`excluded.data_version`, result: sql`excluded.result`, cachedAt: sql`excluded.cached_at` },
        })
        .execute();
      await bounded(upsert, 'upsert into ubo_chain_cache');
    },
  };
}

export type UboStore = ReturnType<typeof createUboStore>;

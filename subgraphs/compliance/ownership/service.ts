import DataLoader from 'dataloader';
import type { Clock } from '../../../platform/clock.js';
import { echo } from '../../../platform/echo.js';
import { AppError } from '../../../platform/errors.js';
import { dataSources, fatfLists, leiRecords, sdnList } from '../data/index.js';
import { buildSanctionsIndex, type DatasetProvenance, type FatfList, isValidLei, type LeiRecord, listAge, type SanctionsIndex } from '../domain/index.js';
import { BoundedMemo } from '../shared/cache.js';
import { buildOwnershipChain, type OwnershipChain } from './domain/index.js';
import { type CachedChain, type ChainKey, chainKeyOf, type UboStore } from './store.js';

/** Document 2 §8: an ownership-chain result is kept 24 hours. */
export const UBO_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** The reference data an ownership chain is computed from, with the sources the answer names. */
export interface UboData {
  findRecord(lei: string): LeiRecord | undefined;
  sanctions: SanctionsIndex;
  fatf: FatfList;
  sources: { lei: DatasetProvenance; sanctions: DatasetProvenance; fatf: DatasetProvenance };
}

/** Source and as-of date of each dataset behind the answer (DESIGN.md §5). */
export interface UboSources {
  lei: { source: string; asOf: string };
  /** stale: the SDN list is older than 30 days at the time of the answer (decision 0055). */
  sanctions: { source: string; asOf: string; stale: boolean };
  fatf: { source: string; asOf: string };
}

/** Document 2 §2 "Ownership chain result": the chain, and when it was computed and until when it is served. */
export type UboChainResult = OwnershipChain & { cachedAt: string; expiresAt: string; fromCache: boolean; sources: UboSources };

export interface UboServiceDeps {
  clock: Clock;
  store: UboStore;
  /** Called on first use; the shipped snapshots by default (shippedUboData). */
  data: () => UboData;
}

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

/**
 * The shipped snapshots (data/): GLEIF records indexed by LEI, the SDN list's name and address index
 * and the current FATF lists, built once on first use (the SDN index takes about a second).
 */
export const shippedUboData = once((): UboData => {
  const byLei = new Map(leiRecords().records.map((record) => [record.lei, record]));
  const sources = dataSources();
  return {
    findRecord: (lei) => byLei.get(lei),
    sanctions: buildSanctionsIndex(sdnList().records),
    fatf: fatfLists().current,
    sources: { lei: sources.lei, sanctions: sources.ofacSdn, fatf: sources.fatf },
  };
});

const named = ({ source, asOf }: DatasetProvenance) => ({ source, asOf });

/** The snapshots a cached chain must have been computed from to be served: a refreshed list makes older rows stale. */
const dataVersionOf = (data: UboData) => `lei ${data.sources.lei.asOf}; sdn ${data.sources.sanctions.asOf}; fatf ${data.fatf.statementDate}`;

/** Ownership chains (POST /compliance/ubo-chain and LegalEntity.ownershipChain), cached 24 hours per (lei, deep). */
export function createUboService(deps: UboServiceDeps) {
  const data = once(deps.data);
  // The cache table held in memory (decision 0096), by data version and chain key: served without a query for its 24 hours.
  const held = new BoundedMemo<CachedChain>();

  /**
   * The chains of these keys, by chainKeyOf; an LEI the snapshot does not hold has none. Cached
   * chains are read in one query and the ones computed now written in one statement, whatever
   * the number of keys (a DataLoader's batch).
   */
  async function chainsOf(keys: readonly ChainKey[]): Promise<Map<string, UboChainResult>> {
    const reference = data();
    const known = [...new Map(keys.filter((key) => reference.findRecord(key.lei)).map((key) => [chainKeyOf(key), key])).values()];
    const answers = new Map<string, UboChainResult>();
    if (known.length === 0) return answers;
    const now = deps.clock.now();
    const dataVersion = dataVersionOf(reference);
    const sources = {
      lei: named(reference.sources.lei),
      sanctions: { ...named(reference.sources.sanctions), stale: listAge(reference.sources.sanctions.asOf, now).stale },
      fatf: named(reference.sources.fatf),
    };
    const present = (chain: OwnershipChain, cachedAt: Date, fromCache: boolean): UboChainResult => ({
      ...chain,
      cachedAt: cachedAt.toISOString(),
      expiresAt: new Date(cachedAt.getTime() + UBO_CACHE_TTL_MS).toISOString(),
      fromCache,
      sources,
    });
    const oldestServed = new Date(now.getTime() - UBO_CACHE_TTL_MS);
    const heldKey = (key: ChainKey) => `${dataVersion}\u0000${chainKeyOf(key)}`;
    const notHeld: ChainKey[] = [];
    for (const key of known) {
      const hit = held.get(heldKey(key));
      if (hit && hit.cachedAt > oldestServed) answers.set(chainKeyOf(key), present(hit.chain, hit.cachedAt, true));
      else notHeld.push(key);
    }
    if (notHeld.length === 0) return answers;
    const cached = await deps.store.freshChains(notHeld, dataVersion, oldestServed);
    const computed: OwnershipChain[] = [];
    for (const key of notHeld) {
      const hit = cached.get(chainKeyOf(key));
      if (hit) {
        held.set(heldKey(key), hit);
        answers.set(chainKeyOf(key), present(hit.chain, hit.cachedAt, true));
        continue;
      }
      const chain = buildOwnershipChain({ ...key, findRecord: reference.findRecord, sanctions: reference.sanctions, fatf: reference.fatf });
      if (!chain) continue;
      computed.push(chain);
      answers.set(chainKeyOf(key), present(chain, now, false));
    }
    await deps.store.saveChains(computed, dataVersion, now);
    for (const chain of computed) held.set(heldKey(chain), { chain, cachedAt: now });
    return answers;
  }

  return {
    /** POST /compliance/ubo-chain: 400 CMP_ERR_INVALID_LEI for wrong check digits, 404 CMP_ERR_LEI_NOT_FOUND for an LEI not in the snapshot. */
    async uboChain(request: ChainKey): Promise<UboChainResult> {
      if (!isValidLei(request.lei)) {
        throw new AppError('CMP_ERR_INVALID_LEI', { message: `${echo(request.lei)} is not a valid LEI: 20 letters and digits with ISO 17442 check digits.` });
      }
      const chain = (await chainsOf([request])).get(chainKeyOf(request));
      if (!chain) throw new AppError('CMP_ERR_LEI_NOT_FOUND', { message: `No entity with LEI ${request.lei} is in the LEI registry snapshot, so its ownership cannot be traced.` });
      return chain;
    },

    /** The batch behind LegalEntity.ownershipChain: one answer per request, in order; null for an invalid or unknown LEI. */
    async ownershipChains(requests: readonly ChainKey[]): Promise<(UboChainResult | null)[]> {
      const chains = await chainsOf(requests.filter((request) => isValidLei(request.lei)));
      return requests.map((request) => chains.get(chainKeyOf(request)) ?? null);
    },
  };
}

export type UboService = ReturnType<typeof createUboService>;

/**
 * One loader per GraphQL request: LegalEntity.ownershipChain of every entity in the response is
 * read through ownershipChains in one batch (one cache query, one write of what was computed).
 */
export function createOwnershipChainLoader(service: UboService): DataLoader<ChainKey, UboChainResult | null, string> {
  return new DataLoader((keys: readonly ChainKey[]) => service.ownershipChains(keys), { cacheKeyFn: chainKeyOf, maxBatchSize: 500 });
}

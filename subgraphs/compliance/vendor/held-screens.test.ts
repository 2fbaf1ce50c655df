import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { sharedTestDatabase, TEST_NOW } from '../../../test/helpers.js';
import { entityEsgParameters, leiGovernanceFacts } from '../data/entity-esg.js';
import { dataSources, fatfLists } from '../data/index.js';
import { pepRecords } from '../data/index.js';
import { isValidLei } from '../domain/index.js';
import { createEntityEsgService, ENTITY_ESG_TTL_SECONDS } from '../esg/service.js';
import { createEntityEsgStore } from '../esg/store.js';
import { createUboService, shippedUboData } from '../ownership/service.js';
import { createUboStore } from '../ownership/store.js';
import { buildPepIndex } from '../pep/domain/index.js';
import { createPepScreenService, PEP_SCREEN_TTL_SECONDS, shippedPepLists } from '../pep/service.js';
import { createPepScreenStore } from '../pep/store.js';
import { createComplianceStore } from '../vop/store.js';

// What the vendor view reads per entity, held in memory above the cache tables (decision 0096): a
// held answer is the one computed, served without a query, only under its data version and only
// until its own expiry. Each test counts the reads that reach the table.

/** An active GLEIF record of the shipped snapshot (Singapore). */
const SHELL = '2138001KPMR6PD83HC08';
/** A data version of this run only: the worker's database is shared, and the first answer must be computed here. */
const RUN = randomBytes(4).toString('hex');

let db: Database;
beforeAll(async () => {
  db = (await sharedTestDatabase()).db;
});

describe('PEP screens held in memory', () => {
  const clock = new ManualClock(TEST_NOW);
  let reads = 0;
  let listsVersion = `${RUN}-1`;
  const pepIndex = buildPepIndex(pepRecords());
  const service = () => {
    const table = createPepScreenStore(db);
    return createPepScreenService({
      clock,
      cache: { ...table, pepScreen: (...args: Parameters<typeof table.pepScreen>) => ((reads += 1), table.pepScreen(...args)) },
      index: () => pepIndex,
      // The version is the lists' as-of dates and sizes: a refreshed list is a new version.
      lists: () => shippedPepLists().map((list) => ({ ...list, provenance: { ...list.provenance, asOf: listsVersion } })),
    });
  };
  const input = { name: 'Barack Hussein Obama', country: 'US' };

  it('the held screen is the one computed, served again without a query; another process reads the same from the table', async () => {
    const pep = service();
    const computed = await pep.pepScreen(input);
    expect([computed.fromCache, reads]).toEqual([false, 1]);
    const held = await pep.pepScreen(input);
    expect(held).toEqual({ ...computed, fromCache: true });
    expect(reads).toBe(1);
    expect(await service().pepScreen(input)).toEqual(held);
    expect(reads).toBe(2);
  });

  it('a new data version is not served the held screen: computed again, naming the new lists', async () => {
    const pep = service();
    await pep.pepScreen(input);
    listsVersion = `${RUN}-2`;
    const again = await pep.pepScreen(input);
    expect(again.fromCache).toBe(false);
    expect(again.fatfR12.listsScreened.map((list) => list.asOf)).toEqual([listsVersion, listsVersion, listsVersion]);
  });

  it('past its 6 hours a held screen is computed again', async () => {
    const pep = service();
    const first = await pep.pepScreen(input);
    clock.advance(PEP_SCREEN_TTL_SECONDS * 1000);
    const later = await pep.pepScreen(input);
    expect([later.fromCache, later.cachedAt]).toEqual([false, clock.now().toISOString()]);
    expect(later.pepMatches).toEqual(first.pepMatches);
  });
});

describe('entity ESG scores held in memory', () => {
  const clock = new ManualClock(TEST_NOW);
  let reads = 0;
  let parametersVersion = `${RUN}-1`;
  const service = () => {
    const table = createEntityEsgStore(db);
    return createEntityEsgService({
      clock,
      cache: { ...table, entityEsg: (...args: Parameters<typeof table.entityEsg>) => ((reads += 1), table.entityEsg(...args)) },
      registry: createComplianceStore(db, { token: () => RUN }),
      isValidLei,
      governanceFacts: (lei) => leiGovernanceFacts().get(lei),
      leiProvenance: dataSources().lei,
      fatf: fatfLists,
      get parameters() {
        return { ...entityEsgParameters(), version: parametersVersion };
      },
      synthesiser: { model: 'none', synthesise: async () => null },
    });
  };

  it('the held score is the one computed, served again without a query; a new data version computes again', async () => {
    const esg = service();
    const computed = await esg.entityEsg(SHELL);
    expect([computed.fromCache, reads]).toEqual([false, 1]);
    expect(await esg.entityEsg(SHELL)).toEqual({ ...computed, fromCache: true });
    expect(reads).toBe(1);
    parametersVersion = `${RUN}-2`;
    expect((await esg.entityEsg(SHELL)).fromCache).toBe(false);
    expect(reads).toBe(2);
  });

  it('refresh replaces the held score: the next answer is the refreshed one, until its own expiry', async () => {
    const esg = service();
    await esg.entityEsg(SHELL);
    clock.advance(60_000);
    const refreshed = await esg.entityEsg(SHELL, { refresh: true });
    expect(refreshed.fromCache).toBe(false);
    const after = await esg.entityEsg(SHELL);
    expect(after).toEqual({ ...refreshed, fromCache: true });
    clock.advance(ENTITY_ESG_TTL_SECONDS * 1000);
    expect((await esg.entityEsg(SHELL)).fromCache).toBe(false);
  });
});

describe('ownership chains held in memory', () => {
  const clock = new ManualClock(TEST_NOW);
  let reads = 0;
  const service = (leiAsOf: string) => {
    const table = createUboStore(db);
    const shipped = shippedUboData();
    return createUboService({
      clock,
      store: { ...table, freshChains: (...args: Parameters<typeof table.freshChains>) => ((reads += 1), table.freshChains(...args)) },
      data: () => ({ ...shipped, sources: { ...shipped.sources, lei: { ...shipped.sources.lei, asOf: leiAsOf } } }),
    });
  };

  it('the held chain is the one computed, served again without a query; another data version computes its own', async () => {
    const ubo = service(`${RUN}-1`);
    const computed = await ubo.uboChain({ lei: SHELL, deep: false });
    expect([computed.fromCache, reads]).toEqual([false, 1]);
    expect(await ubo.uboChain({ lei: SHELL, deep: false })).toEqual({ ...computed, fromCache: true });
    expect(reads).toBe(1);
    const other = await service(`${RUN}-2`).uboChain({ lei: SHELL, deep: false });
    expect(other.fromCache).toBe(false);
    expect(other.chain).toEqual(computed.chain);
  });
});

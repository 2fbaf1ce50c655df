import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../drizzle/schema.js';
import { ManualClock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { TEST_NOW } from '../../../test/helpers.js';
import { leiRecords } from '../data/index.js';
import { createOwnershipChainLoader, createUboService, shippedUboData, UBO_CACHE_TTL_MS } from './service.js';
import { createUboStore } from './store.js';

/**
 * Counts the statements the ownership-chain batch sends to the database: a PGlite of its own
 * whose Drizzle instance logs every query (Drizzle's Logger is called once per statement).
 */
describe('ownership chains of 50 legal entities read through the DataLoader', () => {
  const statements: string[] = [];
  let client: PGlite;
  let db: Database;
  const clock = new ManualClock(TEST_NOW);
  // 50 entities with a parent in the snapshot, and so chains of at least two nodes: 100 nodes or more.
  const leis = leiRecords()
    .records.filter((record) => record.directParent !== null || record.ultimateParent !== null)
    .slice(0, 50)
    .map((record) => record.lei);

  beforeAll(async () => {
    client = new PGlite();
    const migrationsFolder = resolve(fileURLToPath(new URL('../../../drizzle/migrations', import.meta.url)));
    await migrate(drizzle({ client, schema }), { migrationsFolder });
    db = drizzle({ client, schema, logger: { logQuery: (query) => statements.push(query) } }) as unknown as Database;
  });
  afterAll(async () => {
    await client.close();
  });

  async function readAll(deep: boolean) {
    const service = createUboService({ clock, store: createUboStore(db), data: shippedUboData });
    // A new loader per request, as the GraphQL context makes one; every load in one tick is one batch.
    const loader = createOwnershipChainLoader(service);
    statements.length = 0;
    const chains = await Promise.all(leis.map((lei) => loader.load({ lei, deep })));
    return { chains, statements: [...statements] };
  }

  it('first read: one select of the cache and one insert of the 50 computed chains', async () => {
    expect(leis).toHaveLength(50);
    const { chains, statements: sent } = await readAll(true);
    expect(chains.map((chain) => chain?.lei)).toEqual(leis);
    expect(chains.every((chain) => chain !== null && !chain.fromCache && chain.chain.length >= 2)).toBe(true);
    expect(chains.reduce((nodes, chain) => nodes + chain!.chain.length, 0)).toBeGreaterThanOrEqual(100);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^select .* from "ubo_chain_cache" where \("ubo_chain_cache"\."lei" in \(\$1, \$2, .*\$50\)/);
    expect(sent[1]).toMatch(/^insert into "ubo_chain_cache" .* on conflict \("lei","deep"\) do update/);
  });

  it('within 24 hours: one select, every chain from the cache, nothing written', async () => {
    clock.advance(UBO_CACHE_TTL_MS - 1000);
    const { chains, statements: sent } = await readAll(true);
    expect(chains.every((chain) => chain?.fromCache === true && chain.cachedAt === TEST_NOW)).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^select .* from "ubo_chain_cache"/);
  });

  it('the same 50 entities with deep false are other keys: computed and written in one statement again', async () => {
    const { chains, statements: sent } = await readAll(false);
    expect(chains.every((chain) => chain?.fromCache === false && chain.deep === false)).toBe(true);
    expect(sent).toHaveLength(2);
  });

  it('repeated and unknown LEIs in the batch cost nothing more, and answer null for the unknown', async () => {
    const service = createUboService({ clock, store: createUboStore(db), data: shippedUboData });
    statements.length = 0;
    const answers = await service.ownershipChains([
      { lei: leis[0]!, deep: true },
      { lei: leis[0]!, deep: true },
      { lei: '2138001KPMR6PD83HC09', deep: true },
      { lei: 'TESTNOTHERE000000088', deep: true },
    ]);
    expect(answers.map((answer) => answer?.lei ?? null)).toEqual([leis[0], leis[0], null, null]);
    expect(statements).toHaveLength(1);
  });
});

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceDatasets, sdnEntries } from '../../../drizzle/schema.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { sharedTestDatabase, startTestServer, type TestDatabase, testDatabases, type TestServer } from '../../../test/helpers.js';
import { dataSources } from '../data/index.js';
import { shippedReferenceDigests } from './import.js';

const fileSha256 = (path: string) =>
  createHash('sha256')
    .update(readFileSync(new URL(`../data/${path}`, import.meta.url)))
    .digest('hex');

/** The worker's shared PGlite (as every compliance route test uses it), and PostgreSQL in a schema of its own when DATABASE_URL is set. */
const drivers: TestDatabase[] = [{ driver: 'pglite', open: sharedTestDatabase, dispose: async () => {} }, ...testDatabases().filter((database) => database.driver === 'postgres')];

describe.each(drivers)('GET /compliance/reference-data on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let server: TestServer;

  beforeAll(async () => {
    handle = await testDatabase.open();
    // The compliance subgraph's start imports what the database does not hold yet.
    server = await startTestServer({ subgraphs: ['compliance'], database: handle });
  });
  afterAll(async () => {
    await server.close();
    await testDatabase.dispose(handle);
  });

  const get = async () => {
    const response = await server.app.inject({ method: 'GET', url: '/compliance/reference-data' });
    return { status: response.statusCode, body: response.json() };
  };

  it('lists every dataset the start loaded: provenance, record count, digests, load time, in use by this process', async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    const sources = dataSources();
    const digests = new Map<string, string>(shippedReferenceDigests().map((digest) => [digest.dataset, digest.sha256]));
    const records: Record<string, number> = { fatf: 73, lei: 699, ofacSdn: 13_821, pepHeadsOfState: 423, pepMeps: 701, pepUsFederal: 617 };
    expect(body.datasets.map((dataset: { dataset: string }) => dataset.dataset)).toEqual(Object.keys(records));
    for (const dataset of body.datasets) {
      const name = dataset.dataset as keyof typeof records & keyof typeof sources;
      const { source, url, asOf, licence } = sources[name];
      expect(dataset).toEqual({
        dataset: name,
        source,
        url,
        asOf,
        licence,
        records: records[name],
        sha256: digests.get(name),
        files: expect.any(Object),
        loadedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        inUse: true,
      });
      for (const [path, digest] of Object.entries(dataset.files)) expect(digest, path).toBe(fileSha256(path));
    }
    const ofac = body.datasets.find((dataset: { dataset: string }) => dataset.dataset === 'ofacSdn');
    expect(ofac).toMatchObject({ asOf: '2023-12-28', url: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV' });
    expect(ofac.files['ofac/sdn.csv']).toBe('d768d28ee9e3ac7b27f9a956c922bf97dc286ebd39eff63faa4ef231f1ef668b');
    const [{ n }] = (await handle.db.select({ n: sql<number>`count(*)::int` }).from(sdnEntries)) as [{ n: number }];
    expect(n).toBe(13_821);
  });

  it('says when the database holds a version other than the one this process screens with', async () => {
    const [fatf] = await handle.db.select().from(referenceDatasets).where(eq(referenceDatasets.dataset, 'fatf'));
    // As another process with a refreshed list would leave it.
    await handle.db
      .update(referenceDatasets)
      .set({ sha256: '0'.repeat(64), asOf: '2026-10-30' })
      .where(eq(referenceDatasets.dataset, 'fatf'));
    try {
      const { body } = await get();
      const inUse = Object.fromEntries(body.datasets.map((dataset: { dataset: string; inUse: boolean }) => [dataset.dataset, dataset.inUse]));
      expect(inUse).toEqual({ fatf: false, lei: true, ofacSdn: true, pepHeadsOfState: true, pepMeps: true, pepUsFederal: true });
      expect(body.datasets.find((dataset: { dataset: string }) => dataset.dataset === 'fatf')).toMatchObject({ sha256: '0'.repeat(64), asOf: '2026-10-30' });
    } finally {
      await handle.db.update(referenceDatasets).set(fatf!).where(eq(referenceDatasets.dataset, 'fatf'));
    }
  });

  it('a second server on the same database starts without importing again', async () => {
    // The transactions that wrote the rows: a re-import (even at the same clock time) would change them.
    const writers = async () =>
      Promise.all([referenceDatasets, sdnEntries].map(async (table) => (await handle.db.select({ xmins: sql<string>`string_agg(distinct xmin::text, ',')` }).from(table))[0]?.xmins));
    const before = await writers();
    const second = await startTestServer({ subgraphs: ['compliance'], database: handle });
    try {
      expect(await writers()).toEqual(before);
      expect((await second.app.inject({ method: 'GET', url: '/compliance/reference-data' })).json()).toEqual((await get()).body);
    } finally {
      await second.close();
    }
  });

  it('is free and in the OpenAPI document', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/compliance/reference-data?dataset=%27--&__proto__=1' });
    expect(response.statusCode).toBe(200);
    const openapi = (await server.app.inject({ method: 'GET', url: '/compliance/openapi.json' })).json();
    expect(openapi.paths['/reference-data']?.get?.summary).toMatch(/reference datasets/);
  });
});

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../drizzle/schema.js';
import {
  fatfJurisdictions,
  leiRecords as leiTable,
  leiRelationships,
  pepRecords as pepTable,
  referenceDatasets,
  sdnAddresses,
  sdnAliases,
  sdnDigitalCurrencyAddresses,
  sdnEntries,
} from '../../../drizzle/schema.js';
import { ManualClock } from '../../../platform/clock.js';
import { type Database, type DatabaseHandle, dropSchema, openDatabase } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { dataSources, readDataFile } from '../data/index.js';
import { type DatasetImport, importReferenceData, referenceDigests, type ReferenceFileReader } from './import.js';

const DATASETS = ['ofacSdn', 'pepUsFederal', 'pepHeadsOfState', 'pepMeps', 'lei', 'fatf'] as const;
const LATER = '2026-11-23T08:00:00.000Z';
const fileSha256 = (path: string) =>
  createHash('sha256')
    .update(readFileSync(new URL(`../data/${path}`, import.meta.url)))
    .digest('hex');

async function count(db: Database, table: PgTable, where?: SQL): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return row!.n;
}

/** The transaction ids that wrote the table's rows: unchanged only if no row was inserted, updated or deleted. */
async function writers(db: Database, table: PgTable): Promise<string> {
  const [row] = await db.select({ xmins: sql<string>`coalesce(string_agg(distinct xmin::text, ',' order by xmin::text), '')` }).from(table);
  return `${row!.xmins}/${await count(db, table)}`;
}

const ALL_TABLES = [referenceDatasets, sdnEntries, sdnAliases, sdnAddresses, sdnDigitalCurrencyAddresses, pepTable, leiTable, leiRelationships, fatfJurisdictions];
const allWriters = (db: Database) => Promise.all(ALL_TABLES.map((table) => writers(db, table)));

const byDataset = (results: readonly DatasetImport[]) => Object.fromEntries(results.map((result) => [result.dataset, result.action]));
const firstColumn = (text: string) => new Set(text.split('\n').map((line) => line.split(',')[0]!.replace(/"/g, '').trim()));

/**
 * The shipped files with one SDN entry taken out: the first entry of sdn.csv that no alias, remarks
 * continuation or digital-currency row refers to, removed from sdn.csv with its add.csv rows (every
 * entry has some), so the copy still parses.
 */
function sdnCopyWithoutOneEntry(): { read: ReferenceFileReader; removed: number } {
  const referred = new Set(['ofac/alt.csv', 'ofac/sdn_comments.csv', 'ofac/digital_currency_addresses.csv'].flatMap((path) => [...firstColumn(readDataFile(path))]));
  const entNum = (line: string) => line.split(',')[0]!;
  const sdnLines = readDataFile('ofac/sdn.csv').split('\r\n');
  const index = sdnLines.findIndex((line) => /^\d+,/.test(line) && !referred.has(entNum(line)));
  const removed = entNum(sdnLines[index]!);
  const sdn = [...sdnLines.slice(0, index), ...sdnLines.slice(index + 1)].join('\r\n');
  const add = readDataFile('ofac/add.csv')
    .split('\r\n')
    .filter((line) => entNum(line) !== removed)
    .join('\r\n');
  const copies: Record<string, string> = { 'ofac/sdn.csv': sdn, 'ofac/add.csv': add };
  return { read: (path) => copies[path] ?? readDataFile(path), removed: Number(removed) };
}

describe.each(testDatabases())('reference data import on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let db: Database;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
    db = handle.db;
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it('the first import loads every dataset with the row counts PROVENANCE.md states', async () => {
    clock.set(TEST_NOW);
    const results = await importReferenceData({ db, clock });
    expect(byDataset(results)).toEqual(Object.fromEntries(DATASETS.map((dataset) => [dataset, 'imported'])));

    // OFAC: 13,821 entries by type, 17,091 aliases by type, 18,990 address rows less 2,652 placeholders, 578 digital-currency rows.
    expect(await count(db, sdnEntries)).toBe(13_821);
    const types = await db
      .select({ type: sdnEntries.type, n: sql<number>`count(*)::int` })
      .from(sdnEntries)
      .groupBy(sdnEntries.type);
    expect(Object.fromEntries(types.map(({ type, n }) => [type, n]))).toEqual({ individual: 6_646, entity: 6_033, vessel: 764, aircraft: 378 });
    const aliasTypes = await db
      .select({ type: sdnAliases.type, n: sql<number>`count(*)::int` })
      .from(sdnAliases)
      .groupBy(sdnAliases.type);
    expect(Object.fromEntries(aliasTypes.map(({ type, n }) => [type, n]))).toEqual({ aka: 16_507, fka: 567, nka: 17 });
    expect(await count(db, sdnAddresses)).toBe(18_990 - 2_652);
    const [dca] = await db
      .select({ rows: sql<number>`count(*)::int`, entities: sql<number>`count(distinct ent_num)::int`, pairs: sql<number>`count(distinct (currency, address))::int` })
      .from(sdnDigitalCurrencyAddresses);
    expect(dca).toEqual({ rows: 578, entities: 49, pairs: 576 });

    // PEP: 617 US federal (539 current), 424 heads-of-state rows less the one without an English label, 701 former MEPs.
    expect(await count(db, pepTable, eq(pepTable.dataset, 'pepUsFederal'))).toBe(617);
    expect(await count(db, pepTable, and(eq(pepTable.dataset, 'pepUsFederal'), eq(pepTable.current, true)))).toBe(539);
    expect(await count(db, pepTable, eq(pepTable.dataset, 'pepHeadsOfState'))).toBe(423);
    expect(await count(db, pepTable, eq(pepTable.dataset, 'pepMeps'))).toBe(701);
    expect(await count(db, pepTable, and(eq(pepTable.dataset, 'pepMeps'), eq(pepTable.current, true)))).toBe(0);

    // GLEIF: 699 records (348 ISSUED, 350 LAPSED, 1 RETIRED), 62 with a direct parent, 68 with an ultimate parent, 128 relationships.
    expect(await count(db, leiTable)).toBe(699);
    const registrations = await db
      .select({ status: leiTable.registrationStatus, n: sql<number>`count(*)::int` })
      .from(leiTable)
      .groupBy(leiTable.registrationStatus);
    expect(Object.fromEntries(registrations.map(({ status, n }) => [status, n]))).toEqual({ ISSUED: 348, LAPSED: 350, RETIRED: 1 });
    expect(await count(db, leiTable, sql`${leiTable.directParentLei} is not null`)).toBe(62);
    expect(await count(db, leiTable, sql`${leiTable.ultimateParentLei} is not null`)).toBe(68);
    expect(await count(db, leiRelationships)).toBe(128);

    // FATF: the June 2026 plenary's 3 black-list and 22 grey-list jurisdictions, and the two lists before it.
    expect(await count(db, fatfJurisdictions, and(eq(fatfJurisdictions.current, true), eq(fatfJurisdictions.list, 'blacklist')))).toBe(3);
    expect(await count(db, fatfJurisdictions, and(eq(fatfJurisdictions.current, true), eq(fatfJurisdictions.list, 'greylist')))).toBe(22);
    const plenaries = await db.selectDistinct({ date: fatfJurisdictions.statementDate, current: fatfJurisdictions.current }).from(fatfJurisdictions).orderBy(fatfJurisdictions.statementDate);
    expect(plenaries).toEqual([
      { date: '2025-10-24', current: false },
      { date: '2026-02-13', current: false },
      { date: '2026-06-19', current: true },
    ]);

    // One reference_datasets row per dataset, with sources.json's provenance and each file's SHA-256.
    const rows = await db.select().from(referenceDatasets).orderBy(referenceDatasets.dataset);
    expect(rows.map((row) => [row.dataset, row.records])).toEqual([
      ['fatf', 73],
      ['lei', 699],
      ['ofacSdn', 13_821],
      ['pepHeadsOfState', 423],
      ['pepMeps', 701],
      ['pepUsFederal', 617],
    ]);
    const sources = dataSources();
    for (const row of rows) {
      const { source, url, asOf, licence } = sources[row.dataset as (typeof DATASETS)[number]];
      expect(row).toMatchObject({ source, url, asOf, licence, loadedAt: new Date(TEST_NOW) });
      for (const [path, digest] of Object.entries(row.files)) expect(digest, path).toBe(fileSha256(path));
    }
    const ofac = rows.find((row) => row.dataset === 'ofacSdn')!;
    // The digest index.test.ts pins for the shipped sdn.csv.
    expect(ofac.files['ofac/sdn.csv']).toBe('d768d28ee9e3ac7b27f9a956c922bf97dc286ebd39eff63faa4ef231f1ef668b');
    expect(Object.keys(ofac.files).sort()).toEqual(['ofac/add.csv', 'ofac/alt.csv', 'ofac/digital_currency_addresses.csv', 'ofac/sdn.csv', 'ofac/sdn_comments.csv']);
    expect(ofac.asOf).toBe('2023-12-28');
  });

  it('a known SDN entry and a known LEI record are queryable with their fields', async () => {
    const [cuba] = await db.select().from(sdnEntries).where(eq(sdnEntries.entNum, 306));
    expect(cuba).toEqual({ entNum: 306, name: 'BANCO NACIONAL DE CUBA', type: 'entity', programs: ['CUBA'], title: null, remarks: "a.k.a. 'BNC'." });
    const aliases = await db.select({ name: sdnAliases.name, type: sdnAliases.type }).from(sdnAliases).where(eq(sdnAliases.entNum, 306));
    expect(aliases).toContainEqual({ name: 'NATIONAL BANK OF CUBA', type: 'aka' });
    const addresses = await db.select().from(sdnAddresses).where(eq(sdnAddresses.entNum, 306));
    expect(addresses).toContainEqual({ entNum: 306, addNum: 199, address: 'Zweierstrasse 35', cityStateZip: 'Zurich CH-8022', country: 'Switzerland' });
    // A wallet screened by address: the digital-currency address leads to its SDN entry.
    const [wallet] = await db
      .select({ currency: sdnDigitalCurrencyAddresses.currency, entNum: sdnEntries.entNum, programs: sdnEntries.programs })
      .from(sdnDigitalCurrencyAddresses)
      .innerJoin(sdnEntries, eq(sdnEntries.entNum, sdnDigitalCurrencyAddresses.entNum))
      .where(eq(sdnDigitalCurrencyAddresses.address, '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h'));
    expect(wallet).toMatchObject({ currency: 'XBT', entNum: 25308 });
    const [abbas] = await db.select({ title: sdnEntries.title, type: sdnEntries.type }).from(sdnEntries).where(eq(sdnEntries.entNum, 2674));
    expect(abbas).toEqual({ type: 'individual', title: 'Director of PALESTINE LIBERATION FRONT - ABU ABBAS FACTION' });

    const [bloomberg] = await db.select().from(leiTable).where(eq(leiTable.lei, '5493001KJTIIGC8Y1R12'));
    expect(bloomberg).toEqual({
      lei: '5493001KJTIIGC8Y1R12',
      legalName: 'Bloomberg Finance L.P.',
      otherNames: [],
      status: 'ACTIVE',
      entityStatus: 'ACTIVE',
      registrationStatus: 'ISSUED',
      jurisdiction: 'US-DE',
      country: 'US',
      directParentLei: '549300B56MD0ZC402L06',
      ultimateParentLei: '549300RMUDWPHCUQNE66',
      directParentLink: 'REPORTED',
      ultimateParentLink: 'REPORTED',
      directParentException: null,
      ultimateParentException: null,
      asOf: '2025-05-15',
    });
    const [alfa] = await db.select({ status: leiTable.status, otherNames: leiTable.otherNames, jurisdiction: leiTable.jurisdiction }).from(leiTable).where(eq(leiTable.lei, '097900BID10000147476'));
    expect(alfa).toEqual({ status: 'LAPSED', jurisdiction: 'SK', otherNames: [expect.objectContaining({ name: 'ALFA REY SRO' })] });

    const [vance] = await db
      .select({ name: pepTable.name, position: pepTable.position, country: pepTable.country, current: pepTable.current })
      .from(pepTable)
      .where(eq(pepTable.id, 'us-congress-C000127'));
    expect(vance).toEqual({ name: 'Maria Cantwell', position: 'United States Senator from Washington (Class 1)', country: 'US', current: true });
    const black = await db
      .select({ code: fatfJurisdictions.code })
      .from(fatfJurisdictions)
      .where(and(eq(fatfJurisdictions.current, true), eq(fatfJurisdictions.list, 'blacklist')))
      .orderBy(fatfJurisdictions.code);
    expect(black.map((row) => row.code)).toEqual(['IR', 'KP', 'MM']);
  });

  it('a second import with the same files writes nothing', async () => {
    const before = await allWriters(db);
    clock.set(LATER);
    const results = await importReferenceData({ db, clock });
    expect(byDataset(results)).toEqual(Object.fromEntries(DATASETS.map((dataset) => [dataset, 'unchanged'])));
    expect(await allWriters(db)).toEqual(before);
    const loadedAt = await db.selectDistinct({ at: referenceDatasets.loadedAt }).from(referenceDatasets);
    expect(loadedAt).toEqual([{ at: new Date(TEST_NOW) }]);
  });

  it('a changed dataset is replaced whole; the others are left alone', async () => {
    const [before] = await db.select().from(referenceDatasets).where(eq(referenceDatasets.dataset, 'ofacSdn'));
    const otherTables = [pepTable, leiTable, leiRelationships, fatfJurisdictions];
    const othersBefore = await Promise.all(otherTables.map((table) => writers(db, table)));
    const { read, removed } = sdnCopyWithoutOneEntry();
    expect(await count(db, sdnEntries, eq(sdnEntries.entNum, removed))).toBe(1);

    clock.set(LATER);
    const results = await importReferenceData({ db, clock, read });
    expect(byDataset(results)).toEqual({ ...Object.fromEntries(DATASETS.map((dataset) => [dataset, 'unchanged'])), ofacSdn: 'imported' });
    expect(await count(db, sdnEntries)).toBe(13_820);
    expect(await count(db, sdnEntries, eq(sdnEntries.entNum, removed))).toBe(0);
    expect(await count(db, sdnAliases)).toBe(17_091);
    const [after] = await db.select().from(referenceDatasets).where(eq(referenceDatasets.dataset, 'ofacSdn'));
    expect(after).toMatchObject({ records: 13_820, loadedAt: new Date(LATER) });
    expect(after!.sha256).not.toBe(before!.sha256);
    expect(after!.files['ofac/sdn.csv']).not.toBe(before!.files['ofac/sdn.csv']);
    expect(after!.files['ofac/add.csv']).not.toBe(before!.files['ofac/add.csv']);
    expect(after!.files['ofac/alt.csv']).toBe(before!.files['ofac/alt.csv']);
    expect(await Promise.all(otherTables.map((table) => writers(db, table)))).toEqual(othersBefore);

    // Back to the shipped files: the next start imports them again.
    clock.set(TEST_NOW);
    expect(byDataset(await importReferenceData({ db, clock })).ofacSdn).toBe('imported');
    expect(await count(db, sdnEntries)).toBe(13_821);
  });

  it('a replacement that fails part-way leaves the previous version loaded, whole', async () => {
    const before = await allWriters(db);
    // A repeated digital-currency row breaks the last table's primary key, after the entries, aliases and addresses were written.
    const dcaFile = readDataFile('ofac/digital_currency_addresses.csv');
    const repeated = `${dcaFile}${dcaFile.split('\r\n')[1]}\r\n`;
    const read: ReferenceFileReader = (path) => (path === 'ofac/digital_currency_addresses.csv' ? repeated : readDataFile(path));
    await expect(importReferenceData({ db, clock: new ManualClock(LATER), read })).rejects.toThrow(/import reference dataset ofacSdn/);
    expect(await allWriters(db)).toEqual(before);
    expect(await count(db, sdnEntries)).toBe(13_821);
  });

  it('a file that does not parse stops the import before anything is written', async () => {
    const before = await allWriters(db);
    const read: ReferenceFileReader = (path) => (path === 'lei/lei_records.json' ? '{"records": 7}' : readDataFile(path));
    await expect(importReferenceData({ db, clock: new ManualClock(LATER), read })).rejects.toThrow();
    expect(await allWriters(db)).toEqual(before);
  });
});

describe('a start with every dataset loaded', () => {
  let client: PGlite;
  const statements: string[] = [];

  beforeAll(async () => {
    client = new PGlite();
    await migrate(drizzle({ client, schema }), { migrationsFolder: fileURLToPath(new URL('../../../drizzle/migrations', import.meta.url)) });
  });
  afterAll(async () => {
    await client.close();
  });

  it('sends one statement (the SELECT of reference_datasets) and reads each file once, for its digest', async () => {
    // reference_datasets as a previous start left it: the digests of the shipped files (the rows themselves do not matter here).
    const db = drizzle({ client, schema, logger: { logQuery: (query) => statements.push(query) } }) as unknown as Database;
    const digests = referenceDigests(readDataFile);
    await db
      .insert(referenceDatasets)
      .values(digests.map((digest) => ({ dataset: digest.dataset, ...digest.provenance, records: 0, sha256: digest.sha256, files: digest.files, loadedAt: new Date(TEST_NOW) })));
    statements.length = 0;
    const parsed: string[] = [];
    const read: ReferenceFileReader = (path) => {
      parsed.push(path);
      return readDataFile(path);
    };
    const results = await importReferenceData({ db, clock: new ManualClock(LATER), read });
    expect(results.every((result) => result.action === 'unchanged')).toBe(true);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^select .* from "reference_datasets"$/);
    // Read for the digests, once each: sources.json and the dataset files (country-codes.json shared by two PEP datasets).
    expect(parsed.filter((path) => path === 'pep/country-codes.json')).toHaveLength(1);
  });
});

const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('two processes starting at once on PostgreSQL', () => {
  const schemaName = `t_${process.pid}_${Date.now().toString(36)}_refimport`;
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    // Two pools on one schema, as two processes of the distributed layout would have, and a third to read meanwhile.
    for (let i = 0; i < 3; i += 1) handles.push(await openDatabase({ databaseUrl, schemaName, poolSize: 2 }));
  });
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    await dropSchema(databaseUrl!, schemaName);
  });

  it('import each dataset once, and a reader meanwhile sees no SDN entry or all of them', async () => {
    const [first, second, reader] = handles as [DatabaseHandle, DatabaseHandle, DatabaseHandle];
    const clock = new ManualClock(TEST_NOW);
    let done = false;
    const seen = new Set<number>();
    const watch = (async () => {
      while (!done) seen.add(await count(reader.db, sdnEntries));
    })();
    const both = await Promise.all([importReferenceData({ db: first.db, clock }), importReferenceData({ db: second.db, clock })]).finally(() => {
      done = true;
    });
    await watch;
    for (const dataset of DATASETS) {
      const actions = both.map((results) => results.find((result) => result.dataset === dataset)!.action).sort();
      expect(actions, dataset).toEqual(['imported', 'unchanged']);
    }
    expect(await count(reader.db, sdnEntries)).toBe(13_821);
    expect(await count(reader.db, referenceDatasets)).toBe(DATASETS.length);
    expect([...seen].every((n) => n === 0 || n === 13_821)).toBe(true);
    expect(seen.size).toBeGreaterThan(0);
  });
});

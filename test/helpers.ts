import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { Sql } from 'postgres';
import { expect } from 'vitest';
import * as schema from '../drizzle/schema.js';
import { createConfiguredRailChain } from '../gateway/platform-services.js';
import { buildServer, type BuiltServer, type ServerOptions } from '../gateway/server.js';
import type { RailChain } from '../platform/chain/index.js';
import { ManualClock } from '../platform/clock.js';
import { type Config, loadConfig } from '../platform/config.js';
import { type Database, type DatabaseHandle, dropSchema, openDatabase, pgliteFolder } from '../platform/db.js';

export const TEST_SIGNING_KEY = 'test-signing-key-0123456789abcdef0123456789';
export const TEST_NOW = '2026-11-22T12:00:00.000Z';

export function testConfig(environment: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'srg-test-')),
    LOG_LEVEL: 'silent',
    QUOTE_SIGNING_KEY: TEST_SIGNING_KEY,
    // Issued quotes reach the ledger in 10 ms batches: tests that look one up wait that long, not 100 ms.
    WRITE_BEHIND_FLUSH_MS: '10',
    // Quotes keep the default ESG score 50 unless a test runs the oracles (ORACLE_SCHEDULER=true).
    ORACLE_SCHEDULER: 'false',
    ...environment,
  });
}

let sharedPglite: Promise<DatabaseHandle> | undefined;
let sharedChain: RailChain | undefined;

/**
 * One embedded rail per test worker, started on first use and deployed once; it lives as long as
 * the worker. Tests on it never assume fresh balances or untouched router parameters.
 */
export function sharedTestChain(): RailChain {
  sharedChain ??= createConfiguredRailChain(testConfig());
  return sharedChain;
}
let templatePglite: Promise<DatabaseHandle> | undefined;

/** A migrated in-memory PGlite kept untouched, to fork from. */
function pgliteTemplate(): Promise<DatabaseHandle> {
  templatePglite ??= openDatabase({});
  return templatePglite;
}

/** A new, migrated, in-memory PGlite of the test's own (forked from the worker's template). */
export async function openTestPglite(): Promise<DatabaseHandle> {
  const template = await pgliteTemplate();
  return template.fork ? template.fork() : openDatabase({});
}

/**
 * One migrated in-memory PGlite per test worker (vitest runs files of a worker in one module
 * graph: isolate is off), so a test file pays neither the WASM start nor the migrations. Tests
 * on it never assume empty tables. Closing the returned handle does nothing; the worker's exit does.
 */
export function sharedTestDatabase(): Promise<DatabaseHandle> {
  sharedPglite ??= openTestPglite().then((handle) => ({ ...handle, close: async () => {} }));
  return sharedPglite;
}

export interface TestDatabase {
  /** `pglite-worker`: the on-disk embedded database as `npm start` opens it, in a worker thread behind postgres.js. */
  driver: 'pglite' | 'pglite-worker' | 'postgres';
  open(): Promise<DatabaseHandle>;
  /** Closes the handle and removes what the test created. */
  dispose(handle: DatabaseHandle): Promise<void>;
}

let schemaCounter = 0;
let templateDataDir: Promise<string> | undefined;

/**
 * A migrated data folder per test worker, copied for each worker-thread database: the in-memory
 * template's files written to disk (PGlite's dump and load), so no initdb and no migrations on disk.
 */
function migratedDataDirTemplate(): Promise<string> {
  templateDataDir ??= (async () => {
    const folder = pgliteFolder(mkdtempSync(join(tmpdir(), 'srg-db-template-')));
    const memory = (await pgliteTemplate()).db as unknown as { $client: PGlite };
    const onDisk = new PGlite(folder, { loadDataDir: await memory.$client.dumpDataDir('none') });
    await onDisk.waitReady;
    await onDisk.close();
    return folder;
  })();
  return templateDataDir;
}

/** A DATA_DIR of the test's own holding a migrated PGlite folder (pgliteFolder(dataDir)), not opened yet. */
export async function migratedDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'srg-test-db-'));
  cpSync(await migratedDataDirTemplate(), pgliteFolder(dataDir), { recursive: true });
  return dataDir;
}

const pgliteWorkerDatabase: TestDatabase = {
  driver: 'pglite-worker',
  async open() {
    const dataDir = await migratedDataDir();
    const handle = await openDatabase({ pgliteDataDir: pgliteFolder(dataDir), poolSize: 4 });
    return { ...handle, close: () => handle.close().finally(() => rmSync(dataDir, { recursive: true, force: true })) };
  },
  dispose: (handle) => handle.close(),
};

/**
 * The stores' driver conformance suites, which run on the worker-thread database as well (decision
 * 0093). Not every suite: each open starts a thread and PGlite (1-3 s on a busy machine), which over
 * the ~30 files calling testDatabases() cost CI more than the half minute it may. Left out:
 * compliance/aml/store.test.ts, whose races are staged by the order statements reach a single
 * PGlite connection (its `driver === 'pglite'` branch), which a pool of connections does not keep.
 */
const WORKER_CONFORMANCE_SUITES = [
  'platform/idempotency.test.ts',
  'platform/access/api-keys.test.ts',
  'platform/access/rate-limit.test.ts',
  'subgraphs/fees/quotes/store.test.ts',
  'subgraphs/compliance/vop/store.test.ts',
  'subgraphs/intelligence/shared/answer-store.test.ts',
  'subgraphs/intelligence/shared/answer-cache.test.ts',
  'subgraphs/intelligence/predictive/ledger-store.test.ts',
  'subgraphs/payments/agent/store.test.ts',
  'subgraphs/payments/callbacks/store.test.ts',
  'subgraphs/payments/integration/store.test.ts',
  'subgraphs/payments/integration/graph-store.test.ts',
];

function isWorkerConformanceSuite(): boolean {
  const testPath = expect.getState().testPath?.replaceAll('\\', '/');
  return testPath !== undefined && WORKER_CONFORMANCE_SUITES.some((suite) => testPath.endsWith(`/${suite}`));
}

/**
 * The drivers every database test runs on: PGlite in memory (a fork, in this thread), the real
 * PostgreSQL server in a schema of its own when DATABASE_URL is set (CI sets it), and in the
 * stores' conformance suites the on-disk PGlite in its worker thread as `npm start` runs it.
 */
export function testDatabases(): TestDatabase[] {
  const drivers: TestDatabase[] = [
    {
      driver: 'pglite',
      // A fork of the worker's migrated PGlite: its own data, without a new WASM start.
      open: openTestPglite,
      dispose: (handle) => handle.close(),
    },
  ];
  if (isWorkerConformanceSuite()) drivers.push(pgliteWorkerDatabase);
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const schemas = new WeakMap<DatabaseHandle, string>();
    drivers.push({
      driver: 'postgres',
      async open() {
        schemaCounter += 1;
        const schemaName = `t_${process.pid}_${Date.now().toString(36)}_${schemaCounter}`;
        const handle = await openDatabase({ databaseUrl, schemaName, poolSize: 4 });
        schemas.set(handle, schemaName);
        return handle;
      },
      async dispose(handle) {
        await handle.close();
        const schemaName = schemas.get(handle);
        if (schemaName) await dropSchema(databaseUrl, schemaName);
      },
    });
  }
  return drivers;
}

export interface TestServer extends BuiltServer {
  clock: ManualClock;
}

export interface TestServerOptions extends Partial<ServerOptions> {
  environment?: Record<string, string>;
}

/**
 * A server on the worker's shared PGlite and a clock held at TEST_NOW. Route tests build only
 * their own subgraph (`subgraphs: ['fees']`); gateway tests take the default, everything.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = new ManualClock(TEST_NOW);
  const { environment, ...serverOptions } = options;
  const database = options.database ?? (await sharedTestDatabase());
  const config = testConfig(environment);
  // The embedded rail is shared by the worker's servers, as the PGlite is; a test naming RPC_URL gets its own.
  const chain = options.chain ?? (config.chain.rpcUrl ? undefined : sharedTestChain());
  const server = await buildServer({ config, clock, ...serverOptions, database, ...(chain ? { chain } : {}) });
  await server.app.ready();
  return { ...server, clock };
}

/** POSTs a GraphQL operation through inject and returns the parsed body. */
export async function graphql<T = Record<string, unknown>>(
  server: BuiltServer,
  query: string,
  variables: Record<string, unknown> = {},
  path = '/graphql',
): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }> {
  const response = await server.app.inject({ method: 'POST', url: path, payload: { query, variables } });
  return response.json();
}

/**
 * One request through inject: `payload` as JSON, or `raw` text sent as application/json (bad JSON,
 * keys such as __proto__ written by hand); the answer's status, parsed body and headers.
 */
export async function injectJson(server: BuiltServer, method: 'GET' | 'POST' | 'DELETE', url: string, options: { payload?: unknown; headers?: Record<string, string>; raw?: string } = {}) {
  const response = await server.app.inject({
    method,
    url,
    headers: { ...(options.raw !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    ...(options.raw !== undefined ? { payload: options.raw } : options.payload !== undefined ? { payload: options.payload as object } : {}),
  });
  return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
}

/** A database on the same connection as `handle` whose statements are listed as sent (drizzle's query logger). */
export function loggedDatabase(handle: DatabaseHandle): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const logger = { logQuery: (query: string) => void statements.push(query) };
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const db = client instanceof PGlite ? drizzlePglite({ client: client as PGlite, schema, logger }) : drizzlePostgres({ client: client as Sql, schema, logger });
  return { db: db as unknown as Database, statements };
}

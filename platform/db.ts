import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from '../drizzle/schema.js';
import { restrictToOwner } from './data-dir.js';
import { InfrastructureError } from './errors.js';
import { withTimeout } from './timeout.js';

export type DatabaseSchema = typeof schema;
/** What every store.ts sees: Drizzle's Postgres database, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, DatabaseSchema>;

export interface DatabaseHandle {
  db: Database;
  /**
   * `pglite`: the embedded database, one process at a time (in memory in this thread, or on disk in
   * a worker thread of this process); `postgres`: a server that many processes share.
   */
  driver: 'pglite' | 'postgres';
  /** Round trip to the server; throws InfrastructureError when it is down. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * In-memory PGlite only: an independent copy of the database as it is now, migrations included
   * (PGlite's clone, about five times quicker than a new instance). Tests fork one per suite.
   */
  fork?(): Promise<DatabaseHandle>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it PGlite is used. */
  databaseUrl?: string | undefined;
  /** Postgres schema for our tables (created when missing); default the server's search_path. */
  schemaName?: string | undefined;
  /**
   * Folder of the PGlite data, served from a worker thread (decision 0093); undefined keeps PGlite
   * in memory, in this thread.
   */
  pgliteDataDir?: string | undefined;
  /** Connections in the postgres.js pool (to the server, or to the embedded database's thread). */
  poolSize?: number;
  /** Longest wait for a PostgreSQL connection. */
  connectTimeoutMs?: number;
  /** Server-side statement_timeout of every PostgreSQL session; also bounds ping(). */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL: `auto` applies the pending migrations (one process at a time); `check` applies
   * none and refuses to start when the database is behind this code (decision 0086).
   */
  migrations?: 'auto' | 'check';
  /** Longest wait for another process's migrations (the advisory lock); default 5 minutes. */
  migrationLockWaitMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;

const migrationsFolder = resolve(fileURLToPath(new URL('../drizzle/migrations', import.meta.url)));

/** A database behind the code (DATABASE_MIGRATE=check), or another process holding the migrations too long. */
export class SchemaVersionError extends Error {
  override name = 'SchemaVersionError';
}

/** The newest migration this code ships (drizzle's journal time of it, the value its table records). */
function expectedMigration(): { count: number; createdAt: number } {
  const migrations = readMigrationFiles({ migrationsFolder });
  return { count: migrations.length, createdAt: migrations.at(-1)?.folderMillis ?? 0 };
}

/**
 * Migrations on PostgreSQL, once however many processes start together (decision 0086): each takes
 * a session advisory lock named after the schema on a connection of its own (a process that dies
 * holding it loses the session, and the lock with it), polled so that no statement outlives
 * statement_timeout; the first migrates, the others find nothing to apply. Then each checks that
 * the database holds the newest migration this code ships.
 */
async function migratePostgresOnce(databaseUrl: string, apply: () => Promise<void>, options: DatabaseOptions): Promise<void> {
  const lockName = `settlement-rail-graph migrations ${options.schemaName ?? 'default'}`;
  const session = postgres(databaseUrl, {
    max: 1,
    onnotice: () => {},
    fetch_types: false,
    connect_timeout: Math.max(1, Math.ceil((options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)),
  });
  try {
    await waitForLock(session, lockName, options.migrationLockWaitMs ?? 300_000);
    if ((options.migrations ?? 'auto') === 'auto') await apply();
    await checkSchemaVersion(session, options.schemaName);
  } finally {
    // Ending the session releases the lock.
    await session.end({ timeout: 5 });
  }
}

async function waitForLock(session: postgres.Sql, lockName: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [row] = await session<Array<{ locked: boolean }>>`select pg_try_advisory_lock(hashtext(${lockName})) as locked`;
    if (row?.locked) return;
    if (Date.now() > deadline) throw new SchemaVersionError(`another process has held the migration lock for over ${Math.round(waitMs / 1000)} s; is a migration stuck?`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function checkSchemaVersion(session: postgres.Sql, schemaName: string | undefined): Promise<void> {
  const expected = expectedMigration();
  const table = `${quoteIdentifier(schemaName ?? 'drizzle')}.${quoteIdentifier('__drizzle_migrations')}`;
  const [exists] = await session<Array<{ found: string | null }>>`select to_regclass(${table})::text as found`;
  const [row] = exists?.found ? await session.unsafe<Array<{ latest: string | null }>>(`select max(created_at)::text as latest from ${table}`) : [{ latest: null }];
  const latest = Number(row?.latest ?? 0);
  if (latest < expected.createdAt) {
    throw new SchemaVersionError(
      `the database schema is behind this code: it holds migrations up to ${latest ? new Date(latest).toISOString() : 'none'}, this code expects ${expected.count} migrations up to ${new Date(expected.createdAt).toISOString()}. Start one process with DATABASE_MIGRATE=auto (the default), or run the migration job, then start this one.`,
    );
  }
}

function quoteIdentifier(identifier: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(identifier)) throw new Error(`unsafe SQL identifier: ${identifier}`);
  return `"${identifier}"`;
}

async function openPostgres(options: DatabaseOptions & { databaseUrl: string }): Promise<DatabaseHandle> {
  const schemaName = options.schemaName;
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = postgres(options.databaseUrl, {
    max: options.poolSize ?? 10,
    onnotice: () => {},
    connect_timeout: Math.max(1, Math.ceil((options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)),
    // A connection dropped by the server (pg_terminate_backend, failover) is replaced, not kept.
    idle_timeout: 60,
    max_lifetime: 30 * 60,
    // postgres.js asks every new connection for the array types of custom types (we have none):
    // a connection reset during that query rejected outside any caller, an unhandled rejection
    // (seen in the fault test). The built-in types need no lookup.
    fetch_types: false,
    connection: {
      statement_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: statementTimeoutMs * 2,
      ...(schemaName ? { search_path: schemaName } : {}),
    },
  });
  const db = drizzlePostgres({ client, schema });
  try {
    // Under the lock: CREATE SCHEMA IF NOT EXISTS is not safe against itself either.
    await migratePostgresOnce(
      options.databaseUrl,
      async () => {
        if (schemaName) await client.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schemaName)}`);
        await migratePostgres(db, { migrationsFolder, ...(schemaName ? { migrationsSchema: schemaName } : {}) });
      },
      options,
    );
  } catch (error) {
    // Without this the pool's reconnect timers would keep a failed start alive.
    await client.end({ timeout: 1 }).catch(() => undefined);
    throw error;
  }
  return {
    db: db as unknown as Database,
    driver: 'postgres',
    ping: async () => {
      await withTimeout(client`select 1`, statementTimeoutMs, 'database ping');
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/** In memory, in this thread: the tests' database (forked per suite) and `openDatabase({})`. */
async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  const client = new PGlite();
  const schemaName = options.schemaName;
  if (schemaName) {
    await client.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schemaName)}; SET search_path TO ${quoteIdentifier(schemaName)}`);
  }
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder, ...(schemaName ? { migrationsSchema: schemaName } : {}) });
  return pgliteHandle(client, options);
}

function pgliteHandle(client: PGlite, options: DatabaseOptions): DatabaseHandle {
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Database,
    driver: 'pglite',
    ping: async () => {
      await withTimeout(db.execute(sql`select 1`), options.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS, 'database ping');
    },
    close: () => client.close(),
    fork: async () => pgliteHandle((await client.clone()) as PGlite, options),
  };
}

/** What the database's thread (platform/pglite-worker.mjs) is started with. */
export interface PgliteWorkerData {
  dataDir: string;
  socketPath: string;
  migrationsFolder: string;
  /** Already checked by quoteIdentifier. */
  schemaName?: string | undefined;
  maxConnections: number;
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
}
export type FromPgliteWorker = { type: 'ready' } | { type: 'failed'; message: string } | { type: 'closed' };
export type ToPgliteWorker = { type: 'close' };

const workers = new WeakMap<DatabaseHandle, Worker>();

/** The thread serving an on-disk embedded database (the crash test ends it). */
export function databaseWorker(handle: DatabaseHandle): Worker | undefined {
  return workers.get(handle);
}

let compiledPglite: Promise<Pick<PgliteWorkerData, 'pgliteWasmModule' | 'initdbWasmModule'>> | undefined;

/**
 * PGlite's two WASM modules, compiled once per process (V8 compiles off this thread) and shared
 * by every database thread it starts: a thread given them starts without compiling 9 MB of WASM.
 */
function pgliteModules(): Promise<Pick<PgliteWorkerData, 'pgliteWasmModule' | 'initdbWasmModule'>> {
  compiledPglite ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all(['pglite.wasm', 'initdb.wasm'].map(async (file) => WebAssembly.compile(await readFile(join(dist, file)))));
    return { pgliteWasmModule: pgliteWasmModule!, initdbWasmModule: initdbWasmModule! };
  })();
  return compiledPglite;
}

/** Starts the database's thread; resolves once it serves, migrated, on `socketPath`. */
function startPgliteWorker(data: PgliteWorkerData): Promise<Worker> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: data, execArgv: [] });
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      worker.off('message', onMessage);
      void worker.terminate();
      reject(error);
    };
    const onMessage = (message: FromPgliteWorker) => {
      if (message.type === 'failed') fail(new Error(message.message));
      if (message.type !== 'ready') return;
      worker.off('error', fail).off('exit', onExit).off('message', onMessage);
      resolve(worker);
    };
    const onExit = (code: number) => fail(new Error(`the database thread exited (code ${code}) before serving`));
    worker.on('message', onMessage).once('error', fail).once('exit', onExit);
  });
}

/** Asks the thread to stop its server and close PGlite (which writes its last state), then ends it. */
async function stopPgliteWorker(worker: Worker, waitMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    worker.on('message', (message: FromPgliteWorker) => message.type === 'closed' && resolve());
    worker.once('exit', () => resolve());
  });
  worker.postMessage({ type: 'close' } satisfies ToPgliteWorker);
  await withTimeout(closed, waitMs, 'closing the database thread').catch(() => undefined);
  await worker.terminate();
}

/**
 * On disk: PGlite in a worker thread (decision 0093), so no write batch, migration or import runs
 * on the request thread. It listens on a Unix socket in a folder of its own (0700: PGlite has no
 * authentication, so never a TCP port), and this thread reaches it with postgres.js, as a server.
 */
/** The socket folders of this process's database threads: removed at exit too, since a start that fails never calls close(). */
const socketFolders = new Set<string>();
let removedAtExit = false;

function privateSocketFolder(): string {
  if (!removedAtExit) process.once('exit', () => [...socketFolders].forEach(removeSocketFolder));
  removedAtExit = true;
  // mkdtemp makes the folder 0700; os.tmpdir() keeps the path far below the 108-byte limit of a socket path.
  const folder = mkdtempSync(join(tmpdir(), 'srg-pglite-'));
  socketFolders.add(folder);
  return folder;
}

function removeSocketFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  socketFolders.delete(folder);
}

async function openPgliteWorker(options: DatabaseOptions & { pgliteDataDir: string }): Promise<DatabaseHandle> {
  const poolSize = options.poolSize ?? 10;
  const socketDir = privateSocketFolder();
  if (options.schemaName) quoteIdentifier(options.schemaName);
  let worker: Worker;
  try {
    worker = await startPgliteWorker({
      ...(await pgliteModules()),
      dataDir: options.pgliteDataDir,
      socketPath: join(socketDir, '.s.PGSQL.5432'),
      migrationsFolder,
      schemaName: options.schemaName,
      maxConnections: poolSize + 2,
    });
  } catch (error) {
    removeSocketFolder(socketDir);
    throw error;
  }
  // PGlite creates its files 0666 whatever the umask; the folders are 0700, so nobody else can
  // reach them, and the files are tightened at open and close as well.
  restrictToOwner(options.pgliteDataDir);
  const client = postgres({
    host: socketDir,
    port: 5432,
    username: 'postgres',
    database: 'postgres',
    ssl: false,
    max: poolSize,
    onnotice: () => {},
    fetch_types: false,
    connect_timeout: Math.max(1, Math.ceil((options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)),
    // No idle_timeout or max_lifetime: the connections share one backend session, which keeps the
    // statements each prepared; a connection replaced would leave its statements there for good.
  });
  let stopped: string | undefined;
  let exited = false;
  let closing: Promise<void> | undefined;
  worker.once('exit', (code) => {
    exited = true;
    stopped ??= `the database thread exited (code ${code})`;
    // Every query waiting on it fails at once (postgres.js's CONNECTION_ENDED: a 503), none hangs.
    void client.end({ timeout: 0 });
  });
  worker.on('error', (error) => (stopped ??= `the database thread failed: ${error.message}`));
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const handle: DatabaseHandle = {
    db: drizzlePostgres({ client, schema }) as unknown as Database,
    driver: 'pglite',
    ping: async () => {
      if (stopped) throw new InfrastructureError('database ping', new Error(stopped));
      await withTimeout(client`select 1`, statementTimeoutMs, 'database ping');
    },
    close: () =>
      (closing ??= (async () => {
        stopped ??= 'the database is closed';
        // Queries under way finish first; then the thread closes PGlite (a dead thread has nothing to close).
        await client.end({ timeout: 5 });
        if (!exited) await stopPgliteWorker(worker, 10_000);
        removeSocketFolder(socketDir);
        restrictToOwner(options.pgliteDataDir);
      })()),
  };
  workers.set(handle, worker);
  return handle;
}

function openEmbedded(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.pgliteDataDir ? openPgliteWorker({ ...options, pgliteDataDir: options.pgliteDataDir }) : openPglite(options);
}

/**
 * One factory, two databases (DESIGN.md §3): PostgreSQL when a URL is given, PGlite otherwise (on
 * disk in a worker thread, reached by the same postgres.js driver; in memory in this thread).
 * Migrations run before the handle is returned, so a caller never sees an old schema.
 * The cast to `Database` is confined here: every driver is PgDatabase with the same schema.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  try {
    return options.databaseUrl ? await openPostgres({ ...options, databaseUrl: options.databaseUrl }) : await openEmbedded(options);
  } catch (error) {
    if (error instanceof SchemaVersionError) throw error;
    throw new InfrastructureError(`opening the ${options.databaseUrl ? 'postgres' : 'pglite'} database`, error);
  }
}

export function pgliteFolder(dataDir: string): string {
  return join(dataDir, 'pglite');
}

/** Drops a schema made for a test run (postgres only; PGlite test databases live in memory). */
export async function dropSchema(databaseUrl: string, schemaName: string): Promise<void> {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schemaName)} CASCADE`);
  } finally {
    await client.end({ timeout: 5 });
  }
}

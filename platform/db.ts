import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  /** Folder of the PGlite data; undefined keeps PGlite in memory. */
  pgliteDataDir?: string | undefined;
  /** Connections in the postgres.js pool. */
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

async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.pgliteDataDir) mkdirSync(options.pgliteDataDir, { recursive: true, mode: 0o700 });
  const client = options.pgliteDataDir ? new PGlite(options.pgliteDataDir) : new PGlite();
  const schemaName = options.schemaName;
  if (schemaName) {
    await client.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schemaName)}; SET search_path TO ${quoteIdentifier(schemaName)}`);
  }
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder, ...(schemaName ? { migrationsSchema: schemaName } : {}) });
  // PGlite creates its files 0666 whatever the umask; the folders are 0700, so nobody else can
  // reach them, and the files are tightened at open and close as well.
  if (options.pgliteDataDir) restrictToOwner(options.pgliteDataDir);
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
    close: async () => {
      await client.close();
      if (options.pgliteDataDir) restrictToOwner(options.pgliteDataDir);
    },
    ...(options.pgliteDataDir ? {} : { fork: async () => pgliteHandle((await client.clone()) as PGlite, options) }),
  };
}

/**
 * One factory, two drivers (DESIGN.md §3): postgres.js when a URL is given, PGlite otherwise.
 * Migrations run before the handle is returned, so a caller never sees an old schema.
 * The cast to `Database` is confined here: both drivers are PgDatabase with the same schema.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  try {
    return options.databaseUrl ? await openPostgres({ ...options, databaseUrl: options.databaseUrl }) : await openPglite(options);
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

import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, dropSchema, openDatabase, SchemaVersionError } from './db.js';

/**
 * Migrations once on PostgreSQL (decision 0086, issue 26). Each open is its own postgres.js pool,
 * so its own sessions, as two processes of the distributed layout are. PostgreSQL only: PGlite is
 * one process by design.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('migrations on PostgreSQL, once for any number of processes', () => {
  const schemas: string[] = [];
  const handles: DatabaseHandle[] = [];
  let counter = 0;
  const freshSchema = () => {
    counter += 1;
    const name = `m_${process.pid}_${Date.now().toString(36)}_${counter}`;
    schemas.push(name);
    return name;
  };
  const open = async (schemaName: string, migrations: 'auto' | 'check' = 'auto') => {
    const handle = await openDatabase({ databaseUrl, schemaName, poolSize: 2, migrations });
    handles.push(handle);
    return handle;
  };
  const appliedMigrations = async (schemaName: string) => {
    const client = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      return await client.unsafe<Array<{ hash: string }>>(`select hash from "${schemaName}"."__drizzle_migrations" order by id`);
    } finally {
      await client.end({ timeout: 1 });
    }
  };

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
    for (const schemaName of schemas.splice(0)) await dropSchema(databaseUrl!, schemaName);
  });

  it('four processes started at once on an empty schema all start, and each migration is applied once', async () => {
    const schemaName = freshSchema();
    const opened = await Promise.all([open(schemaName), open(schemaName), open(schemaName), open(schemaName)]);
    expect(opened).toHaveLength(4);
    const applied = await appliedMigrations(schemaName);
    expect(applied.length).toBeGreaterThan(20);
    expect(new Set(applied.map((row) => row.hash)).size).toBe(applied.length);
    for (const handle of opened) await handle.ping();
  });

  it('DATABASE_MIGRATE=check refuses to start on a database behind the code, and says what to do', async () => {
    const schemaName = freshSchema();
    const refusal = await open(schemaName, 'check').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SchemaVersionError);
    expect((refusal as Error).message).toMatch(/database schema is behind this code: it holds migrations up to none, this code expects \d+ migrations/);
    expect((refusal as Error).message).toContain('DATABASE_MIGRATE=auto');
  });

  it('DATABASE_MIGRATE=check starts once another process has migrated, and applies nothing itself', async () => {
    const schemaName = freshSchema();
    await open(schemaName, 'auto');
    const before = await appliedMigrations(schemaName);
    await open(schemaName, 'check');
    expect(await appliedMigrations(schemaName)).toEqual(before);
  });
});

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema } from './db.js';

/**
 * `npm run db:migrate`, the migration job of deploy/ (decisions 0086, 0090), as the job runs it:
 * on an empty schema it migrates and exits 0; with DATABASE_MIGRATE=check it applies nothing and
 * exits 1 naming the database behind the code. PostgreSQL only (PGlite migrates in its process).
 */
const databaseUrl = process.env.DATABASE_URL;
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const schemas = [`mig_cli_${process.pid}_auto`, `mig_cli_${process.pid}_check`, `mig_cli_${process.pid}_twice`];

function migrate(environment: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...environment };
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'db:migrate'], { cwd: projectRoot, env, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe.runIf(databaseUrl)('npm run db:migrate (the migration job)', () => {
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(databaseUrl!, schema);
  });

  it(
    'migrates an empty schema and exits 0; with DATABASE_MIGRATE=check it refuses one behind the code with exit 1; two processes at once on one empty schema migrate it once',
    { timeout: 180_000 },
    async () => {
      const [auto, check, first, second] = await Promise.all([
        migrate({ DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schemas[0]! }),
        migrate({ DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schemas[1]!, DATABASE_MIGRATE: 'check' }),
        // Issue 26's acceptance: two OS processes started together on an empty database (decision 0086's lock).
        migrate({ DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schemas[2]! }),
        migrate({ DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schemas[2]! }),
      ]);
      for (const together of [first, second]) expect(together).toEqual({ code: 0, stdout: `migrated: schema ${schemas[2]} holds every migration this code ships\n`, stderr: '' });
      const sql = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
      try {
        const applied = await sql<Array<{ hash: string; times: number }>>`select hash, count(*)::int as times from ${sql(schemas[2]!)}.__drizzle_migrations group by hash`;
        expect(applied.length).toBe(readMigrationFiles({ migrationsFolder: fileURLToPath(new URL('../drizzle/migrations', import.meta.url)) }).length);
        expect(applied.filter((row) => row.times !== 1)).toEqual([]);
      } finally {
        await sql.end();
      }
      expect(auto).toEqual({ code: 0, stdout: `migrated: schema ${schemas[0]} holds every migration this code ships\n`, stderr: '' });
      expect(check.code).toBe(1);
      expect(check.stderr).toMatch(/^migration failed: the database schema is behind this code: it holds migrations up to none/);
    },
  );
});

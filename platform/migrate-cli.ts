import { exitWithUsage, parseCommandLine, UsageError } from './cli.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db.js';

const USAGE = `usage: npm run db:migrate
Applies the pending migrations to the PostgreSQL database of DATABASE_URL (in DATABASE_SCHEMA when
set), under the advisory lock every process takes (decision 0086), checks that the database holds
every migration this code ships, and exits: the migration job of a layout whose other processes
start with DATABASE_MIGRATE=check (deploy/compose.yaml, deploy/k8s/). With DATABASE_MIGRATE=check
it applies nothing and only checks (exit 1 when the database is behind the code).
Refused without DATABASE_URL: the embedded PGlite is migrated by the process that holds it.`;

async function main(): Promise<void> {
  parseCommandLine({ usage: USAGE });
  const config = loadConfig();
  const { url, schema, connectTimeoutMs, statementTimeoutMs, migrations } = config.database;
  if (!url) throw new Error('DATABASE_URL is not set: the migration job is for PostgreSQL (PGlite is migrated by npm start)');
  const database = await openDatabase({ databaseUrl: url, schemaName: schema, poolSize: 1, connectTimeoutMs, statementTimeoutMs, migrations });
  await database.close();
  const where = schema ? `schema ${schema}` : 'the default schema';
  console.log(`${migrations === 'auto' ? 'migrated' : 'checked'}: ${where} holds every migration this code ships`);
}

/** The error and its causes, one line each (a refused connection says so under "opening the postgres database"). */
function describe(error: unknown): string {
  const lines: string[] = [];
  for (let current: unknown = error; current !== undefined && lines.length < 6; current = current instanceof Error ? current.cause : undefined) {
    lines.push(`${lines.length === 0 ? 'migration failed' : '  caused by'}: ${current instanceof Error ? current.message : String(current)}`);
  }
  return lines.join('\n');
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) exitWithUsage(USAGE, error);
  console.error(describe(error));
  process.exit(1);
});

import { exitWithUsage, parseCommandLine, UsageError } from '../cli.js';
import type { Config } from '../config.js';
import type { claimDataDir } from '../data-dir.js';
import type { KeyKind } from './api-keys.js';
import type { KeyAdministration } from './keys-administration.js';

const USAGE = `usage:
  npm run keys -- create --kind api|bearer --label <text> [--institution <institution id>] [--limit <requests per minute>]
  npm run keys -- revoke <key id>
  npm run keys -- list
  npm run keys -- institutions
A bearer key without --institution founds a new institution named by its label; with it, the key
joins that institution and sees its payments (decision 0050). An API key has no institution.
It works on DATABASE_URL, or on the PGlite of DATA_DIR (default ./data). While a server holds that
folder, the command goes to the server instead (its admin routes): give it the server's ADMIN_KEY
(decision 0058).`;

type Command = { name: 'create'; kind: KeyKind; label: string; limit: number; institutionId: string | undefined } | { name: 'revoke'; id: string } | { name: 'list' } | { name: 'institutions' };

type Flags = { kind?: string | undefined; label?: string | undefined; limit?: string | undefined; institution?: string | undefined };

/** What `create` was asked for, or a usage error. */
function creationOf(values: Flags, DEFAULT_REQUESTS_PER_MINUTE: number): Command {
  const { kind, label, institution } = values;
  const limit = values.limit === undefined ? DEFAULT_REQUESTS_PER_MINUTE : Number(values.limit);
  if (kind !== 'api' && kind !== 'bearer') throw new UsageError('create needs --kind api or --kind bearer');
  if (!label) throw new UsageError('create needs --label <text>');
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number of requests per minute, at least 1');
  if (kind === 'api' && institution !== undefined) throw new UsageError('an API key belongs to no institution');
  return { name: 'create', kind, label, limit, institutionId: institution };
}

/** The command of the command line, checked before any database is opened or server asked. */
function commandOf(positionals: string[], values: Flags, defaultLimit: number): Command {
  const [name, argument, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest.join(' ')}"`);
  if (name === 'create' && argument === undefined) return creationOf(values, defaultLimit);
  if (name === 'revoke' && argument !== undefined) return { name, id: argument };
  if ((name === 'list' || name === 'institutions') && argument === undefined) return { name };
  throw new UsageError(name === undefined ? 'a command is needed' : `"${positionals.join(' ')}" is not a command`);
}

async function run(command: Command, keys: KeyAdministration): Promise<void> {
  if (command.name === 'create') {
    const created = await keys.create(command.kind, command.label, command.limit, command.institutionId);
    const owner = created.institutionId ? ` of institution ${created.institutionId}${created.institutionCreated ? ' (new)' : ''}` : '';
    console.log(`created ${created.kind} key ${created.id}${owner} (${created.label}, ${created.requestsPerMinute} requests per minute)`);
    console.log(`key (shown once, store it now): ${created.key}`);
  } else if (command.name === 'revoke') {
    console.log((await keys.revoke(command.id)) ? `revoked ${command.id}` : `no active key ${command.id}`);
  } else if (command.name === 'institutions') {
    for (const institution of await keys.institutions()) console.log(`${institution.id}\t${institution.createdAt}\t${institution.name}`);
  } else {
    for (const record of await keys.list()) {
      console.log(`${record.id}\t${record.kind}\t${record.institutionId ?? '-'}\t${record.requestsPerMinute}/min\t${record.revokedAt ? `revoked ${record.revokedAt}` : 'active'}\t${record.label}`);
    }
  }
}

/** On the configured database: DATABASE_URL, or the PGlite of DATA_DIR once this process holds the folder. */
async function onDatabase(config: Config, command: Command, claimed: Awaited<ReturnType<typeof claimDataDir>> | undefined): Promise<void> {
  const [{ systemClock }, { openDatabase, pgliteFolder }, { randomIds }, { createApiKeys }, { directAdministration }] = await Promise.all([
    import('../clock.js'),
    import('../db.js'),
    import('../ids.js'),
    import('./api-keys.js'),
    import('./keys-administration.js'),
  ]);
  const database = await openDatabase({ databaseUrl: config.database.url, schemaName: config.database.schema, pgliteDataDir: pgliteFolder(config.database.dataDir) });
  try {
    await run(command, directAdministration(createApiKeys({ db: database.db, clock: systemClock, ids: randomIds })));
  } finally {
    await database.close();
    await claimed?.release();
  }
}

/**
 * The admin CLI for API keys and institutions. PostgreSQL (DATABASE_URL) is shared: the CLI works
 * on it directly. The embedded PGlite belongs to one process: when no server holds DATA_DIR the CLI
 * claims it and works on it; when a server holds it, the CLI asks that server (DATA_DIR/server.json
 * says where it listens) with ADMIN_KEY. A created key is printed once; only its hash is kept.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine({
    usage: USAGE,
    allowPositionals: true,
    options: { kind: { type: 'string' }, label: { type: 'string' }, limit: { type: 'string' }, institution: { type: 'string' } },
  });
  // Imported once the command line is read: --help and an unknown option load none of them.
  const [{ loadConfig }, { claimDataDir, DataDirInUseError }, { findRunningServer }, { DEFAULT_REQUESTS_PER_MINUTE }, { remoteAdministration }] = await Promise.all([
    import('../config.js'),
    import('../data-dir.js'),
    import('../running-server.js'),
    import('./api-keys.js'),
    import('./keys-administration.js'),
  ]);
  const command = commandOf(positionals, values, DEFAULT_REQUESTS_PER_MINUTE);
  const config = loadConfig();
  if (config.database.url) return onDatabase(config, command, undefined);
  const { dataDir } = config.database;
  try {
    return await onDatabase(config, command, await claimDataDir(dataDir));
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const server = findRunningServer(dataDir);
    if (!server) throw error;
    const adminKey = config.access.adminKey;
    if (adminKey === undefined) {
      throw new Error(
        `${error.message}\nThat server (pid ${server.pid}) issues keys at ${server.url}/admin/keys to its admin key: run this command with ADMIN_KEY set to the server's (decision 0058).`,
        { cause: error },
      );
    }
    console.error(`(through the server that holds ${dataDir}: pid ${server.pid}, ${server.url})`);
    return run(command, remoteAdministration(server.url, adminKey));
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) exitWithUsage(USAGE, error);
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

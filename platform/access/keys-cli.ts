import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { claimDataDir } from '../data-dir.js';
import { openDatabase, pgliteFolder } from '../db.js';
import { randomIds } from '../ids.js';
import { createApiKeys, DEFAULT_REQUESTS_PER_MINUTE, type KeyKind } from './api-keys.js';

const USAGE = `usage:
  npm run keys -- create --kind api|bearer --label <text> [--institution <institution id>] [--limit <requests per minute>]
  npm run keys -- revoke <key id>
  npm run keys -- list
  npm run keys -- institutions
A bearer key without --institution founds a new institution named by its label; with it, the key
joins that institution and sees its payments (decision 0050). An API key has no institution.`;

/** What `create` was asked for, or the usage. */
function creationOf(values: { kind?: string | undefined; label?: string | undefined; limit?: string | undefined; institution?: string | undefined }) {
  const { kind, label, institution } = values;
  const limit = values.limit === undefined ? DEFAULT_REQUESTS_PER_MINUTE : Number(values.limit);
  if ((kind !== 'api' && kind !== 'bearer') || !label || !Number.isInteger(limit) || limit < 1) throw new Error(USAGE);
  if (kind === 'api' && institution !== undefined) throw new Error(`an API key belongs to no institution\n${USAGE}`);
  return { kind: kind as KeyKind, label, limit, institutionId: institution };
}

/**
 * The admin CLI for API keys and institutions, on the configured database (DATABASE_URL, or the
 * PGlite of DATA_DIR while no server holds that folder). A created key is printed once; only its
 * hash is kept.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { kind: { type: 'string' }, label: { type: 'string' }, limit: { type: 'string' }, institution: { type: 'string' } },
  });
  const [command, argument] = positionals;
  if (!command || !['create', 'revoke', 'list', 'institutions'].includes(command)) throw new Error(USAGE);
  // The arguments are checked before the database is opened.
  const toCreate = command === 'create' ? creationOf(values) : undefined;
  if (command === 'revoke' && !argument) throw new Error(USAGE);
  const config = loadConfig();
  const claim = config.database.url ? undefined : await claimDataDir(config.database.dataDir);
  const database = await openDatabase({ databaseUrl: config.database.url, schemaName: config.database.schema, pgliteDataDir: pgliteFolder(config.database.dataDir) });
  try {
    const keys = createApiKeys({ db: database.db, clock: systemClock, ids: randomIds });
    if (toCreate) {
      const { record, key } = await keys.create(toCreate.kind, toCreate.label, toCreate.limit, toCreate.institutionId === undefined ? {} : { institutionId: toCreate.institutionId });
      const owner = record.institutionId ? ` of institution ${record.institutionId}${toCreate.institutionId === undefined ? ' (new)' : ''}` : '';
      console.log(`created ${record.kind} key ${record.id}${owner} (${record.label}, ${record.requestsPerMinute} requests per minute)`);
      console.log(`key (shown once, store it now): ${key}`);
    } else if (command === 'revoke' && argument) {
      console.log((await keys.revoke(argument)) ? `revoked ${argument}` : `no active key ${argument}`);
    } else if (command === 'institutions') {
      for (const institution of await keys.institutions()) console.log(`${institution.id}\t${institution.createdAt.toISOString()}\t${institution.name}`);
    } else {
      for (const record of await keys.list()) {
        console.log(`${record.id}\t${record.kind}\t${record.institutionId ?? '-'}\t${record.requestsPerMinute}/min\t${record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active'}\t${record.label}`);
      }
    }
  } finally {
    await database.close();
    await claim?.release();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

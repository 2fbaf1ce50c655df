import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { claimDataDir } from '../data-dir.js';
import { openDatabase, pgliteFolder } from '../db.js';
import { randomIds } from '../ids.js';
import { createApiKeys, DEFAULT_REQUESTS_PER_MINUTE, type KeyKind } from './api-keys.js';

const USAGE = `usage:
  npm run keys -- create --kind api|bearer --label <text> [--limit <requests per minute>]
  npm run keys -- revoke <key id>
  npm run keys -- list`;

/**
 * The admin CLI for API keys, on the configured database (DATABASE_URL, or the PGlite of DATA_DIR
 * while no server holds that folder). A created key is printed once; only its hash is kept.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { kind: { type: 'string' }, label: { type: 'string' }, limit: { type: 'string' } },
  });
  const [command, argument] = positionals;
  if (!command || !['create', 'revoke', 'list'].includes(command)) throw new Error(USAGE);
  const config = loadConfig();
  const claim = config.database.url ? undefined : await claimDataDir(config.database.dataDir);
  const database = await openDatabase({ databaseUrl: config.database.url, schemaName: config.database.schema, pgliteDataDir: pgliteFolder(config.database.dataDir) });
  try {
    const keys = createApiKeys({ db: database.db, clock: systemClock, ids: randomIds });
    if (command === 'create') {
      const kind = values.kind as KeyKind | undefined;
      const limit = values.limit === undefined ? DEFAULT_REQUESTS_PER_MINUTE : Number(values.limit);
      if ((kind !== 'api' && kind !== 'bearer') || !values.label || !Number.isInteger(limit) || limit < 1) throw new Error(USAGE);
      const { record, key } = await keys.create(kind, values.label, limit);
      console.log(`created ${record.kind} key ${record.id} (${record.label}, ${record.requestsPerMinute} requests per minute)`);
      console.log(`key (shown once, store it now): ${key}`);
    } else if (command === 'revoke') {
      if (!argument) throw new Error(USAGE);
      console.log((await keys.revoke(argument)) ? `revoked ${argument}` : `no active key ${argument}`);
    } else {
      for (const record of await keys.list()) {
        console.log(`${record.id}\t${record.kind}\t${record.requestsPerMinute}/min\t${record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active'}\t${record.label}`);
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

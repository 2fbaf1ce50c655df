import type { Config } from '../platform/config.js';
import { claimDataDir, type DataDirClaim } from '../platform/data-dir.js';
import { type DatabaseHandle, openDatabase, pgliteFolder } from '../platform/db.js';
import { createHmacSigner, type HmacSigner, loadOrCreateSigningKey } from '../platform/signing.js';

/**
 * What a process serving subgraphs keeps: the claimed data folder, the quote signer and the open
 * database. Its imports are few, so that `npm start` can begin opening the database while the
 * subgraphs, Apollo and viem are still being imported (decision 0098).
 */
export interface PlatformStorage {
  signer: HmacSigner;
  database: DatabaseHandle;
  /** The caller's database (not opened here): the caller closes it. */
  ownsDatabase: boolean;
  /** Closes the database opened here and releases the data folder. */
  close(): Promise<void>;
}

/**
 * The data folder is claimed (one process at a time) only when something is kept in it: the PGlite
 * files, or a generated signing key. `database`: one the caller opened and closes.
 */
export async function openPlatformStorage(config: Config, progress: (message: string) => void, database?: DatabaseHandle): Promise<PlatformStorage> {
  const usesDataDir = (!database && !config.database.url) || !config.signing.quoteSigningKey || !config.signing.issuerSigningJwk;
  let claim: DataDirClaim | undefined;
  if (usesDataDir) {
    progress(`claiming the data folder ${config.database.dataDir}`);
    claim = await claimDataDir(config.database.dataDir, progress);
  }
  try {
    // The key first: a bad key file stops the start before the database is opened or migrated.
    const signer = createHmacSigner(config.signing.quoteSigningKey ?? loadOrCreateSigningKey(config.database.dataDir));
    const opened = database ?? (await openConfiguredDatabase(config, progress));
    return {
      signer,
      database: opened,
      ownsDatabase: !database,
      async close() {
        if (!database) await opened.close();
        await claim?.release();
      },
    };
  } catch (error) {
    await claim?.release();
    throw error;
  }
}

async function openConfiguredDatabase(config: Config, progress: (message: string) => void): Promise<DatabaseHandle> {
  const { url, schema, poolSize, connectTimeoutMs, statementTimeoutMs } = config.database;
  progress(
    url
      ? 'connecting to PostgreSQL (DATABASE_URL) and applying migrations'
      : `opening PGlite in ${pgliteFolder(config.database.dataDir)} and applying migrations (the first start creates the database)`,
  );
  return openDatabase({
    databaseUrl: url,
    schemaName: schema,
    pgliteDataDir: pgliteFolder(config.database.dataDir),
    poolSize,
    connectTimeoutMs,
    statementTimeoutMs,
    migrations: config.database.migrations,
  });
}

import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { exitWithUsage, parseCommandLine, UsageError } from './cli.js';
import { loadConfig } from './config.js';
import { claimDataDir } from './data-dir.js';

const USAGE = `usage: npm run reset [-- --yes]
Deletes the embedded data folder DATA_DIR (default ./data): the PGlite database, the keys generated
there (quote signing, credential issuer, webhooks), the embedded chain with its journal and its secret
mnemonic. The next npm start makes a new one. Refused while a server holds the folder. On a terminal
it asks first; where no one can answer (a script, CI) it deletes only with --yes (decision 0059).
A PostgreSQL database (DATABASE_URL) is never touched.`;

/** What platform/data-dir.ts makes in a folder it claims: the owner record and the lock (kept until released). */
const OWNER_FILE = 'owner.json';
const LOCK_ENTRY = 'owner.lock';

async function confirmed(dataDir: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) throw new UsageError(`not deleting ${dataDir} without --yes: no one is at a terminal to confirm (npm run reset -- --yes)`);
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await prompt.question(`Delete ${dataDir}: the database, its generated keys and the embedded chain's accounts? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseCommandLine({ usage: USAGE, options: { yes: { type: 'boolean', short: 'y' } } });
  const config = loadConfig();
  const dataDir = resolve(config.database.dataDir);
  if (config.database.url) console.log('DATABASE_URL is set: its database is not touched, only the data folder.');
  if (!existsSync(dataDir)) return console.log(`nothing to reset: ${dataDir} does not exist`);
  // Never a folder that is not ours (DATA_DIR=. would be the project): every claimed data folder has an owner record.
  if (!existsSync(join(dataDir, OWNER_FILE))) throw new Error(`${dataDir} has no ${OWNER_FILE}, so it is not a data folder of this project: nothing deleted`);
  // Refused, naming the owner's pid, while a server holds it.
  const claim = await claimDataDir(dataDir);
  try {
    if (!existsSync(join(dataDir, LOCK_ENTRY))) throw new Error(`the data folder lock is not at ${join(dataDir, LOCK_ENTRY)}: nothing deleted`);
    if (!(await confirmed(dataDir, values.yes === true))) return console.log('nothing deleted');
    // Under the lock, so no server starts on a half-deleted folder; the lock goes with the release.
    for (const entry of readdirSync(dataDir)) if (entry !== LOCK_ENTRY) rmSync(join(dataDir, entry), { recursive: true, force: true });
  } finally {
    await claim.release();
  }
  // Empty now; removed only while it stays empty (a server that started since keeps its folder).
  try {
    rmdirSync(dataDir);
  } catch {
    // ENOTEMPTY: a new owner is there already.
  }
  console.log(`deleted ${dataDir}; the next npm start makes a new one`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) exitWithUsage(USAGE, error);
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

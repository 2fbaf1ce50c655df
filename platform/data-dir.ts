import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import lockfile from 'proper-lockfile';

/**
 * The embedded data folder belongs to one process at a time. PGlite is Postgres compiled to WASM
 * with no postmaster: two processes opening one folder each see only their own writes and corrupt
 * the files. So the folder is claimed first:
 * 1. A lock (proper-lockfile: an atomic mkdir whose mtime the holder refreshes) refuses a second
 *    process at once, naming the owner's pid, when the owner is alive on this host.
 * 2. A lock left by a killed process goes stale after STALE_MS; the next start waits that long
 *    and takes it over, so `kill -9` then `npm start` recovers by itself.
 * 3. Nothing in the folder is readable or writable by other users: the process umask becomes 077
 *    and what an older version left is tightened.
 */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

export interface DataDirClaim {
  path: string;
  release(): Promise<void>;
}

const STALE_MS = 10_000;
const OWNER_FILE = 'owner.json';
const LOCK_DIR = 'owner.lock';

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
}

function readOwner(dataDir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, OWNER_FILE), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

/** Whether a process of this host is alive (signal 0; EPERM: alive, another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Clears group and other permissions on everything under the folder (an older version left 0777 files). */
export function restrictToOwner(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) restrictToOwner(join(path, entry));
}

function restrictUmask(): void {
  // process.umask() cannot be changed from a worker thread; the main thread's applies there.
  if (isMainThread) process.umask(0o077);
}

async function lockFolder(dataDir: string, retries: number) {
  return lockfile.lock(dataDir, {
    lockfilePath: join(dataDir, LOCK_DIR),
    stale: STALE_MS,
    retries: retries === 0 ? 0 : { retries, minTimeout: 1000, maxTimeout: 1000 },
    onCompromised: (error) => {
      // Another process took the folder while we hold it open: going on would corrupt it.
      process.emitWarning(`data folder lock lost: ${error.message}`);
      process.exit(70);
    },
  });
}

export async function claimDataDir(dataDir: string, log: (message: string) => void = () => {}): Promise<DataDirClaim> {
  restrictUmask();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let release: () => Promise<void>;
  try {
    release = await lockFolder(dataDir, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const owner = readOwner(dataDir);
    if (!owner || (owner.host === hostname() && isAlive(owner.pid))) {
      const who = owner ? `process ${owner.pid} (started ${owner.startedAt})` : 'another process';
      throw new DataDirInUseError(`The data folder ${dataDir} is in use by ${who}. Stop it, or give this process its own DATA_DIR (or DATABASE_URL for a shared PostgreSQL).`, { cause: error });
    }
    log(`the previous owner of ${dataDir} (pid ${owner.pid}) is gone; waiting up to ${STALE_MS / 1000} s for its lock to expire`);
    release = await lockFolder(dataDir, Math.ceil(STALE_MS / 1000) + 2);
  }
  const owner: Owner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  writeFileSync(join(dataDir, OWNER_FILE), JSON.stringify(owner), { mode: 0o600 });
  restrictToOwner(dataDir);
  return { path: dataDir, release };
}

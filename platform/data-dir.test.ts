import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claimDataDir, DataDirInUseError } from './data-dir.js';
import { openDatabase, pgliteFolder } from './db.js';

const freshDir = () => join(mkdtempSync(join(tmpdir(), 'srg-datadir-')), 'data');

function filesUnder(path: string): string[] {
  const entries = readdirSync(path, { withFileTypes: true });
  return [path, ...entries.flatMap((entry) => (entry.isDirectory() ? filesUnder(join(path, entry.name)) : [join(path, entry.name)]))];
}

describe('the data folder belongs to one process', () => {
  it('finding: a second claim on the same DATA_DIR is refused at once, naming the owner', async () => {
    const dataDir = freshDir();
    const first = await claimDataDir(dataDir);
    try {
      const second = claimDataDir(dataDir);
      await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
      await expect(claimDataDir(dataDir)).rejects.toThrow(new RegExp(`in use by process ${process.pid}`));
    } finally {
      await first.release();
    }
    const again = await claimDataDir(dataDir);
    await again.release();
  });

  it('finding: two processes on one DATA_DIR both started; now the second process exits with the reason', async () => {
    const dataDir = freshDir();
    const claim = await claimDataDir(dataDir);
    try {
      const script = fileURLToPath(new URL('./data-dir.ts', import.meta.url));
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', `import { claimDataDir } from ${JSON.stringify(script)}; await claimDataDir(${JSON.stringify(dataDir)});`],
        { encoding: 'utf8', timeout: 30_000 },
      );
      expect(child.status).not.toBe(0);
      expect(child.stderr).toMatch(/DataDirInUseError: The data folder .* is in use by process \d+/);
    } finally {
      await claim.release();
    }
  });

  it('takes over the lock of a killed owner once it is stale (kill -9, then start again)', async () => {
    const dataDir = freshDir();
    mkdirSync(join(dataDir, 'owner.lock'), { recursive: true });
    // A pid that is not running: the lock is older than the stale period and its owner is gone.
    writeFileSync(join(dataDir, 'owner.json'), JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), startedAt: '2026-01-01T00:00:00Z' }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dataDir, 'owner.lock'), old, old);
    const claim = await claimDataDir(dataDir);
    await claim.release();
  });
});

describe('the data folder is private to its owner', () => {
  it('finding: PGlite data files were world-writable; none is writable or readable by others now', async () => {
    const dataDir = freshDir();
    const claim = await claimDataDir(dataDir);
    const database = await openDatabase({ pgliteDataDir: pgliteFolder(dataDir) });
    await database.close();
    await claim.release();
    const exposed = filesUnder(dataDir).filter((path) => (statSync(path).mode & 0o077) !== 0);
    expect(exposed).toEqual([]);
  });

  it('tightens what an older version left behind', async () => {
    const dataDir = freshDir();
    mkdirSync(join(dataDir, 'pglite', 'base'), { recursive: true });
    writeFileSync(join(dataDir, 'pglite', 'base', 'old-file'), 'x');
    chmodSync(join(dataDir, 'pglite', 'base', 'old-file'), 0o777);
    chmodSync(join(dataDir, 'pglite'), 0o777);
    const claim = await claimDataDir(dataDir);
    await claim.release();
    expect(statSync(join(dataDir, 'pglite', 'base', 'old-file')).mode & 0o077).toBe(0);
    expect(statSync(join(dataDir, 'pglite')).mode & 0o077).toBe(0);
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { spawnServer } from './server-process.js';

const run = promisify(execFile);
const ADMIN_KEY = 'admin-key-of-the-running-server-0123456789';

/**
 * Issue 22 item 6 as a newcomer meets it: `npm start`, then `npm run keys` in another terminal
 * without stopping the server (decision 0058), then Ctrl-C, then the same command on the folder.
 */
describe('npm run keys beside a running server, then after it stopped', () => {
  it('finding: a key cost a stop and a restart; through the running server with ADMIN_KEY it does not, and after the stop the CLI opens the folder itself', { timeout: 240_000 }, async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'srg-running-')), 'data');
    const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const cli = (script: string, environment: Record<string, string>, ...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...base, ...environment }, encoding: 'utf8', timeout: 60_000 });
    const keys = (environment: Record<string, string>, ...args: string[]) => cli('platform/access/keys-cli.ts', environment, ...args);

    const server = await spawnServer('the all-in-one server', { ...base, PORT: '0', ADMIN_KEY }, 150_000);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    try {
      // 1. The server says where it listens, in the folder it holds.
      const announced = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { pid: number; url: string };
      expect(announced).toMatchObject({ pid: server.child.pid, url: server.base });

      // 2. Without ADMIN_KEY the CLI is refused the folder and says what to do.
      await expect(keys({}, 'list')).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/in use by process \d+[\s\S]*ADMIN_KEY/) });

      // 3. With the server's admin key the command goes through the server: same output as on the folder.
      const created = await keys({ ADMIN_KEY }, 'create', '--kind', 'bearer', '--label', 'Running Bank', '--limit', '60');
      expect(created.stderr).toContain(`through the server that holds ${dataDir}: pid ${server.child.pid}, ${server.base}`);
      const [, id, institution] = /created bearer key (key_\S+) of institution (inst_\S+) \(new\) \(Running Bank, 60 requests per minute\)/.exec(created.stdout) ?? [];
      expect(id).toBeDefined();
      const key = /key \(shown once, store it now\): (srb_\S+)/.exec(created.stdout)?.[1];
      expect(key).toBeDefined();
      expect((await keys({ ADMIN_KEY }, 'list')).stdout).toContain(`${id}\tbearer\t${institution}\t60/min\tactive\tRunning Bank`);
      // The key works at once, on the running server.
      const payments = await fetch(`${server.base}/integration/payments?tmsReference=none`, { headers: { authorization: `Bearer ${key}` } });
      expect(payments.status).not.toBe(401);

      // 4. Refusals: a wrong admin key through the CLI; a stranger and the institution's own key at the route.
      await expect(keys({ ADMIN_KEY: `${ADMIN_KEY}-wrong` }, 'list')).rejects.toMatchObject({ stderr: expect.stringContaining('refused ADMIN_KEY') });
      for (const headers of [{}, { authorization: `Bearer ${key}` }] as Array<Record<string, string>>) {
        const refused = await fetch(`${server.base}/admin/keys`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'bearer', label: 'Intruder' }),
        });
        expect(refused.status).toBe(401);
      }

      // 5. npm run reset refuses while the server holds the folder.
      await expect(cli('platform/reset-cli.ts', {}, '--yes')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('is in use by process') });
    } finally {
      server.child.kill('SIGTERM');
    }

    // 6. The server says it has stopped, and forgets where it listened.
    expect(await exited).toBe(0);
    expect(server.lines.some((line) => /^stopped \(SIGTERM\): every in-flight request was answered, the database is closed/.test(line))).toBe(true);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);

    // 7. Stopped: the CLI opens the folder itself and finds the key issued through the server.
    const listed = await keys({}, 'list');
    expect(listed.stderr).not.toContain('through the server');
    expect(listed.stdout).toContain('\tRunning Bank');

    // 8. And the folder can be reset, asking nothing with --yes.
    const reset = await cli('platform/reset-cli.ts', {}, '--yes');
    expect(reset.stdout).toContain(`deleted ${dataDir}`);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('npm run reset where no one can answer (decision 0059)', () => {
  const reset = (dataDir: string, ...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'platform/reset-cli.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('asks nothing and deletes nothing without --yes (a usage error, exit 2); never deletes a folder that is not a data folder', { timeout: 120_000 }, async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'srg-reset-')), 'data');
    mkdirSync(join(dataDir, 'pglite'), { recursive: true });
    writeFileSync(join(dataDir, 'owner.json'), '{}');
    await expect(reset(dataDir)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('without --yes') });
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);

    const notOurs = mkdtempSync(join(tmpdir(), 'srg-not-data-'));
    writeFileSync(join(notOurs, 'notes.txt'), 'keep me');
    await expect(reset(notOurs, '--yes')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('not a data folder of this project') });
    expect(readFileSync(join(notOurs, 'notes.txt'), 'utf8')).toBe('keep me');
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm run keys (the admin CLI)', () => {
  // One database folder; each command is a process that opens it (list and revoke call the same tested store functions).
  it('creates a bearer key founding an institution, a second key joining it, and lists both under it; an unknown institution is refused', { timeout: 120_000 }, async () => {
    const environment = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: join(mkdtempSync(join(tmpdir(), 'srg-keys-')), 'data') };
    const keys = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'platform/access/keys-cli.ts', ...args], { env: environment });
    // 1. A bearer key without --institution founds one, named by its label.
    const created = await keys('create', '--kind', 'bearer', '--label', 'Example Bank', '--limit', '50');
    const [, id, institution] = /created bearer key (key_\S+) of institution (inst_\S+) \(new\) \(Example Bank, 50 requests per minute\)/.exec(created.stdout) ?? [];
    expect(id).toBeDefined();
    expect(/key \(shown once, store it now\): (srb_\S+)/.exec(created.stdout)?.[1]).toBeDefined();
    // 2. A second desk of the same institution.
    const joined = await keys('create', '--kind', 'bearer', '--label', 'Example Bank hub', '--institution', institution!);
    const secondId = new RegExp(`created bearer key (key_\\S+) of institution ${institution} \\(Example Bank hub, 1000 requests per minute\\)`).exec(joined.stdout)?.[1];
    expect(secondId).toBeDefined();
    // 3. Both listed under it.
    const listed = (await keys('list')).stdout.trim().split('\n');
    expect(listed).toEqual(expect.arrayContaining([`${id}\tbearer\t${institution}\t50/min\tactive\tExample Bank`, `${secondId}\tbearer\t${institution}\t1000/min\tactive\tExample Bank hub`]));
    // 4. No key joins an institution that does not exist, and an API key joins none (refused before the database is opened).
    await expect(keys('create', '--kind', 'bearer', '--label', 'Typo Bank', '--institution', 'inst_nosuch')).rejects.toMatchObject({ stderr: expect.stringContaining('no institution inst_nosuch') });
    await expect(keys('create', '--kind', 'api', '--label', 'Dashboard', '--institution', institution!)).rejects.toMatchObject({
      stderr: expect.stringContaining('an API key belongs to no institution'),
    });
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm run keys (the admin CLI)', () => {
  // One process that opens the database (list and revoke call the same tested store functions).
  it('creates a key and prints it once with its id', { timeout: 60_000 }, async () => {
    const environment = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: join(mkdtempSync(join(tmpdir(), 'srg-keys-')), 'data') };
    const keys = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'platform/access/keys-cli.ts', ...args], { env: environment });
    const created = await keys('create', '--kind', 'bearer', '--label', 'Example Bank', '--limit', '50');
    const id = /created bearer key (key_\S+) \(Example Bank, 50 requests per minute\)/.exec(created.stdout)?.[1];
    const key = /key \(shown once, store it now\): (srb_\S+)/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    expect(key).toBeDefined();
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OTHER_SCRIPTS, OUR_CLIS, packageJson } from './cli-scripts.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** `npm run --silent <script> -- <args>` as a person types it; resolves with the exit code and both streams. */
function npmRun(script: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // A data folder of the run's own: a CLI that ignored --help would find nothing of the project's to change.
  const env = {
    PATH: `${join(projectRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '',
    DATA_DIR: join(mkdtempSync(join(tmpdir(), 'srg-help-')), 'data'),
    LOG_LEVEL: 'silent',
  };
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: projectRoot, env, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('every script of package.json is sorted: a CLI of ours, or another with why', () => {
  it('no script is in neither list, and none in both', () => {
    const scripts = Object.keys(packageJson.scripts);
    const sorted = new Set<string>([...OUR_CLIS, ...Object.keys(OTHER_SCRIPTS)]);
    expect(scripts.filter((script) => !sorted.has(script))).toEqual([]);
    expect(OUR_CLIS.filter((script) => script in OTHER_SCRIPTS)).toEqual([]);
    expect(OUR_CLIS.filter((script) => !scripts.includes(script))).toEqual([]);
  });
});

describe.concurrent('finding: npm run keys -- --help and npm run serve -- --help failed; every CLI of ours answers --help and refuses an unknown option', () => {
  it.each(OUR_CLIS)('npm run %s -- --help prints the usage on stdout and exits 0', { timeout: 180_000 }, async (script) => {
    const { code, stdout, stderr } = await npmRun(script, '--help');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^usage/);
  });

  it.each(OUR_CLIS)('npm run %s -- --no-such-option prints what was wrong and the usage on stderr and exits 2', { timeout: 180_000 }, async (script) => {
    const { code, stdout, stderr } = await npmRun(script, '--no-such-option');
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown option '--no-such-option'[\s\S]*\nusage/);
    expect(stdout).toBe('');
  });
});

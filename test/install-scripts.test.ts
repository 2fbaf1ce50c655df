import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageJson } from './cli-scripts.js';

/**
 * `npm install` runs no dependency's install script unreviewed (decision 0059): every package of
 * the lock that has one is named in package.json's allowScripts (false: not run, the project needs
 * none of them; true: run, reviewed), so npm 11 prints no "install scripts not yet covered"
 * warning and npm 12, which blocks unreviewed scripts, installs the same tree. A dependency that
 * brings a new install script fails here until it is reviewed (`npm install-scripts ls`).
 */
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
};

/** The package name of a lock path (`node_modules/a/node_modules/@s/b` is `@s/b`). */
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts (npm allowScripts)', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
    .map(([path, entry]) => ({ name: nameOf(path), version: entry.version ?? '' }));
  const allowScripts = packageJson.allowScripts ?? {};
  const covers = (entry: string, pkg: { name: string; version: string }) => entry === pkg.name || entry === `${pkg.name}@${pkg.version}`;

  it('finding: npm install listed eight packages whose install scripts no one had reviewed; each is now named in allowScripts', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((pkg) => !Object.keys(allowScripts).some((entry) => covers(entry, pkg))).map((pkg) => `${pkg.name}@${pkg.version}`)).toEqual([]);
  });

  it('no allowScripts entry is stale: each names a locked package that has an install script', () => {
    expect(Object.keys(allowScripts).filter((entry) => !withScripts.some((pkg) => covers(entry, pkg)))).toEqual([]);
  });

  it('the peer that npm overrode silently is declared: unstorage (deep under x402) runs with our ioredis, whose Redis driver it never loads', () => {
    expect(packageJson.overrides).toMatchObject({ unstorage: { ioredis: '$ioredis' } });
  });
});

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SUBGRAPHS = join(ROOT, 'subgraphs');

/** Every domain barrel of every subgraph: the family ones (subgraphs/<name>/<family>/domain/index.ts) and the shared ones. */
function domainBarrels(): string[] {
  return readdirSync(SUBGRAPHS, { recursive: true, encoding: 'utf8' })
    .filter((path) => /(^|\/)domain\/index\.ts$/.test(path))
    .map((path) => join(SUBGRAPHS, path))
    .sort();
}

describe('domain barrels', () => {
  it('every subgraph has its pure logic behind at least one domain barrel', () => {
    const subgraphs = readdirSync(SUBGRAPHS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const withBarrel = new Set(domainBarrels().map((path) => relative(SUBGRAPHS, path).split('/')[0]));
    expect(subgraphs.filter((name) => !withBarrel.has(name))).toEqual([]);
    expect(subgraphs).toHaveLength(5);
  });

  it('no two domain barrels export the same name', async () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const path of domainBarrels()) {
      const barrel = relative(ROOT, path);
      for (const name of Object.keys(await import(path))) {
        const owner = seen.get(name);
        if (owner) clashes.push(`${name} (${owner}, ${barrel})`);
        seen.set(name, barrel);
      }
    }
    expect(clashes).toEqual([]);
  });
});

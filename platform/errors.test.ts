import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalog, isUnreachable, renderErrorCatalogMarkdown } from './errors.js';

describe('error catalog', () => {
  it('docs/errors.md is generated from the catalog (npm run docs:errors)', () => {
    const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
    expect(doc).toBe(renderErrorCatalogMarkdown());
  });

  it.each(Object.entries(errorCatalog))('%s has a code prefixed by its area and a 4xx/5xx status', (code, entry) => {
    expect(code).toMatch(/^((GEN|GQL|FEE|FCT|CMP|PAY|INT)_ERR_[A-Z_]+|SUBGRAPH_UNAVAILABLE)$/);
    expect(entry.status).toBeGreaterThanOrEqual(400);
    expect(entry.status).toBeLessThan(600);
  });
});

describe('isUnreachable: a dependency that did not answer', () => {
  const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
  const named = (name: string) => Object.assign(new Error(name), { name });

  it('finds a connection failure along the cause chain (drizzle wraps postgres.js, viem wraps fetch)', () => {
    expect(isUnreachable(new Error('Failed query: select ...', { cause: coded('write CONNECTION_CLOSED 127.0.0.1:5432', 'CONNECTION_CLOSED') }))).toBe(true);
    expect(isUnreachable(new Error('fetch failed', { cause: coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') }))).toBe(true);
    expect(isUnreachable(coded('canceling statement due to statement timeout', '57014'))).toBe(true);
    expect(isUnreachable(new Error('outer', { cause: named('HttpRequestError') }))).toBe(true);
  });

  it('is false for what the dependency answered: a constraint, a syntax error, a plain error', () => {
    expect(isUnreachable(coded('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isUnreachable(new Error('Failed query', { cause: coded('syntax error', '42601') }))).toBe(false);
    expect(isUnreachable(new Error('boom'))).toBe(false);
    expect(isUnreachable('ECONNREFUSED')).toBe(false);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalog, renderErrorCatalogMarkdown } from './errors.js';

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

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { derivedFeesFatf, FEES_FATF } from '../scripts/derive-fees-fatf.js';

// Datasets derived from another subgraph's data by a script: each must be what its script writes
// from the source as it is now (run `npm run data:derive` after the source changes).

describe('derived datasets', () => {
  it('the fees FATF standing is what scripts/derive-fees-fatf.ts derives from the compliance FATF lists now', () => {
    expect(readFileSync(new URL(`../${FEES_FATF}`, import.meta.url), 'utf8')).toBe(derivedFeesFatf());
  });
});

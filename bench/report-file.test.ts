import { describe, expect, it } from 'vitest';
import { replaceSection, sectionOf, SOAK_HEADING } from './report-file.js';

// docs/benchmarks.md is written whole by npm run bench and its Soak section by npm run soak: each
// keeps the other's part.

const BENCH = '# Benchmarks\n\n## 1. REST\n\nrows\n';
const SOAK = `${SOAK_HEADING}\n\nfigures of one run\n`;

describe('the Soak section of docs/benchmarks.md', () => {
  it('is appended when absent, and replaced in place when present, the rest untouched', () => {
    const once = replaceSection(BENCH, SOAK_HEADING, SOAK);
    expect(once).toBe(`${BENCH}\n${SOAK}`);
    const middle = `${once}\n## 9. Later\n\nmore\n`;
    expect(replaceSection(middle, SOAK_HEADING, `${SOAK_HEADING}\n\nfigures of the next run\n`)).toBe(`${BENCH}\n${SOAK_HEADING}\n\nfigures of the next run\n\n## 9. Later\n\nmore\n`);
  });

  it('is read back whole (to the next section) for npm run bench to keep, and is undefined when absent', () => {
    expect(sectionOf(`${BENCH}\n${SOAK}\n## 9. Later\n`, SOAK_HEADING)).toBe(`${SOAK}`);
    expect(sectionOf(BENCH, SOAK_HEADING)).toBeUndefined();
  });
});

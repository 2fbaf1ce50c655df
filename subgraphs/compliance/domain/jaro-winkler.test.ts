import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jaroWinkler } from './jaro-winkler.js';

describe('jaroWinkler', () => {
  // Winkler's (1990) examples as quoted with the formula (prefix scale 0.1, prefix of at most 4).
  it.each([
    ['MARTHA', 'MARHTA', 0.9611],
    ['DWAYNE', 'DUANE', 0.84],
    ['DIXON', 'DICKSONX', 0.8133],
    ['JELLYFISH', 'SMELLYFISH', 0.8963],
    // A common prefix counts up to 4 characters, never 5 (the @skyra/jaro-winkler 1.1.1 result is 0.9583).
    ['ABCDEFGH', 'ABCDEFGX', 0.95],
    // No boost at or below a Jaro of 0.7.
    ['ABCXYZ', 'ABCPQR', 0.6667],
    ['same', 'same', 1],
    ['abc', 'xyz', 0],
    ['', 'abc', 0],
    ['', '', 0],
    ['a', 'a', 1],
  ])('%s / %s ≈ %d', (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 4);
  });

  it('stays in [0, 1], is 1 for equal non-empty strings, and is symmetric', () => {
    const token = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123'.split('')), maxLength: 70 });
    fc.assert(
      fc.property(token, token, (a, b) => {
        const similarity = jaroWinkler(a, b);
        expect(similarity).toBeGreaterThanOrEqual(0);
        expect(similarity).toBeLessThanOrEqual(1);
        expect(similarity).toBeCloseTo(jaroWinkler(b, a), 12);
        if (a.length > 0) expect(jaroWinkler(a, a)).toBe(1);
      }),
      { numRuns: 2_000 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bestAssignment,
  isClosePair,
  lengthsCanMatch,
  LOOSE_PAIR_WEIGHT,
  nameScore,
  nameSimilarity,
  TOKEN_MATCH_FLOOR,
  tokenListSimilarity,
  tokenSimilarity,
  typoAllowance,
} from './name-similarity.js';

describe('nameSimilarity', () => {
  it.each([
    // identical after normalisation: 1
    ['CARDENAS GUILLEN, Osiel', 'Osiel Cardenas Guillen', 1],
    ['Bank Saderat PLC', 'BANK SADERAT', 1],
    ["AL QA'IDA", 'Al-Qaida', 1],
    ['Владимир Путин', 'Vladimir Putin', 1],
    // a left-out patronymic: 2 · 2 / (2 + 3)
    ['Vladimir Putin', 'PUTIN, Vladimir Vladimirovich', 0.8],
    // one common given name of two tokens each: 2 · 1 / 4
    ['Mohammed Ali', 'Mohammed Omar', 0.5],
    // nothing in common
    ['Acme Trading', 'Zenith Holdings', 0],
    ['', 'Acme', 0],
  ])('%s / %s = %d', (a, b, expected) => {
    expect(nameSimilarity(a, b)).toBeCloseTo(expected, 10);
  });

  it.each([
    ['AHMAD, Muhammad Yunis', 'AHMED, Muhammad Yunis', 0.9],
    ['CARDENAS GUILLEN, Osiel', 'CARDENAS GUILLEN, Ociel', 0.9],
    ['ZAITOUN, Mohammed Dib', 'ZAYTUN, Muhammad Dib', 0.8],
  ])('spelling variants score high: %s / %s ≥ %d', (a, b, floor) => {
    expect(nameSimilarity(a, b)).toBeGreaterThanOrEqual(floor);
  });

  it.each([
    ['SECHIN, Igor Ivanovich', 'SECHIN, Ivan Igorevich'],
    ['CHEMEZOV, Sergei', 'CHEMEZOV, Stanislav Sergeyevich'],
    ['AL-ASSAD, Maher', 'AL-ASSAD, Bashar'],
  ])('different persons of one family stay under 0.70: %s / %s', (a, b) => {
    expect(nameSimilarity(a, b)).toBeLessThan(0.7);
  });

  it('is symmetric and in [0, 1]', () => {
    const name = fc.array(fc.constantFrom('ali', 'alia', 'hassan', 'hasan', 'bank', 'melli', 'mellat', 'iran', 'al', 'omar', 'umar', 'co'), { maxLength: 6 }).map((t) => t.join(' '));
    fc.assert(
      fc.property(name, name, (a, b) => {
        const ab = nameSimilarity(a, b);
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeLessThanOrEqual(1);
        expect(ab).toBeCloseTo(nameSimilarity(b, a), 12);
      }),
      { numRuns: 500 },
    );
  });
});

describe('tokenSimilarity', () => {
  it.each([
    ['muhammad', 'muhammad', 1],
    // Jaro-Winkler 0.8889 lowered by the length difference: 0.8889 · (1 − 0.4 · 5/9) < 0.75
    ['igor', 'igorevich', 0],
    ['abc', 'xyz', 0],
  ])('%s / %s = %d', (a, b, expected) => {
    expect(tokenSimilarity(a, b)).toBeCloseTo(expected, 4);
  });

  it('is 0 below the floor and the length-weighted Jaro-Winkler above it', () => {
    expect(tokenSimilarity('muhammad', 'mohammed')).toBeGreaterThanOrEqual(TOKEN_MATCH_FLOOR);
    expect(tokenSimilarity('hassan', 'hasan')).toBeCloseTo(0.9611 * (1 - 0.4 / 6), 3);
  });
});

describe('lengthsCanMatch', () => {
  it('never rules out a pair whose similarity reaches the floor', () => {
    const token = fc.string({ unit: fc.constantFrom(...'aeiouhlmnrst'.split('')), minLength: 1, maxLength: 16 });
    fc.assert(
      fc.property(token, token, (a, b) => {
        if (tokenSimilarity(a, b) > 0) expect(lengthsCanMatch(a.length, b.length)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it.each([
    [4, 4, true],
    [4, 7, true],
    [4, 8, false],
    [2, 5, false],
    [0, 3, false],
  ])('%d and %d letters: %s', (a, b, expected) => {
    expect(lengthsCanMatch(a, b)).toBe(expected);
  });
});

describe('bestAssignment', () => {
  function permutationsBest(n: number, m: number, sim: (i: number, j: number) => number): number {
    let best = 0;
    const used = new Array<boolean>(m).fill(false);
    const walk = (i: number, total: number) => {
      if (i === n) {
        best = Math.max(best, total);
        return;
      }
      walk(i + 1, total);
      for (let j = 0; j < m; j++) {
        if (used[j]) continue;
        used[j] = true;
        walk(i + 1, total + sim(i, j));
        used[j] = false;
      }
    };
    walk(0, 0);
    return best;
  }

  it('equals the best one-to-one assignment found by trying them all', () => {
    const matrix = fc
      .integer({ min: 1, max: 5 })
      .chain((n) => fc.integer({ min: 1, max: 5 }).chain((m) => fc.array(fc.array(fc.constantFrom(0, 0, 0.75, 0.8, 0.9, 1), { minLength: m, maxLength: m }), { minLength: n, maxLength: n })));
    fc.assert(
      fc.property(matrix, (rows) => {
        const sim = (i: number, j: number) => rows[i]![j]!;
        expect(bestAssignment(rows.length, rows[0]!.length, sim)).toBeCloseTo(permutationsBest(rows.length, rows[0]!.length, sim), 10);
      }),
      { numRuns: 400 },
    );
  });

  it('does not let one token serve two', () => {
    // two query tokens both closest to candidate token 0
    expect(
      bestAssignment(
        2,
        2,
        (i, j) =>
          [
            [1, 0.8],
            [0.9, 0],
          ][i]![j]!,
      ),
    ).toBeCloseTo(1.7, 10);
    expect(tokenListSimilarity(['ali', 'ali'], ['ali'])).toBeCloseTo(2 / 3, 10);
  });

  it('falls back to greedy beyond 10 tokens on the shorter side and still pairs identical tokens', () => {
    const tokens = Array.from({ length: 12 }, (_, i) => `token${String.fromCharCode(97 + i)}`);
    expect(tokenListSimilarity(tokens, [...tokens].reverse())).toBe(1);
  });
});

describe('close and loose pairs (issue 21, decision 0055)', () => {
  it('allows ⌊ln(max(L − 2, 1))⌋ edits by the longer length: none up to 4 letters, 1 for 5-9, 2 for 10-22', () => {
    expect([3, 4, 5, 9, 10, 22, 23].map(typoAllowance)).toEqual([0, 0, 1, 1, 2, 2, 3]);
  });

  it.each([
    ['ahmad', 'ahmed', true], // 1 edit, 5 letters
    ['roni', 'ronin', true], // 1 edit, 5 letters
    ['islamiyah', 'islamiyyah', true], // 1 edit, 10 letters
    ['leanidavich', 'leonidovich', true], // 2 edits, 11 letters
    ['hardy', 'haraz', false], // 2 edits, 5 letters
    ['investy', 'inovest', false], // 2 edits, 7 letters
    ['nfa', 'nia', false], // 1 edit, 3 letters
    ['olf', 'wolf', false], // 1 edit, 4 letters
    ['gaddafi', 'qadhafi', false], // 2 edits, 7 letters
  ])('%s / %s close: %s', (a, b, close) => {
    expect(isClosePair(a, b)).toBe(close);
    expect(isClosePair(b, a)).toBe(close);
  });

  const pairsOf = (a: readonly string[], b: readonly string[], distinctive: (token: string) => boolean) => ({
    similarity: (i: number, j: number) => tokenSimilarity(a[i]!, b[j]!),
    close: (i: number, j: number) => isClosePair(a[i]!, b[j]!),
    distinctive: (i: number, j: number) => distinctive(a[i]!) && distinctive(b[j]!),
  });

  it('counts a loose pair at LOOSE_PAIR_WEIGHT when no close pair of distinctive words anchors the names', () => {
    const s = tokenSimilarity('hardy', 'haraz');
    expect(s).toBeGreaterThanOrEqual(0.7);
    expect(
      nameScore(
        1,
        1,
        pairsOf(['hardy'], ['haraz'], () => true),
      ),
    ).toBeCloseTo(s * LOOSE_PAIR_WEIGHT, 12);
    // a close pair of common words is no anchor: international weighs nothing here
    const common = (token: string) => token !== 'international';
    const international = nameScore(2, 2, pairsOf(['nfa', 'international'], ['nia', 'international'], common));
    expect(international).toBeCloseTo((2 * (tokenSimilarity('nfa', 'nia') * LOOSE_PAIR_WEIGHT + 1)) / 4, 12);
  });

  it('counts a loose pair in full when a close pair of distinctive words anchors the names', () => {
    const a = ['muammar', 'gaddafi'];
    const b = ['qadhafi', 'muammar'];
    const expected = (2 * (1 + tokenSimilarity('gaddafi', 'qadhafi'))) / 4;
    expect(
      nameScore(
        2,
        2,
        pairsOf(a, b, () => true),
      ),
    ).toBeCloseTo(expected, 12);
    // muammar common: no anchor left
    expect(
      nameScore(
        2,
        2,
        pairsOf(a, b, (token) => token !== 'muammar'),
      ),
    ).toBeCloseTo((2 * (1 + tokenSimilarity('gaddafi', 'qadhafi') * LOOSE_PAIR_WEIGHT)) / 4, 12);
  });

  it('tokenListSimilarity treats every word as distinctive (there is no list to count them in)', () => {
    expect(tokenListSimilarity(['hardy'], ['haraz'])).toBeCloseTo(tokenSimilarity('hardy', 'haraz') * LOOSE_PAIR_WEIGHT, 12);
    expect(tokenListSimilarity(['ahmad', 'tahir'], ['ahmed', 'taher'])).toBeCloseTo((tokenSimilarity('ahmad', 'ahmed') + tokenSimilarity('tahir', 'taher')) / 2, 12);
  });
});

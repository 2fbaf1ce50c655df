import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { labelledNamePairs, leiRecords, pepRecords, sdnList } from '../data/index.js';
import { NameIndex } from './name-index.js';
import { NameIndexBefore27 } from './name-index-before-27-testing.js';
import { isClosePair, tokenSimilarity } from './name-similarity.js';
import { nameTokens } from './normalise-name.js';
import { SimilarTokenIndex } from './similar-tokens.js';

const word = fc.stringMatching(/^[a-z0-9]{1,14}$/);

describe('the assumptions of the similar-token table (each vocabulary pair compared once, recorded both ways)', () => {
  it('tokenSimilarity and isClosePair are symmetric', () => {
    fc.assert(
      fc.property(word, word, (a, b) => tokenSimilarity(a, b) === tokenSimilarity(b, a) && isClosePair(a, b) === isClosePair(b, a)),
      { numRuns: 5000 },
    );
    // Letters of a small alphabet make many near pairs (and transpositions) of every length.
    const near = fc.stringMatching(/^[abn]{3,12}$/);
    fc.assert(
      fc.property(near, near, (a, b) => tokenSimilarity(a, b) === tokenSimilarity(b, a)),
      { numRuns: 5000 },
    );
  });
});

describe('SimilarTokenIndex on a small vocabulary', () => {
  const vocabulary = ['muammar', 'qadhafi', 'gaddafi', 'gadafi', 'bashar', 'assad', 'asad', 'maher', 'melli', 'bank', 'iran', 'x'];
  const index = new SimilarTokenIndex(vocabulary);
  beforeAll(() => index.tableReady);
  const listed = (token: string) => {
    const { similar } = index.search(token);
    return [...similar.ids].map((id, at) => [vocabulary[id], similar.similarities[at]]);
  };

  it.each([
    // gaddafi/gadafi: Jaro (6/7 + 6/6 + 1)/3 = 0.952, prefix 3 → 0.967, · (1 − 0.4 · 1/7) = 0.912
    ['gadafi', ['gadafi', 'gaddafi', 'qadhafi']],
    ['assad', ['assad', 'asad']],
    ['zzz', []],
  ])('%s: the table and the search give the same similar tokens (%j)', (token, expected) => {
    expect(listed(token).map(([t]) => t)).toEqual(expected);
    const id = vocabulary.indexOf(token);
    if (id >= 0) {
      const fromTable = index.ofVocabularyToken(id);
      const { similar } = index.search(token);
      expect([...fromTable.ids]).toEqual([...similar.ids]);
      expect([...fromTable.similarities]).toEqual([...similar.similarities]);
    }
  });

  it('scores each pair as tokenSimilarity does and marks loose pairs (not isClosePair)', () => {
    const { similar } = index.search('gaddafi');
    const qadhafi = vocabulary.indexOf('qadhafi');
    expect(similar.similarity(qadhafi)).toBe(tokenSimilarity('gaddafi', 'qadhafi'));
    expect(similar.isLoose(qadhafi)).toBe(!isClosePair('gaddafi', 'qadhafi'));
    expect(similar.similarity(vocabulary.indexOf('bank'))).toBe(0);
  });
});

// The proof that issue 27's table and search change no screen: the index as it was before (kept as
// name-index-before-27-testing.ts) and the index now, on the bench's query names (both sides of the
// labelled pairs, the GLEIF legal names) and on listed words.
describe('screens of the whole SDN list against the index before issue 27', () => {
  const entries = sdnList().records.map((entry) => ({
    record: entry,
    names: [{ name: entry.name, kind: 'name' }, ...entry.aliases.map((alias) => ({ name: alias.name, kind: alias.type }))],
  }));
  const before = new NameIndexBefore27(entries);
  const now = new NameIndex(entries);
  beforeAll(() => now.tableReady, 120_000);
  const pairNames = [...new Set(labelledNamePairs().flatMap((pair) => [pair.a, pair.b]))];
  const queries = [...new Set([...pairNames, ...leiRecords().records.map((record) => record.legalName)])];
  const answer = (matches: readonly { record: { entNum: number }; matchedName: string; matchedKind: string; score: number }[]) =>
    matches.map((m) => [m.record.entNum, m.matchedName, m.matchedKind, m.score]);

  it('returns the same matches with the same scores for every query name at 0.70, and for listed names (one letter changed or not) at 0.60', () => {
    expect(queries.length).toBeGreaterThan(1000);
    const screened = (index: Pick<typeof before, 'screen'>, names: readonly string[], threshold: number) => names.map((query) => [query, answer(index.screen(query, { threshold }).matches)]);
    expect(screened(now, queries, 0.7)).toEqual(screened(before, queries, 0.7));
    const listed = entries.filter((_, i) => i % 100 === 0).map((entry) => entry.names[0]!.name);
    const changed = [...listed, ...listed.map((name) => name.replace(/[aeiou]/i, 'y'))];
    expect(screened(now, changed, 0.6)).toEqual(screened(before, changed, 0.6));
  });

  it('compares nothing at screen time for a name of listed words', () => {
    const { statistics } = now.screen('Muammar Gaddafi', { threshold: 0.7 });
    expect(statistics).toMatchObject({ tableTokens: 2, tokenComparisons: 0 });
    expect(nameTokens('Muammar Gaddafi')).toHaveLength(2);
  });
});

describe('PEP screens against the index before issue 27', () => {
  const entries = pepRecords().map((record) => ({
    record,
    names: [{ name: record.name, kind: 'name' }, ...record.otherNames.map((name) => ({ name, kind: 'other' }))],
  }));
  const before = new NameIndexBefore27(entries);
  const now = new NameIndex(entries);
  beforeAll(() => now.tableReady, 120_000);

  it('returns the same matches with the same scores for the labelled names at 0.60', () => {
    for (const query of new Set(labelledNamePairs().flatMap((pair) => [pair.a, pair.b]))) {
      const score = (matches: readonly { matchedName: string; score: number }[]) => matches.map((m) => [m.matchedName, m.score]);
      expect(score(now.screen(query, { threshold: 0.6 }).matches), query).toEqual(score(before.screen(query, { threshold: 0.6 }).matches));
    }
  });
});

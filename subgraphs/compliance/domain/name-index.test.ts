import { describe, expect, it } from 'vitest';
import { NameIndex } from './name-index.js';
import { nameSimilarity } from './name-similarity.js';

const people = [
  { id: 1, names: ['QADHAFI, Muammar', 'GADDAFI, Muammar'] },
  { id: 2, names: ['AL-ASSAD, Bashar'] },
  { id: 3, names: ['AL-ASSAD, Maher'] },
  { id: 4, names: ['BANK MELLI IRAN'] },
  { id: 5, names: ['Acme Trading LLC'] },
  { id: 6, names: [''] },
];
const index = new NameIndex(people.map((p) => ({ record: p, names: p.names.map((name, i) => ({ name, kind: i === 0 ? 'name' : 'aka' })) })));

describe('NameIndex', () => {
  it.each([
    ['Muammar Gaddafi', [1]],
    ['Bashar al-Assad', [2]],
    ['Bank Melli', [4]],
    ['ACME TRADING', [5]],
    ['Zenith Holdings', []],
    ['', []],
  ])('%s finds %j', (query, ids) => {
    expect(index.screen(query, { threshold: 0.7 }).matches.map((m) => m.record.id)).toEqual(ids);
  });

  it('returns the best name of each record with its kind and score, best first', () => {
    const { matches } = index.screen('Muammar Gadafi', { threshold: 0.5 });
    expect(matches[0]).toMatchObject({ record: { id: 1 }, matchedName: 'GADDAFI, Muammar', matchedKind: 'aka' });
    expect(matches[0]!.score).toBeCloseTo(nameSimilarity('Muammar Gadafi', 'GADDAFI, Muammar'), 12);
  });

  it('scores like nameSimilarity, applies the filter and the limit', () => {
    // 'Assad' against 'AL-ASSAD, Bashar': 2 · 1 / (1 + 3)
    const all = index.screen('Assad', { threshold: 0.5 });
    expect(all.matches.map((m) => m.record.id).sort()).toEqual([2, 3]);
    for (const m of all.matches) expect(m.score).toBeCloseTo(nameSimilarity('Assad', m.matchedName), 12);
    expect(index.screen('Assad', { threshold: 0.5, filter: (p) => p.id === 3 }).matches.map((m) => m.record.id)).toEqual([3]);
    expect(index.screen('Assad', { threshold: 0.5, limit: 1 }).matches).toHaveLength(1);
  });

  it('skips names that normalise to nothing, and gives the same answer twice (its scratch state is reset)', () => {
    expect(index.size).toEqual({ records: 6, names: 6, vocabularyTokens: 12 });
    const first = index.screen('Maher Assad', { threshold: 0.5 });
    expect(index.screen('Maher Assad', { threshold: 0.5 })).toEqual(first);
  });

  it('searches every word until its table is built in the background, with the same answer as the table gives after', async () => {
    const fresh = new NameIndex(people.map((p) => ({ record: p, names: p.names.map((name, i) => ({ name, kind: i === 0 ? 'name' : 'aka' })) })));
    const searched = fresh.screen('Maher Assad', { threshold: 0.5 });
    expect(searched.statistics).toMatchObject({ tableTokens: 0 });
    expect(searched.statistics.tokenComparisons).toBeGreaterThan(0);
    await fresh.tableReady;
    const fromTable = fresh.screen('Maher Assad', { threshold: 0.5 });
    expect(fromTable.statistics).toMatchObject({ tableTokens: 2, tokenComparisons: 0 });
    expect(fromTable.matches).toEqual(searched.matches);
  });

  it('takes the similar tokens of listed words from its table, and searches (then caches) the others', async () => {
    await index.tableReady;
    // maher and assad are listed: no comparison at screen time; mahir and asad are not.
    expect(index.screen('Maher Assad', { threshold: 0.5 }).statistics).toMatchObject({ tableTokens: 2, tokenComparisons: 0, cachedTokens: 0 });
    const first = index.screen('Mahir Asad', { threshold: 0.5 });
    expect(first.statistics).toMatchObject({ tableTokens: 0, cachedTokens: 0 });
    expect(first.statistics.tokenComparisons).toBeGreaterThan(0);
    expect(first.matches.map((m) => m.record.id)).toEqual([3]);
    expect(index.screen('Mahir Asad', { threshold: 0.5 })).toEqual({ ...first, statistics: { ...first.statistics, tokenComparisons: 0, cachedTokens: 2 } });
  });
});

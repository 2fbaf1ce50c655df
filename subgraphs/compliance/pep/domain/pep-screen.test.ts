import { describe, expect, it } from 'vitest';
import { pepRecords } from '../../data/index.js';
import type { PepRecord } from '../../domain/index.js';
import { assessPepMatches, checkPosition, confidenceForScore, eddRequiredFor, matchConfidenceOf, type PepScreenMatch, riskLevelOf } from './pep-screen.js';
import { buildPepIndex, type PepMatch } from './pep-screening.js';

const senator: PepRecord = {
  id: 'us-congress-X000001',
  name: 'Jane Example',
  otherNames: [],
  position: 'United States Senator from Washington (Class 1)',
  country: 'US',
  countryName: 'United States',
  current: true,
  source: 'us-congress-legislators',
};
const formerSenator: PepRecord = { ...senator, id: 'us-congress-X000002', current: false };
const match = (score: number, record: PepRecord = senator): PepMatch => ({ record, matchedName: record.name, score });

describe('match confidence: name bands (>= 0.90 HIGH, >= 0.75 MEDIUM, >= 0.60 LOW)', () => {
  it.each([
    [1, 'HIGH'],
    [0.9, 'HIGH'],
    [0.8999, 'MEDIUM'],
    [0.75, 'MEDIUM'],
    [0.7499, 'LOW'],
    [0.6, 'LOW'],
    [0.5999, null],
    [0.59, null],
  ])('%s -> %s', (score, confidence) => expect(confidenceForScore(score)).toBe(confidence));

  it.each([
    // The position moves the band one step: up when it corroborates, down (not below LOW) when it contradicts.
    [0.8, 'CORROBORATED', 'HIGH'],
    [0.8, 'CONTRADICTED', 'LOW'],
    [0.8, 'NOT_GIVEN', 'MEDIUM'],
    [0.95, 'CORROBORATED', 'HIGH'],
    [0.6, 'CONTRADICTED', 'LOW'],
    [0.6, 'CORROBORATED', 'MEDIUM'],
    [0.59, 'CORROBORATED', null],
  ] as const)('score %s, position %s -> %s', (score, check, confidence) => expect(matchConfidenceOf(score, check)).toBe(confidence));
});

describe('checkPosition: the share of the submitted words in the record position (>= 0.5 corroborates)', () => {
  it.each([
    [undefined, 'NOT_GIVEN'],
    ['', 'NOT_GIVEN'],
    ['Senator', 'CORROBORATED'], // 1 of 1
    ['senators', 'CORROBORATED'], // Jaro-Winkler(senators, senator) >= 0.9
    ['US Senator', 'CORROBORATED'], // "senator" found (1 of 2 at least)
    ['President', 'CONTRADICTED'], // 0 of 1
    ['Minister of Finance', 'CONTRADICTED'], // 0 of 2 (of is a connecting word)
  ])('%j -> %s', (position, check) => expect(checkPosition(position, senator.position)).toBe(check));
});

describe('risk level and EDD (decision 0016)', () => {
  const m = (current: boolean, matchConfidence: PepScreenMatch['matchConfidence']) => ({ current, matchConfidence });
  it.each([
    [[], 'NONE', false],
    [[m(true, 'HIGH')], 'HIGH', true],
    [[m(false, 'HIGH')], 'MEDIUM', true],
    [[m(true, 'MEDIUM')], 'MEDIUM', true],
    [[m(false, 'MEDIUM')], 'LOW', false],
    [[m(true, 'LOW')], 'LOW', false],
    [[m(true, 'LOW'), m(false, 'HIGH')], 'MEDIUM', true],
    [[m(true, 'LOW'), m(true, 'HIGH')], 'HIGH', true],
  ] as const)('%j -> %s, EDD %s', (matches, level, edd) => {
    expect(riskLevelOf(matches)).toBe(level);
    expect(eddRequiredFor(level)).toBe(edd);
  });
});

describe('assessPepMatches', () => {
  it('keeps matches at 0.60 and drops one at 0.5999 (a looser index threshold)', () => {
    const result = assessPepMatches([match(0.6), match(0.5999, formerSenator)], undefined);
    expect(result.pepMatches.map((m) => [m.recordId, m.score, m.matchConfidence])).toEqual([['us-congress-X000001', 0.6, 'LOW']]);
    expect(result).toMatchObject({ riskLevel: 'LOW', eddRequired: false });
  });

  it('answers each match with position, country, confidence, score and source', () => {
    const result = assessPepMatches([match(0.91234)], 'Senator');
    expect(result).toEqual({
      riskLevel: 'HIGH',
      eddRequired: true,
      pepMatches: [
        {
          name: 'Jane Example',
          matchedName: 'Jane Example',
          position: senator.position,
          country: 'US',
          countryName: 'United States',
          current: true,
          matchConfidence: 'HIGH',
          score: 0.9123,
          positionCheck: 'CORROBORATED',
          source: 'us-congress-legislators',
          recordId: 'us-congress-X000001',
        },
      ],
    });
  });
});

describe('over the shipped PEP records', () => {
  const index = buildPepIndex(pepRecords());

  it('the sitting US vice president: HIGH, EDD', () => {
    const { matches } = index.screen('J.D. Vance', { country: 'US' });
    const result = assessPepMatches(matches, 'Vice President');
    expect(result.riskLevel).toBe('HIGH');
    expect(result.pepMatches[0]).toMatchObject({ name: 'J.D. Vance', position: 'Vice President of the United States', current: true, matchConfidence: 'HIGH', positionCheck: 'CORROBORATED' });
  });

  it('a former president: MEDIUM (former, HIGH confidence), EDD', () => {
    const { matches } = index.screen('Barack Hussein Obama', { country: 'US' });
    const result = assessPepMatches(matches, undefined);
    expect(result.pepMatches[0]).toMatchObject({ name: 'Barack Hussein Obama', current: false, matchConfidence: 'HIGH' });
    expect(result).toMatchObject({ riskLevel: 'MEDIUM', eddRequired: true });
  });

  it('a name of no office holder: NONE', () => {
    expect(assessPepMatches(index.screen('Zxqvbn Plorktastic').matches, undefined)).toEqual({ riskLevel: 'NONE', pepMatches: [], eddRequired: false });
  });
});

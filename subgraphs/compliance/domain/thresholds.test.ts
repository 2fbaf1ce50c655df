import { describe, expect, it } from 'vitest';
import { isPepMatch, isSanctionsMatch, PEP_MATCH_THRESHOLD, SANCTIONS_MATCH_THRESHOLD, vopResultForScore } from './thresholds.js';

describe('vopResultForScore (Document 2 §3)', () => {
  it.each([
    [100, 'VERIFIED'],
    [90, 'VERIFIED'],
    [89.99, 'PROCEED_HIGH_CONFIDENCE'],
    [75, 'PROCEED_HIGH_CONFIDENCE'],
    [74.99, 'PROCEED_FLAGGED'],
    [55, 'PROCEED_FLAGGED'],
    [54.99, 'PROCEED_UNVERIFIED'],
    [35, 'PROCEED_UNVERIFIED'],
    [34.99, 'BLOCKED'],
    [0, 'BLOCKED'],
    [Number.NaN, 'BLOCKED'],
  ])('%d → %s', (score, result) => {
    expect(vopResultForScore(score)).toBe(result);
  });
});

describe('match thresholds (Document 2 §2)', () => {
  it.each([
    [0.7, true, true],
    [0.6999, false, true],
    [0.6, false, true],
    [0.5999, false, false],
  ])('%d: sanctions %s, PEP %s', (similarity, sanctions, pep) => {
    expect(isSanctionsMatch(similarity)).toBe(sanctions);
    expect(isPepMatch(similarity)).toBe(pep);
  });

  it('are 0.70 and 0.60', () => {
    expect([SANCTIONS_MATCH_THRESHOLD, PEP_MATCH_THRESHOLD]).toEqual([0.7, 0.6]);
  });
});

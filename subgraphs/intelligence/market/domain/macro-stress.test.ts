import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/macro-stress.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { snapshotWithout } from '../testing.js';
import { computeMacroStress, type MacroStressParameters } from './macro-stress.js';

const parameters = parametersJson as MacroStressParameters;

describe('the ladders of data/parameters/macro-stress.json, at their bounds and just below', () => {
  it.each([
    [80, 'CRISIS'],
    [79.9, 'STRESS'],
    [60, 'STRESS'],
    [59.9, 'LATE_CYCLE'],
    [40, 'LATE_CYCLE'],
    [39.9, 'EXPANSION'],
  ])('stress index %s is %s', (index, regime) => {
    expect(climbLadder(parameters.regimes, index)).toBe(regime);
  });

  it.each([
    [90, 'EXTREME'],
    [89.9, 'ELEVATED'],
    [70, 'ELEVATED'],
    [69.9, 'NORMAL'],
    [30, 'NORMAL'],
    [29.9, 'LOW'],
  ])('component percentile %s is %s', (score, level) => {
    expect(climbLadder(parameters.componentSignals, score)).toBe(level);
  });
});

describe('macro stress over the shipped snapshot', () => {
  const answer = computeMacroStress(snapshotSeries(), parameters);
  const { components } = answer.body;

  it('pins each component: the percentile rank of its latest value over ten years', () => {
    // NFCI 2026-08-14 -0.559: at or above 29.5% of the 522 weekly values since 2016-08-14
    expect(components.igSpread).toMatchObject({ value: -0.56, score: 29.5, asOf: '2026-08-14' });
    // STLFSI4 -0.8285: 4.6% of 522
    expect(components.hySpread).toMatchObject({ value: -0.83, score: 4.6, asOf: '2026-08-14' });
    // 90-day CP minus 3-month bill on 2026-08-19: -3bp, 2.8% of 1,521 common dates
    expect(components.tedSpread).toMatchObject({ value: -3, score: 2.8, asOf: '2026-08-19' });
    // VIX 2026-10-06 15.01: 33.6% of 2,546
    expect(components.vix).toMatchObject({ value: 15.01, score: 33.6, asOf: '2026-10-06' });
    // DRTSCILM without the unverified 2026-07-01 row: 2026-04-01 8.1, 63.4% of 41 quarters
    expect(components.lendingStandards).toMatchObject({ value: 8.1, score: 63.4, asOf: '2026-04-01' });
  });

  it('pins the index, the regime and the lead signal', () => {
    // 0.20*29.5 + 0.25*4.6 + 0.15*2.8 + 0.25*33.6 + 0.15*63.4 = 5.9 + 1.15 + 0.42 + 8.4 + 9.51 = 25.38 -> 25.4: EXPANSION (< 40)
    expect(answer.body.stressIndex).toBe(25.4);
    expect(answer.body.regime).toBe('EXPANSION');
    expect(answer.body.leadSignals).toEqual(parameters.leadSignals.EXPANSION);
    expect(answer.missing).toEqual([]);
  });

  it('leaves out the unverified last DRTSCILM row and reports the input as of the row it used', () => {
    const lending = answer.inputs.find((input) => input.id === 'DRTSCILM');
    expect(lending?.asOf).toBe('2026-04-01');
  });

  it('renormalises the weights when a component is missing, and names it', () => {
    const partial = computeMacroStress(snapshotWithout('VIXCLS'), parameters);
    // (5.9 + 1.15 + 0.42 + 9.51) / 0.75 = 16.98 / 0.75 = 22.64 -> 22.6
    expect(partial.body.stressIndex).toBe(22.6);
    expect(partial.body.components.vix).toBeUndefined();
    expect(partial.missing).toEqual(['vix: VIXCLS']);
  });
});

import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/sovereign-debt.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { snapshotWith, snapshotWithout, testSeries } from '../testing.js';
import { piecewiseLinear } from './moves.js';
import { computeSovereignDebt, type SovereignDebtParameters } from './sovereign-debt.js';
import { readFiscalTrend } from './sovereign-fiscal.js';

const parameters = parametersJson as SovereignDebtParameters;

describe('the ladders and score curves of data/parameters/sovereign-debt.json, at their bounds and just below', () => {
  it.each([
    [70, 'SUSTAINABLE'],
    [69.9, 'WATCH'],
    [50, 'WATCH'],
    [49.9, 'STRAINED'],
    [30, 'STRAINED'],
    [29.9, 'FISCAL_DOMINANCE_RISK'],
  ])('a sustainability score of %s signals %s', (score, signal) => {
    expect(climbLadder(parameters.signals, score)).toBe(signal);
  });

  it.each([
    [65, 'STABLE'],
    [64.9, 'ELEVATED'],
    [45, 'ELEVATED'],
    [44.9, 'STRAINED'],
    [30, 'STRAINED'],
    [29.9, 'FISCAL_DOMINANCE'],
  ])('a weighted mean score of %s is a %s global debt regime', (score, regime) => {
    expect(climbLadder(parameters.globalDebtRegimes, score)).toBe(regime);
  });

  it.each([
    [4, 'HIGH'],
    [3, 'ELEVATED'],
    [2, 'ELEVATED'],
    [1, 'LOW'],
  ])('%s strained sovereigns (US rising yield counting one) is %s contagion risk', (count, level) => {
    expect(climbLadder(parameters.contagion.ladder, count)).toBe(level);
  });

  it.each([
    [25, 'RISING'],
    [24.9, 'STABLE'],
    [-25, 'STABLE'],
    [-25.1, 'FALLING'],
  ])('a 10-year yield move of %sbp over 3 months is %s', (bps, dynamic) => {
    expect(climbLadder(parameters.yieldDynamic.ladder, bps)).toBe(dynamic);
  });

  it.each([
    // debt level: 100 at or below 60%, 50 at the 100% fiscal-dominance line, 0 at or above 200%
    [parameters.debtLevelScore, 60, 100],
    [parameters.debtLevelScore, 80, 75],
    [parameters.debtLevelScore, 100, 50],
    [parameters.debtLevelScore, 150, 25],
    [parameters.debtLevelScore, 228.6, 0],
    // r - g: 100 at -2pp, 50 at 0, 0 at +2pp
    [parameters.debtDynamicsScore, -3, 100],
    [parameters.debtDynamicsScore, 1, 25],
    // fiscal balance: 0 at -8% of GDP, 50 at -3%, 100 at balance
    [parameters.fiscalBalanceScore, -5.5, 25],
    [parameters.fiscalBalanceScore, 1, 100],
  ])('score curve at %#: %s scores %s', (points, value, score) => {
    expect(piecewiseLinear(points, value)).toBeCloseTo(score, 10);
  });

  it.each([
    // a dollar balance: (latest - previous) / |previous|, bounds +5% and -5%
    [[-1000, -950], 'usdMillions', 'NARROWING'],
    [[-1000, -951], 'usdMillions', 'STABLE'],
    [[-1000, -1050], 'usdMillions', 'STABLE'],
    [[-1000, -1051], 'usdMillions', 'WIDENING'],
    // a balance in % of GDP: latest - previous, bounds +0.5pp and -0.5pp
    [[-3.5, -3], 'pctGdp', 'NARROWING'],
    [[-3.5, -3.1], 'pctGdp', 'STABLE'],
    [[-3, -3.5], 'pctGdp', 'STABLE'],
    [[-3, -3.6], 'pctGdp', 'WIDENING'],
  ] as const)('balance %j in %s is %s', ([previous, latest], units, trend) => {
    const series = testSeries('balance', [
      ['2024-01-01', previous],
      ['2025-01-01', latest],
    ]);
    expect(readFiscalTrend(series, { series: 'balance', units, label: 'balance' }, parameters.fiscalTrend)?.trend).toBe(trend);
  });
});

describe('sovereign debt over the shipped snapshot', () => {
  const answer = computeSovereignDebt(snapshotSeries(), parameters);
  const { sovereigns, systemicSignals } = answer.body;

  it('pins the United States', () => {
    // debt GFDEGDQ188S 2025-10-01 122.56815 -> 122.6; level score 50 - (122.568 - 100) * 50/100 = 38.716
    // r - g: DFII10 2.35 - real growth GDPC1 (24270.599 / 23770.976 - 1 = 2.1018%) = +0.2482pp; dynamics 50 - 0.2482 * 25 = 43.795
    // fiscal: FYFSD FY2025 -1,774,684 vs FY2024 -1,815,377: (+40,693 / 1,815,377) = +2.24%: STABLE, 50
    // score (0.40 * 38.716 + 0.25 * 43.795 + 0.15 * 50) / 0.80 = 42.42 -> 42.4: STRAINED
    expect(sovereigns['United States']).toMatchObject({ debtToGdp: 122.6, debtAsOf: '2025-10-01', sustainabilityScore: 42.4, memberOf: null });
    expect(sovereigns['United States']?.signal).toMatch(/^STRAINED: debt 122\.6% of GDP \(2025\) above the 100% fiscal-dominance line; r-g \+0\.25pp/);
    expect(sovereigns['United States']?.fiscalDeficitTrend).toBe('STABLE: federal deficit (fiscal year) -$1774.7bn in FY2025 vs -$1815.4bn in FY2024 (balance +2.2%)');
    // DGS10 2026-08-19 4.65 against 2026-05-19 4.67: -2bp: STABLE; 2s10s 4.65 - 4.19 = 46bp
    expect(sovereigns['United States']?.yieldDynamic).toBe('STABLE: 10-year 4.65% (-2bp over 3 months, 2026-08-19); 2s10s 46bp; real 10-year 2.35%; 10-year breakeven 2.34%');
  });

  it('pins the others, each on the inputs it has', () => {
    // UK (OECD, SNA basis) 97.833: between 60 (100) and 100 (50) the score falls 1.25 a point: 50 + 2.167 * 1.25 = 52.71 -> 52.7, debt only: WATCH
    expect(sovereigns['United Kingdom']).toMatchObject({ debtToGdp: 97.8, debtAsOf: '2023-01-01', sustainabilityScore: 52.7 });
    expect(sovereigns['United Kingdom']?.signal).toMatch(/^WATCH: .*scored on debtLevel$/);
    // Japan 228.592 >= 200: level 0, debt only
    expect(sovereigns.Japan).toMatchObject({ debtToGdp: 228.6, sustainabilityScore: 0 });
    // Germany 63.5: 100 - 3.5 * 1.25 = 95.625; balance -2.7: 50 + 0.3 * 50/3 = 55; trend -2.7 vs -2.7: STABLE 50
    // (0.40 * 95.625 + 0.20 * 55 + 0.15 * 50) / 0.75 = 75.67 -> 75.7
    expect(sovereigns.Germany).toMatchObject({ debtToGdp: 63.5, sustainabilityScore: 75.7, memberOf: 'European Union' });
    // Italy 137.1: 50 - 37.1 * 0.5 = 31.45; balance -3.1: 50 - 0.1 * 10 = 49; trend -3.1 vs -3.4 (+0.3pp): STABLE 50
    // (0.40 * 31.45 + 0.20 * 49 + 0.15 * 50) / 0.75 = 39.84 -> 39.8
    expect(sovereigns.Italy).toMatchObject({ debtToGdp: 137.1, sustainabilityScore: 39.8, memberOf: 'European Union' });
  });

  it('never invents the EU aggregate: no figure, no score, and the missing inputs named', () => {
    expect(sovereigns['European Union']).toMatchObject({ debtToGdp: null, debtAsOf: null, sustainabilityScore: null, signal: expect.stringMatching(/^DATA_UNAVAILABLE: /) });
    expect(answer.missing).toEqual(expect.arrayContaining(parameters.sovereigns['European Union']!.missing!));
    expect(answer.missing).toEqual(expect.arrayContaining(['United Kingdom: 10-year gilt yield', 'Japan: fiscal balance (% of GDP)']));
  });

  it('pins the systemic signals', () => {
    // weighted mean over the scored: (0.4*42.4 + 0.1*52.7 + 0.15*0 + 0.1*75.7 + 0.1*39.8) / 0.85 = 33.78 / 0.85 = 39.74: STRAINED
    expect(systemicSignals.globalDebtRegime).toBe('STRAINED');
    expect(answer.body.narrative).toContain('Weighted sustainability score 39.7 of 100');
    // below 50: United States 42.4, Japan 0, Italy 39.8 = 3, US yield not rising: ELEVATED
    expect(systemicSignals.contagionRisk).toBe('ELEVATED: 3 of 5 scored sovereigns below 50 (United States, Japan, Italy); US 10-year yield not rising');
    expect(systemicSignals.settlementImpact).toBe(parameters.settlementImpacts.STRAINED);
  });

  it('lists every sovereign of the spec with the documented fields', () => {
    expect(Object.keys(sovereigns)).toEqual(['United States', 'European Union', 'United Kingdom', 'Japan', 'Germany', 'Italy']);
    for (const entry of Object.values(sovereigns)) {
      expect(entry).toEqual({
        debtToGdp: entry.debtToGdp === null ? null : expect.any(Number),
        debtAsOf: entry.debtAsOf === null ? null : expect.any(String),
        debtBasis: expect.any(String),
        fiscalDeficitTrend: expect.any(String),
        yieldDynamic: expect.any(String),
        sustainabilityScore: entry.sustainabilityScore === null ? null : expect.any(Number),
        signal: expect.any(String),
        memberOf: entry.memberOf === null ? null : expect.any(String),
      });
    }
  });
});

describe('sovereign debt with inputs changed', () => {
  it('leaves a sovereign unscored when its debt series is gone, and names it', () => {
    const answer = computeSovereignDebt(snapshotWithout('govdebt_pct_gdp_JP_oecd'), parameters);
    expect(answer.body.sovereigns.Japan).toMatchObject({ debtToGdp: null, sustainabilityScore: null });
    expect(answer.missing).toContain('Japan: govdebt_pct_gdp_JP_oecd');
  });

  it('reads a rising US 10-year yield into the contagion count', () => {
    const rising = testSeries('DGS10', [
      ['2026-05-19', 4.4],
      ['2026-08-19', 4.65],
    ]);
    const answer = computeSovereignDebt(snapshotWith(rising), parameters);
    // +25bp: RISING (the bound); 3 strained + 1 = 4: HIGH
    expect(answer.body.sovereigns['United States']?.yieldDynamic).toMatch(/^RISING: 10-year 4\.65% \(\+25bp/);
    expect(answer.body.systemicSignals.contagionRisk).toMatch(/^HIGH: /);
  });
});

import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/currency-stress.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { snapshotWithout, testSeries } from '../testing.js';
import { type CurrencyMeasure, readPressure } from './currency.js';
import { computeCurrencyStress, type CurrencyStressParameters } from './currency-stress.js';

const parameters = parametersJson as CurrencyStressParameters;

describe('the ladders of data/parameters/currency-stress.json, at their bounds and just below', () => {
  it.each([
    [3, 'DOLLAR_SURGE'],
    [2.99, 'STRENGTHENING'],
    [1, 'STRENGTHENING'],
    [0.99, 'RANGE_BOUND'],
    [-1, 'RANGE_BOUND'],
    [-1.01, 'WEAKENING'],
    [-3, 'WEAKENING'],
    [-3.01, 'DOLLAR_SLIDE'],
  ])('the broad dollar index %s percent in 30 days is %s', (change, regime) => {
    expect(climbLadder(parameters.dollar.regimes, change)).toBe(regime);
  });

  it.each([
    [90, 'EXTREME'],
    [89.9, 'ELEVATED'],
    [70, 'ELEVATED'],
    [69.9, 'NORMAL'],
    [30, 'NORMAL'],
    [29.9, 'CALM'],
  ])('a currency score of %s signals %s', (score, level) => {
    expect(climbLadder(parameters.signalLevels, score)).toBe(level);
  });

  it.each([
    [1.5, 'INFLOW'],
    [1.49, 'BALANCED'],
    [-1.5, 'BALANCED'],
    [-1.51, 'OUTFLOW'],
  ])('a currency %s percent in dollars over 30 days is capital flow %s', (change, direction) => {
    expect(climbLadder(parameters.capitalFlow.ladder, change)).toBe(direction);
  });
});

describe('pressure rules (intervention, PBoC, carry): first rule from the top that holds', () => {
  /** A measure with the figures the rules read; the rest do not matter to them. */
  const measure = (changePct: number, valuePercentile: number, volatilityPercentile: number): CurrencyMeasure => ({
    series: testSeries('x', [['2026-01-01', 1]]),
    rate: 1,
    asOf: '2026-01-01',
    changePct,
    movePercentile: 50,
    volatility: 10,
    volatilityPercentile,
    valuePercentile,
    score: 50,
  });

  it.each([
    // yen weakening side: extreme = 100 - value percentile; move = minus the change
    [-2, 5, 'HIGH'], // extreme 95 and move 2: both bounds of HIGH
    [-1.99, 5, 'ELEVATED'], // move just short of HIGH; extreme 95 >= 90 is enough for ELEVATED (any)
    [-2, 5.1, 'ELEVATED'], // extreme 94.9 short of HIGH; >= 90
    [-3, 50, 'ELEVATED'], // a 3% fall alone
    [-2.99, 10.1, 'LOW'], // extreme 89.9 and move 2.99: neither
    [2, 1, 'ELEVATED'], // yen at its weakest but strengthening: not HIGH
  ])('JPY change %s percent, value percentile %s: %s', (change, valuePercentile, level) => {
    expect(readPressure(measure(change, valuePercentile, 50), parameters.pressures.jpyIntervention!)).toBe(level);
  });

  it.each([
    [2, 95, 'HIGH'], // franc strengthening 2% at percentile 95 of its value
    [2, 94.9, 'ELEVATED'],
    [-5, 99, 'ELEVATED'], // strong franc, weakening: the level alone
    [2.99, 89.9, 'LOW'],
  ])('CHF change %s percent, value percentile %s: %s', (change, valuePercentile, level) => {
    expect(readPressure(measure(change, valuePercentile, 50), parameters.pressures.chfIntervention!)).toBe(level);
  });

  it.each([
    [-2, 85, 'HIGH'],
    [-2, 84.9, 'ELEVATED'], // 84.9 >= 70
    [-1.99, 69.9, 'LOW'],
    [-3, 10, 'ELEVATED'],
  ])('carry: change %s percent, volatility percentile %s: %s', (change, volatilityPercentile, level) => {
    expect(readPressure(measure(change, 50, volatilityPercentile), parameters.pressures.carry!)).toBe(level);
  });
});

describe('currency stress over the shipped snapshot', () => {
  const answer = computeCurrencyStress(snapshotSeries(), parameters);
  const { g10, emergingMarkets } = answer.body;

  it('covers the ten G10 currencies and the ten chosen emerging-market ones', () => {
    expect(Object.keys(g10)).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK']);
    expect(Object.keys(emergingMarkets)).toEqual(['CNY', 'INR', 'BRL', 'MXN', 'KRW', 'ZAR', 'THB', 'MYR', 'SGD', 'TWD']);
    for (const entry of [...Object.values(g10), ...Object.values(emergingMarkets)]) expect(entry['30dChange']).toMatch(/^[+-]\d+\.\d{2}%$/);
    expect(answer.missing).toEqual([]);
  });

  it('pins EUR, JPY and the dollar', () => {
    // EUR per USD 0.8635 (2026-08-14) against 0.8744 (2026-07-15, newest on or before 2026-07-15): value in dollars 0.8744/0.8635 - 1 = +1.2623%
    // move size percentile 49.62 and 30-day volatility 5.02% at percentile 25.07 (Python, same windows): (49.62 + 25.07) / 2 = 37.34 -> 37.3
    expect(g10.EUR).toMatchObject({ '30dChange': '+1.26%', score: 37.3, rate: 0.8635, asOf: '2026-08-14', capitalFlowDirection: 'BALANCED' });
    // JPY: (59.31 + 85.30) / 2 = 72.31 -> 72.3 ELEVATED; value percentile 3.36 (yen near its weakest): extreme 96.6 >= 90 -> intervention ELEVATED
    expect(g10.JPY).toMatchObject({ '30dChange': '+1.83%', score: 72.3 });
    expect(g10.JPY?.signal).toMatch(/^ELEVATED: JPY in dollars \+1\.83% in 30 days/);
    expect(g10.JPY?.interventionRisk).toMatch(/^ELEVATED: Ministry of Finance intervention risk/);
    // Broad dollar index 118.903: -1.1685% in 30 days: WEAKENING (-3 <= -1.17 < -1)
    expect(g10.USD).toMatchObject({ '30dChange': '-1.17%', rate: 118.903, score: 45.2 });
    expect(answer.body.dollarRegime).toBe('WEAKENING');
    expect(emergingMarkets.CNY?.pbocPressure).toMatch(/^LOW: /);
    expect(emergingMarkets.KRW).toMatchObject({ score: 87, '30dChange': '+5.24%' });
  });

  it('pins the stress index', () => {
    // G10 mean (45.2 + 37.3 + 16.0 + 72.3 + 49.6 + 35.6 + 29.8 + 34.7 + 43.3 + 42.9) / 10 = 40.67
    // EM mean (17.1 + 40.9 + 36.3 + 30.8 + 87.0 + 27.6 + 44.1 + 14.4 + 42.6 + 51.9) / 10 = 39.27
    // 0.5 * 40.67 + 0.5 * 39.27 = 39.97 -> 40
    expect(answer.body.stressIndex).toBe(40);
  });

  it('says what each corridor means for settlement', () => {
    expect(Object.keys(answer.body.settlementCorridorImpact)).toEqual(parameters.corridors);
    expect(answer.body.settlementCorridorImpact.USD_JPY).toMatch(/^ELEVATED: JPY realised volatility 11\.5% \(percentile 85\)/);
    expect(answer.body.settlementCorridorImpact.USD_GBP).toMatch(/^CALM: /);
  });

  it('names a currency it cannot read and leaves it out', () => {
    const partial = computeCurrencyStress(snapshotWithout('fx_daily_KRW_per_USD'), parameters);
    expect(partial.body.emergingMarkets.KRW).toBeUndefined();
    expect(partial.missing).toEqual(['KRW: fx_daily_KRW_per_USD']);
    expect(partial.body.settlementCorridorImpact.USD_KRW).toBe('UNKNOWN: no KRW series in the snapshot');
  });
});

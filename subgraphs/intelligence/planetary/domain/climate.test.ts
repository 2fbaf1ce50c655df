import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/climate.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { annual, testSeries } from '../testing.js';
import { basketChanges, type ClimateParameters, computeClimate, precipitationShiftPct } from './index.js';

const parameters = parametersJson as ClimateParameters;

/** The shipped snapshot with annual precipitation series for some zones laid over it. */
function withPrecipitation(zones: Record<string, Record<number, number>>) {
  const series = new Map(snapshotSeries());
  for (const [zone, values] of Object.entries(zones)) series.set(`precip_annual_mm:${zone}`, testSeries(`precip_annual_mm:${zone}`, annual(values), 'annual'));
  return series;
}

describe('precipitationShiftPct: mean 2021-2023 against mean 1972-1974', () => {
  it('is the percent change of the two window means', () => {
    // Baseline (500 + 600 + 700) / 3 = 600; recent (450 + 480 + 510) / 3 = 480 -> -20%.
    const series = testSeries('p', annual({ 1972: 500, 1973: 600, 1974: 700, 2000: 9999, 2021: 450, 2022: 480, 2023: 510 }), 'annual');
    expect(precipitationShiftPct(series, parameters)).toBeCloseTo(-20, 10);
  });

  it('is undefined when a window has no observation', () => {
    expect(precipitationShiftPct(testSeries('p', annual({ 1972: 500, 2000: 600 }), 'annual'), parameters)).toBeUndefined();
  });
});

describe('the ladders of climate at their bounds', () => {
  it.each([
    [15, 'SEVERE_WETTING'],
    [14.9, 'WETTING'],
    [5, 'WETTING'],
    [4.9, 'STABLE'],
    [-5, 'STABLE'],
    [-5.1, 'DRYING'],
    [-15, 'DRYING'],
    [-15.1, 'SEVERE_DRYING'],
  ])('shift %s percent -> %s', (shift, classification) => expect(climbLadder(parameters.classifications, shift)).toBe(classification));

  it.each([
    [20, 'HIGH'],
    [19.9, 'ELEVATED'],
    [5, 'ELEVATED'],
    [4.9, 'NEUTRAL'],
    [-5, 'NEUTRAL'],
    [-5.1, 'EASING'],
  ])('food basket %s percent over 12 months -> %s', (change, pressure) => expect(climbLadder(parameters.foodInflationPressure, change)).toBe(pressure));

  it.each([
    [75, 'CRITICAL'],
    [74.9, 'HIGH'],
    [50, 'HIGH'],
    [49.9, 'ELEVATED'],
    [25, 'ELEVATED'],
    [24.9, 'LOW'],
  ])('climate score %s -> %s', (score, risk) => expect(climbLadder(parameters.globalFoodSystemRisk, score)).toBe(risk));
});

describe('basketChanges', () => {
  it('averages the 12-month changes on the dates every price has a year-earlier value', () => {
    const a = testSeries('a', [
      ['2024-01-01', 100],
      ['2025-01-01', 110],
      ['2025-02-01', 120],
    ]);
    const b = testSeries('b', [
      ['2024-01-01', 50],
      ['2025-01-01', 45],
    ]);
    // 2025-01: a +10%, b -10% -> 0. 2025-02: no year-earlier value for a, none at all for b -> left out.
    const changes = basketChanges([a, b]);
    expect(changes.map((change) => change.date)).toEqual(['2025-01-01']);
    expect(changes[0]!.changePct).toBeCloseTo(0, 10);
  });
});

describe('climate on the shipped snapshot (no zone has an open precipitation series)', () => {
  const answer = computeClimate(snapshotSeries(), parameters);

  it('leaves every zone out of regions, lists them in coverage and names their series missing', () => {
    expect(answer.body.regions).toEqual([]);
    expect(answer.body.coverage).toEqual({ regionsAssessed: 0, regionsRequired: 10, missingRegions: parameters.regions.map((region) => region.name) });
    expect(answer.missing).toHaveLength(10);
    expect(answer.missing[0]).toBe('precip_annual_mm:US Great Plains');
    expect(answer.body.transmission.migrationPressure).toMatch(/^UNKNOWN: no precipitation series for the migration-sensitive zones \(Sahel, /);
    expect(answer.body.summary.regionsAtRisk).toBe(0);
  });

  it('pins the food basket and the score that rests on it alone (arithmetic from the World Bank CSVs)', () => {
    // 2026-05 against 2025-05: wheat 303 / 237 = +27.848%, maize 216.17 / 203.87 = +6.033%,
    // rice 440 / 431 = +2.088%, soybeans 474.17 / 414.11 = +14.503% -> basket +12.618%: ELEVATED.
    expect(answer.body.transmission.foodInflationPressure).toBe('ELEVATED: food basket (wheat, maize, rice, soybeans) +12.6% over 12 months to 2026-05, percentile 74 of 30 years');
    // 267 of the 360 basket changes since 1996-05 are at or below +12.618% -> percentile 74.17; the only component.
    expect(answer.body.climateScore).toBe(74.2);
    expect(answer.body.summary.globalFoodSystemRisk).toBe('HIGH');
    // Moves of 10% or more: wheat and soybeans.
    expect(answer.body.summary.cascadeSignals).toEqual([
      'wheat +27.8% over 12 months to 2026-05 (Wheat, US HRW (monthly average price, nominal USD))',
      'soybeans +14.5% over 12 months to 2026-05 (Soybeans (monthly average price, nominal USD))',
    ]);
  });
});

describe('climate with precipitation series for two zones', () => {
  // Sahel: 1972-74 mean 300, 2021-23 mean 240 -> -20%: SEVERE_DRYING (at risk, migration-sensitive).
  // US Corn Belt: 800 -> 820 -> +2.5%: STABLE.
  const answer = computeClimate(
    withPrecipitation({ Sahel: { 1972: 300, 1973: 300, 1974: 300, 2021: 240, 2022: 240, 2023: 240 }, 'US Corn Belt': { 1972: 800, 1973: 800, 1974: 800, 2021: 820, 2022: 820, 2023: 820 } }),
    parameters,
  );

  it('assesses the zones with data and classifies them', () => {
    expect(answer.body.regions).toEqual([
      { name: 'US Corn Belt', precipitationShiftPct: 2.5, classification: 'STABLE', commodities: ['corn', 'soybeans'] },
      { name: 'Sahel', precipitationShiftPct: -20, classification: 'SEVERE_DRYING', commodities: ['millet', 'sorghum', 'cotton'] },
    ]);
    expect(answer.body.summary.regionsAtRisk).toBe(1);
    expect(answer.body.summary.criticalCommodities).toEqual(['millet', 'sorghum', 'cotton']);
    expect(answer.body.summary.cascadeSignals[0]).toBe('Sahel SEVERE_DRYING (-20%): millet, sorghum, cotton supply');
    expect(answer.body.transmission.migrationPressure).toBe('ELEVATED: structural rainfall shift in migration-sensitive zones: Sahel (SEVERE_DRYING, -20%)');
    expect(answer.body.coverage.regionsAssessed).toBe(2);
    expect(answer.missing).toHaveLength(8);
  });

  it('weighs the precipitation component in: 0.7 x 50 + 0.3 x 74.17 = 57.25 -> 57.3', () => {
    expect(answer.body.climateScore).toBe(57.3);
    expect(answer.body.summary.globalFoodSystemRisk).toBe('HIGH');
  });
});

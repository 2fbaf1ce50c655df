import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/earth-systems.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { tippingPointTable } from '../reference.js';
import { annual, testSeries } from '../testing.js';
import { computeEarthSystems, type EarthSystemsParameters, proximityRisk, seaLevelAcceleration, warmingAbovePreIndustrial } from './index.js';

const parameters = parametersJson as EarthSystemsParameters;
const tipping = tippingPointTable();
const greenland = tipping.elements.find((element) => element.id === 'GrIS')!;

describe('proximityRisk: the first rule from the top that warming reaches (Greenland: central 1.5, range 0.8-3.0 C)', () => {
  it.each([
    [1.5, 'CRITICAL'], // exactly the central estimate
    [1.49, 'HIGH'], // just below the central estimate, inside the range
    [0.8, 'HIGH'], // exactly the minimum
    [0.79, 'MODERATE'], // just below the minimum
    [0.3, 'MODERATE'], // exactly 0.5 C below the minimum: 0.8 - 0.5
    [0.29, 'LOW'], // just beyond that margin
  ])('%s C -> %s', (warming, risk) => {
    expect(proximityRisk(greenland, warming, parameters.proximityRules)).toBe(risk);
  });
});

describe('the ladders of earth-systems at their bounds', () => {
  it.each([
    [450, 'HIGH_RISK_ZONE'],
    [449.99, 'INCREASING_RISK_ZONE'],
    [350, 'INCREASING_RISK_ZONE'],
    [349.99, 'SAFE_OPERATING_SPACE'],
  ])('CO2 %s ppm -> %s', (ppm, zone) => expect(climbLadder(parameters.co2Signals, ppm)).toBe(zone));

  it.each([
    [5, 'CASCADE_RISK'],
    [4, 'WARNING'],
    [3, 'WARNING'],
    [2, 'WATCH'],
    [1, 'WATCH'],
    [0, 'CLEAR'],
  ])('%s elements in range -> %s', (count, alert) => expect(climbLadder(parameters.tippingPointAlerts, count)).toBe(alert));

  it.each([
    [75, 'HEALTHY'],
    [74.9, 'STRAINED'],
    [50, 'STRAINED'],
    [49.9, 'DEGRADED'],
    [25, 'DEGRADED'],
    [24.9, 'CRITICAL'],
  ])('Earth Health Index %s -> %s', (index, status) => expect(climbLadder(parameters.planetaryStatuses, index)).toBe(status));
});

describe('warmingAbovePreIndustrial', () => {
  it('adds the base-period offset measured in the long series to the trailing mean of the anomaly series', () => {
    // Long series: 1850-1900 at -0.3, 1951-1980 at 0.0 -> offset 0.3 C.
    const long = testSeries('long', [...annual({ 1850: -0.3, 1900: -0.3 }), ...annual({ 1951: 0, 1980: 0 })]);
    // Anomaly series (base 1951-1980): last 12 months 1.1 x 6 and 1.3 x 6 -> mean 1.2.
    const months = Array.from({ length: 12 }, (_, month) => [`2025-${String(month + 1).padStart(2, '0')}-01`, month < 6 ? 1.1 : 1.3] as [string, number]);
    const warming = warmingAbovePreIndustrial(testSeries('anomaly', months), long, parameters.temperature);
    expect(warming.offsetC).toBeCloseTo(0.3, 10);
    expect(warming.warmingC).toBeCloseTo(1.5, 10); // 1.2 + 0.3
    expect(warming.asOf).toBe('2025-12-01');
  });

  it('refuses a long series that does not cover both base periods', () => {
    expect(() => warmingAbovePreIndustrial(testSeries('x', annual({ 1990: 0 })), testSeries('short', annual({ 1960: 0 })), parameters.temperature)).toThrow(/does not cover/);
  });
});

describe('seaLevelAcceleration', () => {
  it('compares the rise of the last window with the rise of the first', () => {
    // 21 annual values: +1 a year for ten years, then +2 a year: (20 - 10) / 10 over (10 - 0) / 10 -> 2.
    const values = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [2000 + i, i <= 10 ? i : 10 + 2 * (i - 10)]));
    expect(seaLevelAcceleration(testSeries('sl', annual(values), 'annual'), 10)).toBeCloseTo(2, 10);
  });

  it('is undefined when the record is shorter than two windows', () => {
    expect(seaLevelAcceleration(testSeries('sl', annual({ 2000: 0, 2001: 1 }), 'annual'), 10)).toBeUndefined();
  });
});

describe('earth-systems on the shipped snapshot', () => {
  const answer = computeEarthSystems(snapshotSeries(), tipping, parameters);

  it('pins warming, CO2 and the Earth Health Index (arithmetic from the CSVs)', () => {
    // Offset: gcag mean 1951-1980 (-0.07660) minus mean 1850-1900 (-0.35649) = 0.27989 C.
    // GISTEMP last 12 months 2024-07..2025-06 sum 14.95 -> 1.24583; warming 1.24583 + 0.27989 = 1.52573.
    expect(answer.body.atmosphere.temperature).toEqual({ currentAnomalyC: 1.53, distanceToParisC: -0.03 });
    // Mauna Loa 2026-06 = 431.44 ppm; 2025-06 = 429.61 -> +1.83 ppm.
    expect(answer.body.atmosphere.co2.currentPpm).toBe(431.44);
    expect(answer.body.atmosphere.co2.signal).toMatch(/^INCREASING_RISK_ZONE: 431.44 ppm at Mauna Loa \(2026-06\), \+1.83 ppm/);
    // Pressures: temperature 1.52573 / 2 = 76.287; CO2 12-month mean 5139.56 / 12 = 428.297 -> 78.297;
    // tipping 4 of 9 in range (GrIS 0.8, WAIS 1.0, LABC 1.1, AMOC 1.4) -> 44.444;
    // sea level (10.20390 - 8.58620) / 10 over (7.50148 - 6.30880) / 10 = 1.35637 -> 35.637.
    // Weighted: 0.35 x 76.287 + 0.25 x 78.297 + 0.25 x 44.444 + 0.15 x 35.637 = 62.73 -> index 100 - 62.7 = 37.3.
    expect(answer.body.sustainability.earthHealthIndex).toBe(37.3);
    expect(answer.body.sustainability.planetaryStatus).toBe('DEGRADED');
    expect(answer.body.sustainability.tippingPointAlert).toBe('WARNING: 4 of 9 core tipping elements inside their threshold range at 1.53 C (GrIS, WAIS, LABC, AMOC)');
  });

  it('lists the nine core elements with their published thresholds and proximity', () => {
    expect(answer.body.tippingPoints).toHaveLength(9);
    expect(answer.body.tippingPoints.map((point) => point.proximityRisk)).toEqual(['CRITICAL', 'CRITICAL', 'HIGH', 'MODERATE', 'MODERATE', 'LOW', 'HIGH', 'LOW', 'LOW']);
    expect(answer.body.tippingPoints[0]).toEqual({ name: 'Greenland Ice Sheet collapse', proximityRisk: 'CRITICAL', threshold: '1.5 C (range 0.8-3 C above 1850-1900; Armstrong McKay et al. 2022)' });
  });

  it('names its inputs, the tipping-point table among them, and misses none', () => {
    expect(answer.inputs.map((input) => input.id)).toEqual([
      'co2_mauna_loa_monthly',
      'co2_global_marine_monthly',
      'gistemp_global_monthly',
      'global_temp_gcag_hadcrut_monthly',
      'sea_level_noaa_adjusted_annual',
      'armstrong_mckay_2022_tipping_points',
    ]);
    expect(answer.missing).toEqual([]);
  });

  it('answers without sea level (its weight renormalised) and names it missing', () => {
    const withoutSeaLevel = new Map(snapshotSeries());
    withoutSeaLevel.delete('sea_level_noaa_adjusted_annual');
    const partial = computeEarthSystems(withoutSeaLevel, tipping, parameters);
    // (0.35 x 76.287 + 0.25 x 78.297 + 0.25 x 44.444) / 0.85 = 67.52 -> 100 - 67.5 = 32.5.
    expect(partial.body.sustainability.earthHealthIndex).toBe(32.5);
    expect(partial.missing).toEqual(['sea_level_noaa_adjusted_annual']);
  });
});

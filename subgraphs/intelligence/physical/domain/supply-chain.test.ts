import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/supply-chain.json' with { type: 'json' };
import { computeSupplyChain, DATA_UNAVAILABLE, readGauges, type SupplyChainParameters } from './index.js';
import { testSeries, withoutSeries, withSeries } from './testing.js';

const parameters = parametersJson as SupplyChainParameters;
const snapshot = snapshotSeries();
const TODAY = '2026-11-22';

describe('supply-chain against the shipped snapshot', () => {
  const { body, inputs, missing } = computeSupplyChain(snapshot, parameters, TODAY);

  it('reads the GSCPI as its z-score, with the 3-month change in the same vintage', () => {
    // GSCPI.csv: 2026-06-01 = 1.249401668 -> 1.25; 2026-03-01 = 0.712756405; 1.249401668 - 0.712756405 = 0.536645263 -> 0.54
    expect(body.gscpiZScore).toBe(1.25);
    expect(body.gscpiAsOf).toBe('2026-06-01');
    expect(body.gscpiChange).toBe(0.54);
    // 1.0 <= 1.25 < 2.0
    expect(body.regime).toBe('ELEVATED');
    expect(body.leadMonths).toBe(4);
    expect(body.goodsInflationLeadSignal).toMatch(/^GSCPI \+1\.25 sd, rising \(\+0\.54 over 3 months\): above-normal pressure/);
  });

  it('reads the Rhine at Kaub, the Mississippi at St. Louis and Lakes Michigan-Huron, each with its status, risk and age', () => {
    // rhine_kaub_daily_cm.csv last row 2026-09-09 = 25.9 cm: below 40 -> EXTREME_LOW -> SEVERE
    expect(body.waterLevels.rhineKaub).toEqual({ levelCm: 25.9, status: 'EXTREME_LOW', bottleneckRisk: 'SEVERE', asOf: '2026-09-09', stale: true, reference: expect.stringContaining('Kaub') });
    // mississippi_st_louis_daily_ft.csv last row 2026-01-21 = -4.02 ft; -4.02 x 30.48 = -122.5296 -> -122.5 cm: in [-152.4, 0) -> LOW -> MODERATE
    expect(body.waterLevels.mississippi).toMatchObject({ levelCm: -122.5, status: 'LOW', bottleneckRisk: 'MODERATE', asOf: '2026-01-21', stale: true });
    // 2026-01 = 176.02 m -> 17602 cm; 29 of the 109 Januaries 1918-2026 are at or below 176.02: 26.6th percentile -> NORMAL (>= 25)
    expect(body.waterLevels.greatLakes).toMatchObject({ levelCm: 17602, seasonalPercentile: 26.6, status: 'NORMAL', bottleneckRisk: 'LOW', asOf: '2026-01-01', stale: true });
  });

  it('says the Panama Canal gauge is unavailable rather than inventing a level, and names the missing input', () => {
    expect(body.waterLevels.panamaCanal).toEqual({ levelCm: null, status: DATA_UNAVAILABLE, bottleneckRisk: 'UNKNOWN', asOf: null, stale: true, reference: expect.any(String) });
    expect(missing).toEqual([expect.stringMatching(/^waterLevels\.panamaCanal: Gatun Lake level/)]);
    expect(inputs.map((input) => input.id)).toEqual(['GSCPI', 'rhine_kaub_daily_cm', 'mississippi_st_louis_daily_ft', 'great_lakes_michigan_huron_monthly_m']);
  });

  it('is deterministic: the same dataset and day give the same answer', () => {
    expect(computeSupplyChain(snapshot, parameters, TODAY)).toEqual(computeSupplyChain(snapshot, parameters, TODAY));
  });
});

describe('the GSCPI regime ladder', () => {
  const regimeAt = (value: number) =>
    computeSupplyChain(
      withSeries(
        snapshot,
        testSeries(
          'GSCPI',
          [
            ['2026-01-01', 0],
            ['2026-04-01', value],
          ],
          'monthly',
        ),
      ),
      parameters,
      TODAY,
    ).body;

  it.each([
    [2.0, 'EXTREME'],
    [1.99, 'ELEVATED'],
    [1.0, 'ELEVATED'],
    [0.99, 'NORMAL'],
    [-1.0, 'NORMAL'],
    [-1.01, 'SLACK'],
  ])('GSCPI %s -> %s', (value, regime) => {
    expect(regimeAt(value).regime).toBe(regime);
  });

  it('calls a move inside the steady band steady, and a fall easing', () => {
    expect(regimeAt(0.05).goodsInflationLeadSignal).toMatch(/, steady \(\+0\.05 over 3 months\)/);
    expect(regimeAt(-0.5).goodsInflationLeadSignal).toMatch(/, easing \(-0\.50 over 3 months\)/);
  });
});

describe('gauge status ladders at their bounds', () => {
  const kaubAt = (cm: number) => readGauges(withSeries(snapshot, testSeries('rhine_kaub_daily_cm', [['2026-11-21', cm]])), parameters, TODAY).readings.rhineKaub;
  const mississippiAt = (feet: number) => readGauges(withSeries(snapshot, testSeries('mississippi_st_louis_daily_ft', [['2026-11-21', feet]])), parameters, TODAY).readings.mississippi;

  it.each([
    [640, 'HIGH_WATER_RESTRICTED', 'HIGH'],
    [639.9, 'ELEVATED', 'LOW'],
    [150, 'NORMAL', 'LOW'],
    [149.9, 'LOW', 'MODERATE'],
    [78, 'LOW', 'MODERATE'],
    [77.9, 'CRITICAL_LOW', 'HIGH'],
    [40, 'CRITICAL_LOW', 'HIGH'],
    [39.9, 'EXTREME_LOW', 'SEVERE'],
  ])('Kaub %s cm -> %s, bottleneck %s', (cm, status, risk) => {
    expect(kaubAt(cm)).toMatchObject({ levelCm: cm, status, bottleneckRisk: risk, stale: false });
  });

  it.each([
    [30, 914.4, 'HIGH_WATER_RESTRICTED'],
    [0, 0, 'NORMAL'],
    [-0.01, -0.3, 'LOW'],
    [-5, -152.4, 'LOW'],
    [-5.01, -152.7, 'CRITICAL_LOW'],
  ])('St. Louis %s ft = %s cm -> %s', (feet, cm, status) => {
    expect(mississippiAt(feet)).toMatchObject({ levelCm: cm, status });
  });

  it('rates the Great Lakes by the percentile of the level among the same calendar month', () => {
    const lakes = (earlierNovembers: number[], latest: number) => {
      const points: Array<[string, number]> = earlierNovembers.map((value, index) => [`${2020 + index}-11-01`, value]);
      const series = testSeries('great_lakes_michigan_huron_monthly_m', [...points, ['2026-10-01', 170], ['2026-11-01', latest]], 'monthly');
      return readGauges(withSeries(snapshot, series), parameters, TODAY).readings.greatLakes;
    };
    // four Novembers, the latest the lowest: 1 of 4 at or below it = 25 -> NORMAL (the October value does not count)
    expect(lakes([176.3, 176.2, 176.1], 176.0)).toMatchObject({ seasonalPercentile: 25, status: 'NORMAL', bottleneckRisk: 'LOW', stale: false });
    // five Novembers, the latest the lowest: 1 of 5 = 20 -> LOW
    expect(lakes([176.4, 176.3, 176.2, 176.1], 176.0)).toMatchObject({ seasonalPercentile: 20, status: 'LOW', bottleneckRisk: 'MODERATE' });
    // the latest the highest of ten: 10 of 10 = 100 -> HIGH; 9 of 10 = 90 -> HIGH; 8 of 9... see the bound below
    expect(lakes([176.1, 176.1, 176.1, 176.1, 176.1, 176.1, 176.1, 176.1, 176.5], 176.2)).toMatchObject({ seasonalPercentile: 90, status: 'HIGH' });
  });

  it('flags a reading older than the gauge allows as stale: Kaub 3 days', () => {
    const reading = (date: string) => readGauges(withSeries(snapshot, testSeries('rhine_kaub_daily_cm', [[date, 200]])), parameters, TODAY).readings.rhineKaub.stale;
    expect(reading('2026-11-19')).toBe(false);
    expect(reading('2026-11-18')).toBe(true);
  });

  it('turns a gauge whose series is absent into DATA_UNAVAILABLE with its input named', () => {
    const gauges = readGauges(withoutSeries(snapshot, 'mississippi_st_louis_daily_ft'), parameters, TODAY);
    expect(gauges.readings.mississippi).toMatchObject({ levelCm: null, status: DATA_UNAVAILABLE, bottleneckRisk: 'UNKNOWN' });
    expect(gauges.missing).toContain('waterLevels.mississippi: USGS 07010000 gage height, daily mean');
  });
});

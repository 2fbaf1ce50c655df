import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/climate-pulse.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { testSeries, testSet } from '../testing.js';
import { type ClimatePulseParameters, computeClimatePulse, regionSeriesId, regionSignal } from './index.js';

const parameters = parametersJson as ClimatePulseParameters;

/** A region's two live series, as the Open-Meteo and US Drought Monitor overlay would provide them. */
function regionInputs(region: string, anomalyC: number, droughtIndex: number) {
  return [
    testSeries(regionSeriesId(parameters.seriesIds.temperatureAnomaly, region), [['2026-10-01', anomalyC]], 'daily'),
    testSeries(regionSeriesId(parameters.seriesIds.droughtIndex, region), [['2026-09-29', droughtIndex]], 'weekly'),
  ];
}

describe('the ladders of climate-pulse at their bounds', () => {
  it.each([
    [3, 'EXTREME'],
    [2.99, 'SEVERE'],
    [2, 'SEVERE'],
    [1.99, 'MODERATE'],
    [1, 'MODERATE'],
    [0.99, 'ABNORMALLY_DRY'],
    [0.5, 'ABNORMALLY_DRY'],
    [0.49, 'NONE'],
  ])('drought index %s -> %s', (index, severity) => expect(climbLadder(parameters.droughtSeverity, index)).toBe(severity));

  it.each([
    [4, 'SEVERE'],
    [3, 'ELEVATED'],
    [2, 'ELEVATED'],
    [1, 'WATCH'],
    [0, 'CALM'],
  ])('%s stressed regions -> %s', (count, signal) => expect(climbLadder(parameters.overallSignals, count)).toBe(signal));

  it.each([
    [1.5, 'MODERATE', 'HEAT_AND_DROUGHT'], // exactly the heat bound, drought from MODERATE
    [1.49, 'MODERATE', 'DROUGHT'],
    [1.5, 'ABNORMALLY_DRY', 'HEAT'], // abnormally dry is not drought
    [-1.5, 'NONE', 'COLD'], // exactly the cold bound
    [-1.49, 'NONE', 'NORMAL'],
    [null, 'SEVERE', 'DROUGHT'], // temperature unknown, drought known
    [null, null, 'NO_DATA'],
  ])('anomaly %s C, drought %s -> %s', (anomaly, drought, signal) => expect(regionSignal(anomaly, drought, parameters)).toBe(signal));
});

describe('climate-pulse on the shipped snapshot (no regional series is openly published)', () => {
  const answer = computeClimatePulse(snapshotSeries(), parameters);

  it('answers NO_DATA for every region, with null anomalies, and names the 16 series missing', () => {
    expect(answer.body.regions.map((region) => region.name)).toEqual(['Pacific Northwest', 'California', 'Southwest', 'Mountain West', 'Great Plains', 'Midwest', 'Southeast', 'Northeast']);
    expect(answer.body.regions.every((region) => region.tempAnomaly === null && region.signal === 'NO_DATA' && region.droughtSeverity === 'NO_DATA')).toBe(true);
    expect(answer.body.summary).toMatchObject({ overallSignal: 'NO_DATA', regionsWithHeatAnomaly: 0, regionsWithDrought: 0 });
    expect(answer.body.summary.laborProductivityImpact).toMatch(/^UNKNOWN: /);
    expect(answer.missing).toHaveLength(16);
    expect(answer.missing.slice(0, 2)).toEqual(['us_region_temperature_anomaly_c:Pacific Northwest', 'us_region_drought_index:Pacific Northwest']);
    expect(answer.inputs).toEqual([]);
  });
});

describe('climate-pulse with a live overlay for three regions', () => {
  // Midwest: +2.1 C and drought index 2.4 (SEVERE) -> HEAT_AND_DROUGHT. California: +1.6 C, index 0.2 -> HEAT.
  // Northeast: +0.3 C, index 0.0 -> NORMAL. The other five have no series.
  const series = testSet(...regionInputs('Midwest', 2.1, 2.4), ...regionInputs('California', 1.6, 0.2), ...regionInputs('Northeast', 0.3, 0));
  const answer = computeClimatePulse(series, parameters);
  const byName = new Map(answer.body.regions.map((region) => [region.name, region]));

  it('reads each region from its series', () => {
    expect(byName.get('Midwest')).toEqual({ name: 'Midwest', tempAnomaly: 2.1, droughtSeverity: 'SEVERE', commodityImpact: ['corn', 'soybeans', 'hogs', 'dairy'], signal: 'HEAT_AND_DROUGHT' });
    expect(byName.get('California')).toMatchObject({ tempAnomaly: 1.6, droughtSeverity: 'NONE', signal: 'HEAT' });
    expect(byName.get('Northeast')).toMatchObject({ signal: 'NORMAL', commodityImpact: [] });
    expect(byName.get('Southwest')).toMatchObject({ tempAnomaly: null, signal: 'NO_DATA' });
  });

  it('counts heat and drought regions, and summarises commodities and labour', () => {
    // Stressed: Midwest and California -> 2 -> ELEVATED. Heat: both; drought: Midwest.
    expect(answer.body.summary.overallSignal).toBe('ELEVATED');
    expect(answer.body.summary.regionsWithHeatAnomaly).toBe(2);
    expect(answer.body.summary.regionsWithDrought).toBe(1);
    expect(answer.body.summary.commoditySignal).toBe('California heat: almonds, dairy, vegetables, wine grapes; Midwest heat and drought: corn, soybeans, hogs, dairy');
    expect(answer.body.summary.laborProductivityImpact).toBe('MODERATE: heat stress on outdoor work in California, Midwest');
    expect(answer.inputs).toHaveLength(6);
    expect(answer.missing).toHaveLength(10);
  });
});

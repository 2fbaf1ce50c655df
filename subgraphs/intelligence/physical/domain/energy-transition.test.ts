import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/energy-transition.json' with { type: 'json' };
import { computeEnergyTransition, type EnergyTransitionParameters } from './index.js';
import { testSeries, withoutSeries, withSeries } from './testing.js';

const parameters = parametersJson as EnergyTransitionParameters;
const snapshot = snapshotSeries();

describe('energy-transition against the shipped snapshot', () => {
  const { body, inputs, missing } = computeEnergyTransition(snapshot, parameters);

  it('reads the US renewable share and its 5-year trend', () => {
    // owid_us_renewables_share_elec_pct.csv: 2021 = 20.935 -> 20.9; 2016 = 15.219; (20.935 - 15.219) / 5 = 1.1432 -> 1.14 pp a year >= 1.0
    expect(body.renewableSharePct).toBe(20.9);
    expect(body.renewableShareYear).toBe(2021);
    expect(body.renewableTrendPpPerYear).toBe(1.14);
    expect(body.renewableTrend).toBe('ACCELERATING');
  });

  it('reads the US fossil demand curve against its peak and over 5 years', () => {
    // owid_us_fossil_fuel_consumption_twh.csv: 2020 = 19915.511, peak 2007 = 23577.007, 2015 = 21670.465
    // 19915.511 / 23577.007 - 1 = -15.53 %; 19915.511 / 21670.465 - 1 = -8.10 %: both below the DECLINING bounds (-5, -2)
    expect(body.fossilDemand).toEqual({ latestTwh: 19915.5, latestYear: 2020, peakTwh: 23577, peakYear: 2007, changeFromPeakPct: -15.53, changePct: -8.1, windowYears: 5 });
    expect(body.fossilDemandCurve).toBe('DECLINING');
    expect(body.signal).toBe('TRANSITION_ACCELERATING');
  });

  it('gives grid carbon intensity for the US, the EU and the world in gCO2/kWh (Ember 2024)', () => {
    // ember_carbon_intensity_*.csv 2024: US 383.55 -> 383.6, EU 213.02 -> 213, World 472.94 -> 472.9
    expect(body.gridCarbonIntensity).toEqual({ us: 383.6, eu: 213, global: 472.9, unit: 'gCO2/kWh', year: 2024, basis: expect.stringContaining('Ember') });
  });

  it('says its data are stale and names every input', () => {
    expect(body.dataVintage).toMatch(/^STALE: .*2021.*2020/);
    expect(inputs.map((input) => input.id)).toEqual([
      'owid_us_renewables_share_elec_pct',
      'owid_us_fossil_fuel_consumption_twh',
      'ember_carbon_intensity_us',
      'ember_carbon_intensity_eu',
      'ember_carbon_intensity_world',
    ]);
    expect(missing).toEqual([]);
  });
});

/** A renewable share growing by `perYear` points a year for six years, with the snapshot's other series. */
function withShareTrend(perYear: number) {
  const points: Array<[string, number]> = [0, 1, 2, 3, 4, 5].map((step) => [`${2016 + step}-01-01`, 10 + perYear * step]);
  return withSeries(snapshot, testSeries('owid_us_renewables_share_elec_pct', points, 'annual'));
}

/** Fossil demand: a peak, then 2015 and 2020 values. */
function withFossil(peak: number, in2015: number, in2020: number) {
  return withSeries(
    snapshot,
    testSeries(
      'owid_us_fossil_fuel_consumption_twh',
      [
        ['2007-01-01', peak],
        ['2015-01-01', in2015],
        ['2020-01-01', in2020],
      ],
      'annual',
    ),
  );
}

describe('the energy-transition ladders at their bounds', () => {
  it.each([
    [1.0, 'ACCELERATING'],
    [0.99, 'RISING'],
    [0.3, 'RISING'],
    [0.29, 'FLAT'],
    [-0.3, 'FLAT'],
    [-0.31, 'FALLING'],
  ])('a share rising %s points a year is %s', (perYear, trend) => {
    expect(computeEnergyTransition(withShareTrend(perYear), parameters).body.renewableTrend).toBe(trend);
  });

  it('DECLINING needs 5 % below the peak and 2 % down over the window; PLATEAU up to +2 %; RISING above', () => {
    const curve = (peak: number, in2015: number, in2020: number) => computeEnergyTransition(withFossil(peak, in2015, in2020), parameters).body.fossilDemandCurve;
    expect(curve(100, 97, 95)).toBe('DECLINING'); // -5 % from peak, -2.06 % over 5 years
    expect(curve(100, 96.9, 95.01)).toBe('PLATEAU'); // -4.99 % from peak
    expect(curve(100, 95, 93.1)).toBe('DECLINING'); // exactly -2 % over the window
    expect(curve(100, 95, 93.11)).toBe('PLATEAU'); // -1.99 %
    expect(curve(110, 100, 102)).toBe('PLATEAU'); // exactly +2 %
    expect(curve(110, 100, 102.01)).toBe('RISING');
  });

  it('signals STALLED when the share is flat, whatever fossil demand does, and REVERSING when it falls', () => {
    expect(computeEnergyTransition(withShareTrend(0), parameters).body.signal).toBe('STALLED');
    expect(computeEnergyTransition(withShareTrend(-1), parameters).body.signal).toBe('REVERSING');
  });

  it('signals STEADY_TRANSITION when renewables accelerate but fossil demand still rises', () => {
    const set = withSeries(
      withShareTrend(1.5),
      testSeries(
        'owid_us_fossil_fuel_consumption_twh',
        [
          ['2015-01-01', 100],
          ['2020-01-01', 110],
        ],
        'annual',
      ),
    );
    expect(computeEnergyTransition(set, parameters).body).toMatchObject({ renewableTrend: 'ACCELERATING', fossilDemandCurve: 'RISING', signal: 'STEADY_TRANSITION' });
  });

  it('answers null for a grid whose series is missing, and names it', () => {
    const answer = computeEnergyTransition(withoutSeries(snapshot, 'ember_carbon_intensity_eu'), parameters);
    expect(answer.body.gridCarbonIntensity.eu).toBeNull();
    expect(answer.missing).toEqual(['gridCarbonIntensity: ember_carbon_intensity_eu']);
  });
});

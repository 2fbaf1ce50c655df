import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/water-risk.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { computeWaterRisk, type WaterRiskParameters } from './index.js';
import { testSeries, withoutSeries, withSeries } from './testing.js';

const parameters = parametersJson as WaterRiskParameters;
const snapshot = snapshotSeries();
const REGIONS = ['US Southwest', 'US Midwest', 'Western Europe', 'South Asia', 'East Asia', 'Sub-Saharan Africa'];

describe('water-risk against the shipped snapshot (WRI Aqueduct 4.0 country categories)', () => {
  const { body, inputs, missing } = computeWaterRisk(snapshot, parameters);

  it('scores the six regions of the spec, each with drought severity, stress score and the four sectors', () => {
    expect(Object.keys(body.regions)).toEqual(REGIONS);
    for (const region of Object.values(body.regions)) {
      expect(region).toMatchObject({ droughtSeverity: expect.any(String), stressScore: expect.any(Number), basis: expect.any(String) });
      expect(Object.keys(region.sectors)).toEqual(['agriculture', 'semiconductors', 'beverages', 'energy']);
    }
  });

  it('pins East Asia: CHN, JPN, KOR, MNG, PRK', () => {
    // bws 2, 1, 2, 3, 2 -> 2; drr 3, 2, 1, 2, 3 -> 2.2; rfr 1, 0, 0, 3, 4 -> 1.6
    // stressScore = 100 x (0.6 x 2 + 0.4 x 2.2) / 4 = 52; drought 2.2 -> MEDIUM (>= 1.5)
    // agriculture 0.5 x 2 + 0.5 x 2.2 = 2.1; semiconductors 0.8 x 2 + 0.2 x 1.6 = 1.92; beverages 0.8 x 2 + 0.2 x 2.2 = 2.04;
    // energy 0.3 x 2 + 0.4 x 2.2 + 0.3 x 1.6 = 1.96: all in [1.5, 2.25) -> MEDIUM
    expect(body.regions['East Asia']).toEqual({
      droughtSeverity: 'MEDIUM',
      stressScore: 52,
      sectors: { agriculture: 'MEDIUM', semiconductors: 'MEDIUM', beverages: 'MEDIUM', energy: 'MEDIUM' },
      hazards: { bws: 2, drr: 2.2, rfr: 1.6 },
      countriesWithData: 5,
      basis: expect.stringContaining('Eastern Asia'),
    });
  });

  it('pins the US regions to the national figure, and says so', () => {
    // USA: bws 2, drr 1, rfr 0 -> stress 100 x (1.2 + 0.4) / 4 = 40; agriculture 0.5 x 2 + 0.5 x 1 = 1.5 (the MEDIUM bound); energy 0.6 + 0.4 + 0 = 1.0 -> LOW
    expect(body.regions['US Southwest']).toMatchObject({ droughtSeverity: 'LOW', stressScore: 40, sectors: { agriculture: 'MEDIUM', semiconductors: 'MEDIUM', beverages: 'MEDIUM', energy: 'LOW' } });
    expect(body.regions['US Midwest']).toEqual(body.regions['US Southwest']);
    expect(body.regions['US Midwest']!.basis).toMatch(/national figure/);
  });

  it('averages the region scores into the global index and rates it for TNFD', () => {
    // (40 + 40 + 40.1 + 60.8 + 52 + 28.7) / 6 = 261.6 / 6 = 43.6 -> MEDIUM (40 <= 43.6 < 60)
    expect(body.globalStressIndex).toBe(43.6);
    expect(body.tnfdAlignment).toEqual({ physicalRiskRating: 'MEDIUM', disclosureRecommendation: parameters.tnfd.disclosureRecommendation.MEDIUM });
    expect(body.narrative).toMatch(/^Global water stress index 43\.6 \(TNFD physical risk MEDIUM\)\. Highest: South Asia \(stress score 60\.8/);
  });

  it('lists each country series it read once, and names the inputs it cannot have', () => {
    const ids = inputs.map((input) => input.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('aqueduct40_bws:USA');
    // Cabo Verde has no drought category in the extract (-9999): not an input
    expect(ids).not.toContain('aqueduct40_drr:CPV');
    expect(missing).toEqual(parameters.alwaysMissing);
  });
});

describe('water-risk ladders at their bounds', () => {
  /** The snapshot with the USA categories replaced. */
  const usa = (bws: number, drr: number, rfr: number) =>
    computeWaterRisk(
      withSeries(snapshot, testSeries('aqueduct40_bws:USA', [['2023-07-05', bws]]), testSeries('aqueduct40_drr:USA', [['2023-07-05', drr]]), testSeries('aqueduct40_rfr:USA', [['2023-07-05', rfr]])),
      parameters,
    ).body.regions['US Southwest']!;

  it.each([
    [3.5, 'EXTREME'],
    [3.49, 'HIGH'],
    [2.5, 'HIGH'],
    [2.49, 'MEDIUM'],
    [0.5, 'LOW'],
    [0.49, 'MINIMAL'],
  ])('drought category %s -> %s', (drr, severity) => {
    expect(usa(0, drr, 0).droughtSeverity).toBe(severity);
  });

  it.each([
    [3, 'SEVERE'],
    [2.99, 'HIGH'],
    [2.25, 'HIGH'],
    [2.24, 'MEDIUM'],
    [1.5, 'MEDIUM'],
    [1.49, 'LOW'],
  ])('agriculture with bws = drr = %s -> %s', (category, rating) => {
    expect(usa(category, category, 0).sectors.agriculture).toBe(rating);
  });

  it('rates TNFD physical risk HIGH from a global index of 60 and LOW below 40', () => {
    const rating = (index: number) => climbLadder(parameters.tnfd.ratings, index);
    expect([rating(60), rating(59.9), rating(40), rating(39.9)]).toEqual(['HIGH', 'MEDIUM', 'MEDIUM', 'LOW']);
    // every USA category at 4: the two US regions at 100 lift the mean (100 + 100 + 40.1 + 60.8 + 52 + 28.7) / 6 = 63.6 -> HIGH
    const answer = computeWaterRisk(withSeries(snapshot, testSeries('aqueduct40_bws:USA', [['2023-07-05', 4]]), testSeries('aqueduct40_drr:USA', [['2023-07-05', 4]])), parameters);
    expect(answer.body.globalStressIndex).toBe(63.6);
    expect(answer.body.tnfdAlignment.physicalRiskRating).toBe('HIGH');
  });

  it('leaves out a region none of whose countries has a value, and names it', () => {
    const answer = computeWaterRisk(withoutSeries(snapshot, 'aqueduct40_bws:USA', 'aqueduct40_drr:USA', 'aqueduct40_rfr:USA'), parameters);
    expect(Object.keys(answer.body.regions)).toEqual(REGIONS.slice(2));
    expect(answer.missing).toContain('regions.US Southwest: no Aqueduct category for USA');
  });
});

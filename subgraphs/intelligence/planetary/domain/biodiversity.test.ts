import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import parametersJson from '../../data/parameters/biodiversity.json' with { type: 'json' };
import { climbLadder } from '../../domain/index.js';
import { dependencyTable } from '../reference.js';
import { annual, testSeries, testSet } from '../testing.js';
import { type BiodiversityParameters, computeBiodiversity, scoreDependency } from './index.js';

const parameters = parametersJson as BiodiversityParameters;
const table = dependencyTable();

describe('scoreDependency: the mean ENCORE rating over the services rated, VH = 100', () => {
  it.each([
    // VH, H -> (5 + 4) / 2 / 5 = 90; both material.
    [{ a: 'VH', b: 'H' }, 90, ['a', 'b']],
    // M, L, VL, N/A -> (3 + 2 + 1 + 0) / 4 / 5 = 30; none material.
    [{ a: 'M', b: 'L', c: 'VL', d: 'N/A' }, 30, []],
    // ND is unknown, not zero: left out -> H alone = 80.
    [{ a: 'H', b: 'ND' }, 80, ['a']],
    // Water supply is left out (ENCORE explanatory note 1): VH on it does not count -> L alone = 40.
    [{ 'Water supply': 'VH', b: 'L' }, 40, []],
  ])('%o -> %s', (ratings, score, material) => {
    expect(scoreDependency({ isicCode: 'X', isicClass: 'x', ratings }, parameters)).toEqual({ dependencyScore: score, materialDependencies: material });
  });
});

describe('the ladders of biodiversity at their bounds', () => {
  it.each([
    [60, 'VERY_HIGH'],
    [59.9, 'HIGH'],
    [35, 'HIGH'],
    [34.9, 'MEDIUM'],
    [20, 'MEDIUM'],
    [19.9, 'LOW'],
  ])('dependency score %s -> exposure %s', (score, level) => expect(climbLadder(parameters.exposureLevels, score)).toBe(level));

  it.each([
    [70, 'VERY_HIGH'],
    [69.9, 'HIGH'],
    [50, 'HIGH'],
    [49.9, 'MODERATE'],
    [30, 'MODERATE'],
    [29.9, 'LOW'],
  ])('nature-risk score %s -> TNFD rating %s', (score, rating) => expect(climbLadder(parameters.tnfdRatings, score)).toBe(rating));

  it.each([
    [20, 'SEVERE_DECLINE'],
    [19.9, 'DECLINING'],
    [5, 'DECLINING'],
    [4.9, 'STABLE'],
    [-5, 'STABLE'],
    [-5.1, 'RECOVERING'],
  ])('ten-year decline %s percent -> trend %s', (decline, trend) => expect(climbLadder(parameters.trends, decline)).toBe(trend));

  it.each([
    [50, 'HIGH'],
    [49.9, 'ELEVATED'],
    [25, 'ELEVATED'],
    [24.9, 'LOW'],
  ])('share of regions that are hotspots %s percent -> PAI 7 exposure %s', (share, level) => expect(climbLadder(parameters.pai7.exposureLevels, share)).toBe(level));
});

describe('biodiversity on the shipped snapshot', () => {
  const answer = computeBiodiversity(snapshotSeries(), table, parameters);
  const body = answer.body;

  it('pins the index, the trend and the hotspots (arithmetic from lpi_owid_2022.csv)', () => {
    // World 2018 = 30.897567 -> 30.9; 2008 = 38.719392: (38.719392 - 30.897567) / 38.719392 = 20.2% decline.
    expect(body.globalBiodiversityIndex).toBe(30.9);
    expect(body.iucnSignals.trend).toBe('SEVERE_DECLINE: the world Living Planet Index moved -20.2% from 2008 to 2018');
    // At or below 50: Latin America 6.413632, Africa 34.445876 (2017), Asia and Pacific 44.67965; lowest first.
    expect(body.iucnSignals.hotspots).toEqual([
      { region: 'Latin America and the Caribbean', livingPlanetIndex: 6.4, changeSince1970Pct: -93.6 },
      { region: 'Africa', livingPlanetIndex: 34.4, changeSince1970Pct: -65.6 },
      { region: 'Asia and Pacific', livingPlanetIndex: 44.7, changeSince1970Pct: -55.3 },
    ]);
    expect(body.iucnSignals.criticallyEndangered).toBeNull();
    expect(body.iucnSignals.endangered).toBeNull();
  });

  it('scores the sectors from the ENCORE rows and pins the nature-risk score', () => {
    // Cereals: 24 services rated (water supply left out), ratings summing to 73 -> 73 / 24 / 5 = 60.8: VERY_HIGH.
    expect(body.sectorDependencyMatrix.agriculture).toMatchObject({ dependencyScore: 60.8, exposureLevel: 'VERY_HIGH', isicCode: 'A_1_11_111' });
    // Fishing: 21 rated (3 ND), sum 75 -> 71.4. Auxiliary financial services: 24 rated, sum 7 -> 5.8: LOW.
    expect(body.sectorDependencyMatrix.fisheries?.dependencyScore).toBe(71.4);
    expect(body.sectorDependencyMatrix.financialServices).toMatchObject({ dependencyScore: 5.8, exposureLevel: 'LOW' });
    expect(Object.keys(body.sectorDependencyMatrix)).toHaveLength(14);
    // Mean of the 14 sector scores 31.3214; state-of-nature pressure 100 - 30.897567 = 69.1024;
    // 0.6 x 69.1024 + 0.4 x 31.3214 = 53.990 -> 54.0: HIGH.
    expect(body.natureRiskScore).toBe(54);
    expect(body.tnfdRating).toBe('HIGH');
  });

  it('screens PAI 7 from the hotspots: 3 of 5 regions -> 60% -> HIGH, flagged for disclosure', () => {
    expect(body.pai7.disclosureFlag).toBe(true);
    expect(body.pai7.affectedRegions).toEqual(['Latin America and the Caribbean', 'Africa', 'Asia and Pacific']);
    expect(body.pai7.biodiversitySensitiveAreaExposure).toMatch(/^HIGH: 3 of 5 regions have lost more than 50% /);
  });

  it('writes the narrative from the data-file templates', () => {
    expect(body.narrative).toContain('The world Living Planet Index stands at 30.9 (1970 = 100, 2018)');
    expect(body.narrative).toContain('Freshwater populations: 17.1.');
    expect(body.narrative).toContain('fisheries (71.4), agriculture (60.8), forestry (36.2)');
  });

  it('names the IUCN counts missing, so the answer is PARTIAL, and shows the ENCORE table among its inputs', () => {
    expect(answer.missing).toEqual([parameters.missing.iucnCounts]);
    expect(answer.inputs.map((input) => input.id)).toContain('encore_dependency_ratings');
    expect(answer.inputs.map((input) => input.id)).toContain('lpi_owid:World');
  });
});

describe('biodiversity on a small dataset', () => {
  it('needs the world index, and answers without the regions (no hotspot, PAI 7 LOW and not flagged)', () => {
    const world = testSeries('lpi_owid:World', annual({ 2000: 80, 2010: 76 }), 'annual');
    const answer = computeBiodiversity(testSet(world), table, parameters);
    // Decline 2000 -> 2010: (80 - 76) / 80 = 5% -> DECLINING.
    expect(answer.body.iucnSignals.trend).toBe('DECLINING: the world Living Planet Index moved -5% from 2000 to 2010');
    expect(answer.body.pai7).toMatchObject({ disclosureFlag: false, affectedRegions: [] });
    expect(answer.missing).toContain('lpi_owid:Africa');
    expect(() => computeBiodiversity(testSet(), table, parameters)).toThrow(/lpi_owid:World/);
  });
});

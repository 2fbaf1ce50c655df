import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { buildCommodityOutlook } from './commodity-outlook.js';
import { assessCommodity, classifyStatus, freshness } from './score-commodity.js';
import { assessRegions } from './score-region.js';
import { CONTEXT, CURRENT_AT, NOW, observation, PREVIOUS_AT, withObservations, withProduction } from './testing/fixtures.js';
import type { CommoditySymbol, RegionClimateObservation } from './types.js';

const thresholds = snapshotDataset.parameters.status;

function assess(symbol: CommoditySymbol, dataset = snapshotDataset, now = NOW) {
  return assessCommodity(dataset, symbol, assessRegions(dataset), now);
}

describe('pinned scores of the shipped snapshot (now = 2024-10-09T00:00Z)', () => {
  it.each([
    // COCOA: West Africa 100 × (0.25×0.6/3 + 0.35×0.7/3.5) = 12.0 (weight 2310/2750 = 0.84)
    //        Ecuador 100 × (0.25×0.5/3 + 0.35×2.0/3.5 + 0.15×2/20) = 25.666667 (weight 0.16)
    //        0.84 × 12.0 + 0.16 × 25.666667 = 10.08 + 4.106667 = 14.186667 → 14.2, GREEN (< 25, no region ≥ 60)
    { symbol: 'COCOA', score: 14.186667, shown: 14.2, status: 'GREEN' },
    // COFFEE: Brazil SE 100 × (0.25×2.2/3 + 0.35×3.1/3.5 + 0.15×5/20 + 0.25×1/2) = 65.583333
    //         Colombia 100 × (0.25×0.6/3 + 0.35×0.7/3.5 + 0.15×1/20) = 12.75
    //         Central America and Ethiopia 100 × (0.25×0.5/3 + 0.35×0.3/3.5) = 7.166667 each
    //         shares 0.5569, 0.1433, 0.2034, 0.0965 (sum 1.0001, renormalised):
    //         (0.5569×65.583333 + 0.1433×12.75 + 0.2034×7.166667 + 0.0965×7.166667) / 1.0001
    //         = (36.523358 + 1.827075 + 1.457700 + 0.691583) / 1.0001 = 40.495667 → 40.5
    //         RED: below 45, but Brazil SE (65.6 ≥ 60) holds 0.5569/1.0001 = 55.7% ≥ 40% of production
    { symbol: 'COFFEE', score: 40.495667, shown: 40.5, status: 'RED' },
    // SOYB: Brazil grain belt 74.916667 × 0.4727, US Corn Belt 100 × (0.25×2.1/3 + 0.35×1.6/3.5 + 0.15×2/20)
    //       = 35.0 × 0.3323, Pampas 100 × (0.25×1.1/3 + 0.35×1.4/3.5 + 0.15×3/20) = 25.416667 × 0.1371,
    //       North China 100 × (0.25×1.9/3 + 0.35×0.8/3.5) = 23.833333 × 0.0579
    //       = 35.413108 + 11.6305 + 3.484625 + 1.379950 = 51.908183 → 51.9, RED (≥ 45)
    { symbol: 'SOYB', score: 51.908183, shown: 51.9, status: 'RED' },
  ] as const)('$symbol scores $shown and is $status', ({ symbol, score, shown, status }) => {
    const a = assess(symbol);
    expect(a.score).toBeCloseTo(score, 5);
    expect(a.status).toBe(status);
    const outlook = buildCommodityOutlook(snapshotDataset, symbol, CONTEXT);
    expect(outlook.climateRiskScore).toBe(shown);
    expect(outlook.status).toBe(status);
  });

  it('builds the full COCOA outlook with the spec field names', () => {
    const outlook = buildCommodityOutlook(snapshotDataset, 'COCOA', CONTEXT);
    expect(outlook).toMatchObject({
      symbol: 'COCOA',
      currentPrice: 4.16, // World Bank Pink Sheet Cocoa, May 2026, $/kg (data/series/wb_cocoa_monthly.csv, last row)
      priceDate: '2026-05-01',
      climateRiskScore: 14.2,
      status: 'GREEN',
      // 0.84 × 0.6 + 0.16 × 0.5 = 0.584; 0.84 × 0.7 + 0.16 × 2.0 = 0.908; fires 0 + 2; alerts 0
      signals: { temperatureAnomaly: 0.58, droughtIndex: 0.91, wildfireActivity: 2, extremeWeatherEvents: 0 },
      // change 0.84 × (12.0 - 12.333333) + 0.16 × (25.666667 - 19.25) = 0.746667, inside ±3
      outlook: 'STABLE',
      // 0.5^(1 day / 7 days) = 0.905724
      confidence: 0.91,
      asOf: '2024-10-08T00:00:00.000Z',
      dataQuality: 'ESTIMATED',
    });
    expect(outlook.productionRegions.map((r) => [r.regionId, r.share, r.climateRiskScore])).toEqual([
      ['west_africa_cocoa_belt', 0.84, 12], // 0.84 × 12.0 = 10.08 points
      ['ecuador_coast', 0.16, 25.7], // 0.16 × 25.666667 = 4.11 points
    ]);
    expect(outlook.reasoning).toContain('is GREEN at 14.2/100');
    expect(outlook.reasoning).toContain('The outlook is STABLE: regional scores moved by +0.7 points');
  });
});

describe('classifyStatus', () => {
  it.each([
    // yellowFrom 25, redFrom 45 on the score rounded to 1 decimal
    { score: 24.94, severeShare: 0, status: 'GREEN' }, // shows 24.9
    { score: 24.95, severeShare: 0, status: 'YELLOW' }, // shows 25.0
    { score: 44.94, severeShare: 0, status: 'YELLOW' }, // shows 44.9
    { score: 44.95, severeShare: 0, status: 'RED' }, // shows 45.0
    // concentration rule: 15% of production in regions scoring ≥ 60 is YELLOW, 40% is RED
    { score: 10, severeShare: 0.149, status: 'GREEN' },
    { score: 10, severeShare: 0.15, status: 'YELLOW' },
    { score: 10, severeShare: 0.399, status: 'YELLOW' },
    { score: 10, severeShare: 0.4, status: 'RED' },
  ])('score $score with severe share $severeShare is $status', ({ score, severeShare, status }) => {
    expect(classifyStatus(score, severeShare, thresholds)).toBe(status);
  });
});

describe('confidence decays with the age of the observations (half-life 7 days)', () => {
  it.each([
    { age: 0, expected: 1 }, // 0.5^0
    { age: 3.5, expected: 0.707107 }, // 0.5^0.5
    { age: 7, expected: 0.5 }, // 0.5^1
    { age: 14, expected: 0.25 }, // 0.5^2
    { age: 28, expected: 0.0625 }, // 0.5^4
    { age: -2, expected: 1 }, // observations stamped after now count as fresh
  ])('freshness after $age days is $expected', ({ age, expected }) => {
    const now = new Date(Date.parse(CURRENT_AT) + age * 86_400_000);
    expect(freshness(CURRENT_AT, now, 7)).toBeCloseTo(expected, 6);
  });

  it('multiplies coverage by freshness', () => {
    // only Ecuador (16% of COCOA) observed, 7 days old: 0.16 × 0.5 = 0.08
    const dataset = withObservations(snapshotDataset, [observation('ecuador_coast', CURRENT_AT)]);
    const a = assess('COCOA', dataset, new Date('2024-10-15T00:00:00Z'));
    expect(a.coverage).toBeCloseTo(0.16, 9);
    expect(a.confidence).toBeCloseTo(0.08, 9);
  });
});

describe('outlook rules', () => {
  // COCOA regions: West Africa 84%, Ecuador 16%; drought index d scores 100 × 0.35 × d / 3.5 = 10 × d.
  const pairFor = (regionId: string, before: number, after: number): RegionClimateObservation[] => [
    observation(regionId, PREVIOUS_AT, { droughtIndex: before }),
    observation(regionId, CURRENT_AT, { droughtIndex: after }),
  ];

  it.each([
    // +10 points in West Africa: 0.84 × 10 = 8.4 ≥ 3
    { name: 'risk rising', obs: [...pairFor('west_africa_cocoa_belt', 0, 1), ...pairFor('ecuador_coast', 0, 0)], outlook: 'DETERIORATING', basis: 'TREND' },
    // -10 points in West Africa: -8.4 ≤ -3
    { name: 'risk falling', obs: [...pairFor('west_africa_cocoa_belt', 1, 0), ...pairFor('ecuador_coast', 0, 0)], outlook: 'IMPROVING', basis: 'TREND' },
    // +3 points in West Africa: 0.84 × 3 = 2.52 < 3
    { name: 'small change', obs: [...pairFor('west_africa_cocoa_belt', 0, 0.3), ...pairFor('ecuador_coast', 0, 0)], outlook: 'STABLE', basis: 'TREND' },
    // only Ecuador observed: coverage 0.16 < 0.6
    { name: 'low coverage', obs: pairFor('ecuador_coast', 0, 1), outlook: 'UNCERTAIN', basis: 'LOW_COVERAGE' },
    // no observation 20-45 days older than the current one
    { name: 'no trend', obs: [observation('west_africa_cocoa_belt', CURRENT_AT), observation('ecuador_coast', CURRENT_AT)], outlook: 'UNCERTAIN', basis: 'NO_TREND' },
  ])('$name → $outlook', ({ obs, outlook, basis }) => {
    const a = assess('COCOA', withObservations(snapshotDataset, obs));
    expect(a.outlook).toBe(outlook);
    expect(a.outlookBasis).toBe(basis);
  });

  it('is UNCERTAIN when the data are stale: 14 days old gives confidence 0.25 < 0.5', () => {
    const dataset = withObservations(snapshotDataset, [...pairFor('west_africa_cocoa_belt', 0, 1), ...pairFor('ecuador_coast', 0, 0)]);
    const a = assess('COCOA', dataset, new Date('2024-10-22T00:00:00Z'));
    expect(a.confidence).toBeCloseTo(0.25, 9);
    expect(a.outlook).toBe('UNCERTAIN');
    expect(a.outlookBasis).toBe('LOW_CONFIDENCE');
  });

  it('is UNCERTAIN when large shares move in opposite directions', () => {
    // a two-region COCOA, 50/50: one region +10 points, the other -10; both shares 0.5 ≥ 0.25
    const dataset = withProduction(withObservations(snapshotDataset, [...pairFor('west_africa_cocoa_belt', 0, 1), ...pairFor('ecuador_coast', 1, 0)]), 'COCOA', [
      { regionId: 'west_africa_cocoa_belt', share: 0.5 },
      { regionId: 'ecuador_coast', share: 0.5 },
    ]);
    const a = assess('COCOA', dataset);
    expect(a.change).toBeCloseTo(0, 9);
    expect(a.outlook).toBe('UNCERTAIN');
    expect(a.outlookBasis).toBe('CONFLICTING');
  });

  it('scores 0 with confidence 0 when no region is observed', () => {
    const a = assess('COCOA', withObservations(snapshotDataset, []));
    expect(a).toMatchObject({ score: 0, status: 'GREEN', confidence: 0, coverage: 0, outlook: 'UNCERTAIN', outlookBasis: 'LOW_COVERAGE' });
  });
});

import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { stressPortfolio } from './stress-portfolio.js';
import { CONTEXT, CURRENT_AT, observation, PREVIOUS_AT, withObservations } from './testing/fixtures.js';

// Commodity scores pinned in score-commodity.test.ts: COCOA 14.186667, COFFEE 40.495667, SOYB 51.908183.
const POSITIONS = [
  { symbol: 'COCOA', notionalUsd: 1_000_000 },
  { symbol: 'COFFEE', notionalUsd: 500_000 },
  { symbol: 'SOYB', notionalUsd: 2_000_000 },
] as const;

describe('stressPortfolio: three positions on the snapshot', () => {
  const result = stressPortfolio(snapshotDataset, { positions: POSITIONS, label: 'softs and oilseeds' }, CONTEXT);

  it('weights the risk score by notional', () => {
    // (1,000,000 × 14.186667 + 500,000 × 40.495667 + 2,000,000 × 51.908183) / 3,500,000
    //   = (14,186,667 + 20,247,834 + 103,816,367) / 3,500,000 = 39.500248 → 39.5
    expect(result.portfolioRiskScore).toBe(39.5);
    expect(result.totalNotionalUsd).toBe(3_500_000);
    expect(result.label).toBe('softs and oilseeds');
  });

  it('splits notional by tier', () => {
    // COCOA GREEN; COFFEE and SOYB RED
    expect(result.exposureByTier).toEqual({ GREEN: 1_000_000, YELLOW: 0, RED: 2_500_000 });
  });

  it.each([
    // COCOA: σ of the 24 monthly returns Sep 2022..Sep 2024 = 0.122546; tail 2.326 × 0.122546 × √3 = 0.493707
    //   > drawdown 0.330205 (9.7400 → 6.5238); scale 0.5 + 0.141867 = 0.641867; 0.493707 × 0.641867 = 0.316894
    { symbol: 'COCOA', lossUsd: 316_893.8, lossPct: 31.69 },
    // COFFEE: drawdown (5.8971 - 4.0459) / 5.8971 = 0.313917 > tail 0.258137; scale 0.904957; 0.284081 × 500,000
    { symbol: 'COFFEE', lossUsd: 142_040.65, lossPct: 28.41 },
    // SOYB: drawdown (664.45 - 391.31) / 664.45 = 0.411077 > tail 0.220064; scale 1.019082; 0.418921 × 2,000,000
    { symbol: 'SOYB', lossUsd: 837_841.86, lossPct: 41.89 },
  ])('$symbol worst-case loss is $lossUsd USD ($lossPct%)', ({ symbol, lossUsd, lossPct }) => {
    const position = result.positions.find((p) => p.symbol === symbol);
    expect(position?.worstCaseLossUsd).toBe(lossUsd);
    expect(position?.worstCaseLossPct).toBe(lossPct);
  });

  it('sums the position losses into the worst-case drawdown', () => {
    // unrounded 316,893.795 + 142,040.646 + 837,841.860 = 1,296,776.301 → 1,296,776.30 (the rounded
    // parts would give .31: totals are rounded once, from unrounded figures); 1,296,776.30 / 3,500,000 = 37.05%
    expect(result.worstCaseDrawdown).toEqual({ usd: 1_296_776.3, pct: 37.05, horizonMonths: 3 });
  });

  it('returns per-position status, outlook and weight', () => {
    expect(result.positions.map((p) => [p.symbol, p.status, p.outlook, p.weightPct, p.climateRiskScore])).toEqual([
      ['COCOA', 'GREEN', 'STABLE', 28.57, 14.2], // 1.0 / 3.5
      ['COFFEE', 'RED', 'DETERIORATING', 14.29, 40.5], // 0.5 / 3.5
      ['SOYB', 'RED', 'DETERIORATING', 57.14, 51.9], // 2.0 / 3.5
    ]);
  });

  it('recommends in rule order: RED holdings, concentration, share at risk', () => {
    expect(result.recommendations).toEqual([
      'Reduce or hedge SOYB: RED at 51.9/100 (drought in Brazil grain belt (Cerrado and South)); $2,000,000.00 exposed, worst-case loss $837,841.86.',
      'Reduce or hedge COFFEE: RED at 40.5/100 (drought in Brazil Southeast (Minas Gerais, São Paulo)); $500,000.00 exposed, worst-case loss $142,040.65.',
      // 2,000,000 / 3,500,000 = 57.1% > 40%
      'Concentration: SOYB is 57.1% of notional (limit 40%); spread exposure across benchmarks with different production regions.',
      // (0 + 2,500,000) / 3,500,000 = 71.4% > 50%
      '71.4% of notional ($2,500,000.00) is in YELLOW or RED commodities (limit 50%); review the climate hedge ratio of the book.',
    ]);
  });
});

describe('stressPortfolio edge cases', () => {
  it('answers an empty portfolio without dividing by zero', () => {
    const result = stressPortfolio(snapshotDataset, { positions: [] }, CONTEXT);
    expect(result).toMatchObject({
      totalNotionalUsd: 0,
      portfolioRiskScore: 0,
      exposureByTier: { GREEN: 0, YELLOW: 0, RED: 0 },
      worstCaseDrawdown: { usd: 0, pct: 0 },
      positions: [],
      recommendations: ['No positions supplied: nothing to stress-test.'],
    });
    expect(result).not.toHaveProperty('label');
  });

  it('merges positions of one symbol into one holding for the rules', () => {
    const result = stressPortfolio(
      snapshotDataset,
      {
        positions: [
          { symbol: 'COCOA', notionalUsd: 100 },
          { symbol: 'COCOA', notionalUsd: 300 },
        ],
      },
      CONTEXT,
    );
    // COCOA is GREEN and STABLE; the two positions are one holding of 400 = 100% of notional
    expect(result.recommendations).toEqual(['Concentration: COCOA is 100.0% of notional (limit 40%); spread exposure across benchmarks with different production regions.']);
  });

  it('gives the all-clear line when no rule fires', () => {
    // every region calm on both dates: every commodity scores 0, GREEN and STABLE
    const calm = withObservations(
      snapshotDataset,
      snapshotDataset.regions.flatMap((r) => [observation(r.id, PREVIOUS_AT), observation(r.id, CURRENT_AT)]),
    );
    const result = stressPortfolio(
      calm,
      {
        positions: [
          { symbol: 'WHEAT', notionalUsd: 100 },
          { symbol: 'COPPER', notionalUsd: 100 },
          { symbol: 'WTI', notionalUsd: 100 },
        ],
      },
      CONTEXT,
    );
    expect(result.portfolioRiskScore).toBe(0);
    expect(result.recommendations).toEqual(['No climate hedge indicated: every position is GREEN with a confident outlook; re-run when the climate inputs refresh.']);
  });
});

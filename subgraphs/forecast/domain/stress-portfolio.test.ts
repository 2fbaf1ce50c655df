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
    // Prices: the shipped Pink Sheet series (data/series), last 25 months 2024-05..2026-05 (decision 0068).
    // COCOA: σ of the 24 monthly returns = 0.135302; tail 2.326 × 0.135302 × √3 = 0.545099
    //   < drawdown (10.75 in 2025-01 → 3.24 in 2026-03) / 10.75 = 0.698605; scale 0.5 + 0.141867 = 0.641867;
    //   0.698605 × 0.641867 = 0.448411 × 1,000,000
    { symbol: 'COCOA', lossUsd: 448_411.04, lossPct: 44.84 },
    // COFFEE: tail 2.326 × 0.074454 × √3 = 0.299958 > drawdown (9.05 in 2025-02 → 6.95 in 2026-05) / 9.05 = 0.232044;
    //   scale 0.904957; 0.299958 × 0.904957 = 0.271449 × 500,000
    { symbol: 'COFFEE', lossUsd: 135_724.53, lossPct: 27.14 },
    // SOYB: tail 2.326 × 0.053772 × √3 = 0.216634 > drawdown (490.22 in 2024-05 → 391.31 in 2024-09) / 490.22 = 0.201767;
    //   scale 1.019082; 0.216634 × 1.019082 = 0.220767 × 2,000,000
    { symbol: 'SOYB', lossUsd: 441_534.98, lossPct: 22.08 },
  ])('$symbol worst-case loss is $lossUsd USD ($lossPct%)', ({ symbol, lossUsd, lossPct }) => {
    const position = result.positions.find((p) => p.symbol === symbol);
    expect(position?.worstCaseLossUsd).toBe(lossUsd);
    expect(position?.worstCaseLossPct).toBe(lossPct);
  });

  it('sums the position losses into the worst-case drawdown', () => {
    // unrounded 448,411.041 + 135,724.535 + 441,534.977 = 1,025,670.553 → 1,025,670.55 (totals are rounded
    // once, from unrounded figures); 1,025,670.55 / 3,500,000 = 29.30%
    expect(result.worstCaseDrawdown).toEqual({ usd: 1_025_670.55, pct: 29.3, horizonMonths: 3 });
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
      'Reduce or hedge SOYB: RED at 51.9/100 (drought in Brazil grain belt (Cerrado and South)); $2,000,000.00 exposed, worst-case loss $441,534.98.',
      'Reduce or hedge COFFEE: RED at 40.5/100 (drought in Brazil Southeast (Minas Gerais, São Paulo)); $500,000.00 exposed, worst-case loss $135,724.53.',
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

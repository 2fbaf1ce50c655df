import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { largestDrawdown, measurePriceRisk, riskScale, worstCaseLossFraction } from './price-risk.js';

// Shipped drawdown parameters: lookback 24 months, tailZ 2.326, horizon 3 months,
// risk scale 0.5 at score 0 to 1.5 at score 100, loss capped at 95%.
const params = snapshotDataset.parameters.drawdown;
const series = (prices: number[]) => prices.map((price, i) => ({ date: `2024-${String(i + 1).padStart(2, '0')}-01`, price }));

describe('largestDrawdown', () => {
  it.each([
    { prices: [100, 110, 99, 121], expected: 0.1 }, // peak 110 → 99: 11 / 110
    { prices: [100, 120, 90, 95, 60, 80], expected: 0.5 }, // peak 120 → 60: 60 / 120
    { prices: [1, 2, 3, 4], expected: 0 }, // never falls
    { prices: [50], expected: 0 },
    { prices: [], expected: 0 },
  ])('$prices → $expected', ({ prices, expected }) => {
    expect(largestDrawdown(prices)).toBeCloseTo(expected, 12);
  });
});

describe('measurePriceRisk', () => {
  it('takes the larger of the realised drawdown and the parametric tail', () => {
    // returns +0.1, -0.1, +0.222222; mean 0.074074; sample σ = 0.162668
    // tail = 2.326 × 0.162668 × √3 = 0.655349 > drawdown 0.1
    const risk = measurePriceRisk(series([100, 110, 99, 121]), params);
    expect(risk.returnsUsed).toBe(3);
    expect(risk.monthlyVolatility).toBeCloseTo(0.162668, 6);
    expect(risk.maxDrawdown).toBeCloseTo(0.1, 12);
    expect(risk.tailMove).toBeCloseTo(0.655349, 6);
    expect(risk.baseLossFraction).toBe(risk.tailMove);
  });

  it('looks back lookbackMonths returns only', () => {
    const risk = measurePriceRisk(series([100, 120, 90, 95, 60, 80]), { ...params, lookbackMonths: 2 });
    // last 3 prices 95, 60, 80: drawdown 35 / 95 = 0.368421, two returns
    expect(risk.returnsUsed).toBe(2);
    expect(risk.maxDrawdown).toBeCloseTo(0.368421, 6);
  });

  it('is zero for a single price', () => {
    expect(measurePriceRisk(series([42]), params)).toEqual({ monthlyVolatility: 0, maxDrawdown: 0, tailMove: 0, baseLossFraction: 0, returnsUsed: 0 });
  });
});

describe('climate scaling of the loss', () => {
  it.each([
    { score: 0, scale: 0.5 }, // 0.5 + 1.0 × 0
    { score: 50, scale: 1.0 }, // 0.5 + 1.0 × 0.5
    { score: 100, scale: 1.5 },
    { score: 140, scale: 1.5 }, // score clamped to 100
  ])('score $score scales by $scale', ({ score, scale }) => {
    expect(riskScale(score, params)).toBeCloseTo(scale, 12);
  });

  it('caps the loss fraction at maxLossFraction', () => {
    const risk = { monthlyVolatility: 0.5, maxDrawdown: 0.8, tailMove: 2.0, baseLossFraction: 2.0, returnsUsed: 24 };
    // 2.0 × 1.5 = 3.0, capped at 0.95
    expect(worstCaseLossFraction(risk, 100, params)).toBe(0.95);
  });
});

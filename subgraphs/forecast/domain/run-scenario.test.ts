import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { runScenario } from './run-scenario.js';
import { CONTEXT } from './testing/fixtures.js';
import { SCENARIO_IDS } from './types.js';

const POSITIONS = [
  { symbol: 'WHEAT', notionalUsd: 1_000_000 },
  { symbol: 'COFFEE', notionalUsd: 500_000 },
  { symbol: 'NG', notionalUsd: 250_000 },
] as const;

describe('the nine built-in scenarios', () => {
  it('are all in the catalogue', () => {
    expect(Object.keys(snapshotDataset.scenarios).sort()).toEqual([...SCENARIO_IDS].sort());
  });

  it.each(SCENARIO_IDS)('%s applies to positions with consistent arithmetic', (id) => {
    const result = runScenario(snapshotDataset, { scenario: id, positions: POSITIONS }, CONTEXT);
    const scenario = snapshotDataset.scenarios[id];
    expect(result.scenario).toBe(id);
    expect(result.probability).toBeGreaterThan(0);
    expect(result.probability).toBeLessThanOrEqual(1);
    expect(result.horizonMonths).toBe(scenario.horizonMonths);
    expect(result.affectedCommodities.map((c) => c.symbol)).toEqual(scenario.affectedCommodities.map((c) => c.symbol));
    expect(result.priceImpactPct.low).toBeLessThanOrEqual(result.priceImpactPct.high);
    expect(result.historicalAnalogs.length).toBeGreaterThan(0);
    expect(result.reasoning).toContain(scenario.name);
    // each position: notional × pct / 100, zero when the scenario leaves its commodity alone
    for (const p of result.positions) {
      const impact = scenario.affectedCommodities.find((i) => i.symbol === p.symbol);
      expect(p.affected).toBe(impact !== undefined);
      expect(p.priceImpactUsd.high).toBeCloseTo((p.notionalUsd * (impact?.priceImpactPct.high ?? 0)) / 100, 2);
    }
    const high = result.positions.reduce((total, p) => total + p.priceImpactUsd.high, 0);
    expect(result.portfolio?.priceImpactUsd.high).toBeCloseTo(high, 2);
  });
});

describe('runScenario', () => {
  it('projects the Black Sea disruption on wheat', () => {
    const result = runScenario(snapshotDataset, { scenario: 'black_sea_disruption', positions: POSITIONS }, CONTEXT);
    // WHEAT 10-40%: 1,000,000 × 0.10 = 100,000 and × 0.40 = 400,000; COFFEE and NG untouched
    expect(result.portfolio).toEqual({
      totalNotionalUsd: 1_750_000,
      affectedNotionalUsd: 1_000_000,
      priceImpactUsd: { low: 100_000, high: 400_000 },
      // 100,000 / 1,750,000 = 5.71%; 400,000 / 1,750,000 = 22.86%
      priceImpactPct: { low: 5.71, high: 22.86 },
    });
    // ranges over WHEAT (10-40%, supply 5%) and CORN (5-20%, supply 2%)
    expect(result.priceImpactPct).toEqual({ low: 5, high: 40 });
    expect(result.supplyReductionPct).toEqual({ low: 2, high: 5 });
    expect(result.affectedCommodities[0]).toEqual({
      symbol: 'WHEAT',
      priceImpactPct: { low: 10, high: 40 },
      supplyReductionPct: 5,
      currentStatus: 'YELLOW',
      climateRiskScore: 32.5,
    });
    expect(result.reasoning).toContain('$1,000,000.00 of the $1,750,000.00 of positions is exposed');
  });

  it('describes the scenario alone when no positions are given', () => {
    const result = runScenario(snapshotDataset, { scenario: 'arctic_blast' }, CONTEXT);
    expect(result.positions).toEqual([]);
    expect(result).not.toHaveProperty('portfolio');
    // NG 15-90%, WTI 2-8%, WHEAT 1-6%; supply 10, 5 and 1%
    expect(result.priceImpactPct).toEqual({ low: 1, high: 90 });
    expect(result.supplyReductionPct).toEqual({ low: 1, high: 10 });
    expect(result.reasoning).toMatch(/^Arctic blast over North America: annual probability 40% over a 2-month horizon\./);
  });
});

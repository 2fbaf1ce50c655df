import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { buildTcfdReport, DEFAULT_ENTITY_NAME } from './build-tcfd-report.js';
import { CONTEXT } from './testing/fixtures.js';

const POSITIONS = [
  { symbol: 'COCOA', notionalUsd: 1_000_000 },
  { symbol: 'COFFEE', notionalUsd: 500_000 },
  { symbol: 'SOYB', notionalUsd: 2_000_000 },
] as const;

describe('buildTcfdReport', () => {
  const report = buildTcfdReport(snapshotDataset, { positions: POSITIONS, entityName: 'Acme Bank', reportingPeriod: 'FY2024' }, CONTEXT);

  it('has every section of the disclosure template', () => {
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['governance', 'strategy', 'riskManagement', 'metrics', 'disclosure']));
    expect(report.governance.boardOversight).toContain('Acme Bank');
    expect(report.governance.boardOversight).toContain('FY2024');
    expect(report.strategy).toHaveProperty('physicalRisks');
    expect(report.strategy.scenarioAnalysis).toHaveProperty('moderate');
    expect(report.strategy.scenarioAnalysis).toHaveProperty('severe');
    expect(report.riskManagement).toHaveProperty('exposureByTier');
    expect(report.riskManagement).toHaveProperty('worstCase');
    expect(report.metrics).toHaveProperty('portfolioRiskScore');
    expect(report.metrics).toHaveProperty('notionalAtRisk');
    expect(report.metrics).toHaveProperty('topRisks');
    expect(report.disclosure.dataSources.length).toBeGreaterThan(5);
    expect(report.disclosure.methodology).toContain('0.25 × temperature + 0.35 × drought');
  });

  it('splits each position into acute and chronic exposure', () => {
    const cocoa = report.strategy.physicalRisks.find((r) => r.symbol === 'COCOA');
    // chronic: 0.84 × 100 × (0.05 + 0.07) / 0.6 + 0.16 × 100 × (0.041667 + 0.2) / 0.6 = 16.8 + 6.444444 = 23.244444 → 23.2
    // acute:   0.84 × 0 + 0.16 × 100 × (0.15 × 2/20) / 0.4 = 0.6
    expect(cocoa?.chronic).toMatchObject({ index: 23.2, level: 'LOW' });
    expect(cocoa?.acute).toMatchObject({ index: 0.6, level: 'LOW' });
  });

  it('picks the moderate and severe scenarios by exposure', () => {
    // severe: largest high-end impact. global_heatwave: 1,000,000 × 25% + 500,000 × 25% + 2,000,000 × 20% = 775,000
    //   beats us_midwest_drought (2,000,000 × 35% = 700,000) and the rest.
    // moderate: largest probability × mid impact among the others touching the book.
    //   la_nina 0.33 × (100,000 + 400,000) / 2 = 82,500 beats amazon_drought 0.25 × (110,000 + 440,000) / 2 = 68,750
    //   and sahel_heatwave 0.25 × (100,000 + 400,000) / 2 = 62,500.
    expect(report.strategy.scenarioAnalysis.severe).toMatchObject({ scenario: 'global_heatwave', priceImpactUsd: { low: 175_000, high: 775_000 } });
    expect(report.strategy.scenarioAnalysis.moderate).toMatchObject({ scenario: 'la_nina', priceImpactUsd: { low: 100_000, high: 400_000 } });
    expect(report.riskManagement.worstCase).toMatchObject({
      scenario: 'global_heatwave',
      tailImpactUsd: 775_000,
      tailImpactPct: 22.14, // 775,000 / 3,500,000
      climateDrawdownUsd: 1_025_670.55, // as in stress-portfolio.test.ts
    });
  });

  it('reports the metrics', () => {
    expect(report.metrics.portfolioRiskScore).toBe(39.5);
    // YELLOW 0 + RED (COFFEE 500,000 + SOYB 2,000,000)
    expect(report.metrics.notionalAtRisk).toBe(2_500_000);
    // ranked by notional × score / 100: SOYB 1,038,163.67; COFFEE 202,478.34; COCOA 141,866.67
    expect(report.metrics.topRisks.map((r) => [r.rank, r.symbol, r.riskWeightedNotionalUsd])).toEqual([
      [1, 'SOYB', 1_038_163.67],
      [2, 'COFFEE', 202_478.34],
      [3, 'COCOA', 141_866.67],
    ]);
    expect(report.disclosure.confidenceLevels).toEqual([
      { symbol: 'COCOA', confidence: 0.91, level: 'HIGH' },
      { symbol: 'COFFEE', confidence: 0.91, level: 'HIGH' },
      { symbol: 'SOYB', confidence: 0.91, level: 'HIGH' },
    ]);
  });

  it('fills defaults and stays finite for an empty list of positions', () => {
    const empty = buildTcfdReport(snapshotDataset, { positions: [] }, CONTEXT);
    expect(empty.entityName).toBe(DEFAULT_ENTITY_NAME);
    expect(empty.reportingPeriod).toBe('2024');
    expect(empty.metrics).toEqual({ portfolioRiskScore: 0, notionalAtRisk: 0, totalNotionalUsd: 0, topRisks: [] });
    expect(empty.riskManagement.worstCase.tailImpactPct).toBe(0);
    // no exposure: severe is the largest move of any commodity (arctic_blast, NG +90%),
    // moderate the most probable of the rest (pacific_typhoon, 0.5)
    expect(empty.strategy.scenarioAnalysis.severe.scenario).toBe('arctic_blast');
    expect(empty.strategy.scenarioAnalysis.moderate.scenario).toBe('pacific_typhoon');
    expect(JSON.stringify(empty)).not.toMatch(/NaN|Infinity/);
  });
});

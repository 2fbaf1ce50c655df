import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { assessDataset } from './assess-dataset.js';
import { tcfdReportFrom } from './build-tcfd-report.js';
import { commodityOutlookFrom } from './commodity-outlook.js';
import { heatCheckFrom } from './heat-check.js';
import { measurePriceRisk, worstCaseLossFraction } from './price-risk.js';
import { regionRankingFrom } from './rank-regions.js';
import { scenarioResultFrom } from './run-scenario.js';
import { portfolioStressFrom } from './stress-portfolio.js';
import { CONTEXT } from './testing/fixtures.js';
import { COMMODITY_SYMBOLS } from './types.js';

const POSITIONS = [
  { symbol: 'COFFEE', notionalUsd: 2_000_000 },
  { symbol: 'WHEAT', notionalUsd: 500_000 },
] as const;

describe('assessDataset', () => {
  const assessment = assessDataset(snapshotDataset, CONTEXT);

  it('assesses every commodity, and each region with a current observation, in the given context', () => {
    expect(Object.keys(assessment.commodities).sort()).toEqual([...COMMODITY_SYMBOLS].sort());
    expect(assessment.regions.size).toBe(snapshotDataset.regions.length);
    expect(assessment.context).toBe(CONTEXT);
  });

  it.each(COMMODITY_SYMBOLS)('%s: the drawdown is its price risk scaled by its climate score', (symbol) => {
    const params = snapshotDataset.parameters.drawdown;
    const priceRisk = measurePriceRisk(snapshotDataset.commodities[symbol].prices, params);
    expect(assessment.drawdowns[symbol]).toEqual({
      priceRisk,
      lossFraction: worstCaseLossFraction(priceRisk, assessment.commodities[symbol].score, params),
    });
  });

  it('is left as it was by every answer built from it, which repeat themselves', () => {
    const answers = () => [
      heatCheckFrom(assessment),
      commodityOutlookFrom(assessment, 'COFFEE'),
      regionRankingFrom(assessment.regions),
      portfolioStressFrom(assessment, { positions: POSITIONS }),
      scenarioResultFrom(assessment, { scenario: 'amazon_drought', positions: POSITIONS }),
      tcfdReportFrom(assessment, { positions: POSITIONS }),
    ];
    const first = answers();
    expect(answers()).toEqual(first);
    expect(assessment).toEqual(assessDataset(snapshotDataset, CONTEXT));
  });

  it('gives the answers the data quality of its context', () => {
    const live = assessDataset(snapshotDataset, { ...CONTEXT, dataQuality: 'LIVE' });
    expect(heatCheckFrom(live).dataQuality).toBe('LIVE');
    expect(portfolioStressFrom(live, { positions: POSITIONS }).dataQuality).toBe('LIVE');
  });
});

// The model's expensive part: every region and commodity of a dataset assessed at one instant.

import type { DrawdownParameters, ForecastContext, ForecastDataset } from './dataset.js';
import { measurePriceRisk, type PriceRisk, worstCaseLossFraction } from './price-risk.js';
import { assessCommodities, type CommodityAssessment } from './score-commodity.js';
import { assessRegions, type RegionAssessment } from './score-region.js';
import type { CommoditySymbol } from './types.js';

/** A benchmark's price risk and the climate-scaled share of a position it could lose (§4). */
export interface CommodityDrawdown {
  priceRisk: PriceRisk;
  lossFraction: number;
}

/**
 * The dataset evaluated in its context. Every answer (heat check, outlook, regions, portfolio,
 * scenario, TCFD) is shaped from one of these, so a caller that keeps it can answer many requests
 * on the same data without rescoring. Answers only read it.
 */
export interface DatasetAssessment {
  dataset: ForecastDataset;
  context: ForecastContext;
  /** Regions with a current observation, by region id. */
  regions: ReadonlyMap<string, RegionAssessment>;
  commodities: Readonly<Record<CommoditySymbol, CommodityAssessment>>;
  drawdowns: Readonly<Record<CommoditySymbol, CommodityDrawdown>>;
}

export function assessDataset(dataset: ForecastDataset, context: ForecastContext): DatasetAssessment {
  const regions = assessRegions(dataset);
  const commodities = assessCommodities(dataset, regions, context.now);
  return { dataset, context, regions, commodities, drawdowns: drawdownsOf(commodities, dataset.parameters.drawdown) };
}

function drawdownsOf(commodities: Readonly<Record<CommoditySymbol, CommodityAssessment>>, params: DrawdownParameters): Record<CommoditySymbol, CommodityDrawdown> {
  const entries = Object.values(commodities).map((assessment) => {
    const priceRisk = measurePriceRisk(assessment.profile.prices, params);
    return [assessment.symbol, { priceRisk, lossFraction: worstCaseLossFraction(priceRisk, assessment.score, params) }] as const;
  });
  return Object.fromEntries(entries) as Record<CommoditySymbol, CommodityDrawdown>;
}

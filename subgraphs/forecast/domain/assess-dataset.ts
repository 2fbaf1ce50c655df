import { assessCommodities, type CommodityAssessment } from './score-commodity.js';
import { assessRegions, type RegionAssessment } from './score-region.js';
import type { ForecastDataset } from './dataset.js';
import type { CommoditySymbol } from './types.js';

/**
 * The model's expensive part, computed once per dataset version and shared by every answer built
 * from it (heat check, outlooks, regions, portfolio, scenario, TCFD). A dataset object is one
 * version: the shipped snapshot is one for the life of the process, and each live refresh builds a
 * new one (docs/decisions/0104). Entries go with their dataset (WeakMap), so nothing accumulates.
 * Callers must treat the shared assessments as read-only.
 */
const regionsByDataset = new WeakMap<ForecastDataset, ReadonlyMap<string, RegionAssessment>>();
const commoditiesByDataset = new WeakMap<ForecastDataset, { atMs: number; commodities: Record<CommoditySymbol, CommodityAssessment> }>();

/** Every region's climate assessment; depends on the dataset alone. */
export function regionAssessmentsOf(dataset: ForecastDataset): ReadonlyMap<string, RegionAssessment> {
  let regions = regionsByDataset.get(dataset);
  if (!regions) {
    regions = assessRegions(dataset);
    regionsByDataset.set(dataset, regions);
  }
  return regions;
}

/** Every commodity's assessment as of `now` (one instant kept per dataset: its evaluation time). */
export function commodityAssessmentsOf(dataset: ForecastDataset, now: Date): Record<CommoditySymbol, CommodityAssessment> {
  const cached = commoditiesByDataset.get(dataset);
  if (cached && cached.atMs === now.getTime()) return cached.commodities;
  const commodities = assessCommodities(dataset, regionAssessmentsOf(dataset), now);
  commoditiesByDataset.set(dataset, { atMs: now.getTime(), commodities });
  return commodities;
}

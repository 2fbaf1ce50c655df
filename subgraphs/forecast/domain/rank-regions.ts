// Production regions ranked by climate risk, shaped as the spec's Region entry.

import type { ForecastDataset } from './dataset.js';
import { compareText } from './numeric.js';
import { presentScore } from './present.js';
import { assessRegions, type RegionAssessment } from './score-region.js';
import type { CommoditySymbol, PrimaryThreat, RegionOutlook } from './types.js';

export interface RegionEntry {
  region: string;
  regionId: string;
  commodities: CommoditySymbol[];
  climateRiskScore: number;
  activeAlerts: number;
  primaryThreat: PrimaryThreat;
  outlook: RegionOutlook;
}

/** One ranking on its own: assesses the dataset's regions for it alone. */
export function rankRegions(dataset: ForecastDataset): RegionEntry[] {
  return regionRankingFrom(assessRegions(dataset));
}

/** Regions with a current observation, highest score first; equal scores by region name. */
export function regionRankingFrom(regions: ReadonlyMap<string, RegionAssessment>): RegionEntry[] {
  const assessed = [...regions.values()];
  assessed.sort((a, b) => b.result.score - a.result.score || compareText(a.region.name, b.region.name));
  return assessed.map((a) => ({
    region: a.region.name,
    regionId: a.region.id,
    commodities: [...a.region.commodities],
    climateRiskScore: presentScore(a.result.score),
    activeAlerts: a.result.alertCount,
    primaryThreat: a.primaryThreat,
    outlook: a.outlook,
  }));
}

// Production regions ranked by climate risk, shaped as the spec's Region entry.

import type { ForecastDataset } from './dataset.js';
import { compareText } from './numeric.js';
import { presentScore } from './present.js';
import { regionAssessmentsOf } from './assess-dataset.js';
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

/** Regions with a current observation, highest score first; equal scores by region name. */
export function rankRegions(dataset: ForecastDataset): RegionEntry[] {
  const assessed = [...regionAssessmentsOf(dataset).values()];
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

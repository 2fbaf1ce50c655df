// All eleven commodities with their status and a one-line signal built from the numbers.

import { assessDataset, type DatasetAssessment } from './assess-dataset.js';
import type { ForecastContext, ForecastDataset } from './dataset.js';
import { fixed, plural, sharePct, signed } from './present.js';
import type { CommodityAssessment } from './score-commodity.js';
import type { RegionAssessment } from './score-region.js';
import { COMMODITY_SYMBOLS, type CommoditySymbol, type DataQuality, type RiskStatus } from './types.js';

export interface HeatCheckEntry {
  symbol: CommoditySymbol;
  status: RiskStatus;
  signal: string;
}

export interface HeatCheck {
  /** Newest climate observation behind the statuses (ISO 8601); the clock when there is none. */
  asOf: string;
  dataQuality: DataQuality;
  commodities: HeatCheckEntry[];
}

/** One heat check on its own: assesses the dataset for it alone. */
export function buildHeatCheck(dataset: ForecastDataset, context: ForecastContext): HeatCheck {
  return heatCheckFrom(assessDataset(dataset, context));
}

export function heatCheckFrom({ regions, commodities, context }: DatasetAssessment): HeatCheck {
  return {
    asOf: newestObservation(regions) ?? context.now.toISOString(),
    dataQuality: context.dataQuality,
    commodities: COMMODITY_SYMBOLS.map((symbol) => ({
      symbol,
      status: commodities[symbol].status,
      signal: signalLine(commodities[symbol]),
    })),
  };
}

/** e.g. "62.4/100, drought in Brazil grain belt (41.6% of supply); +2.10 °C, drought 2.61/5, 12 wildfires, 2 alerts; outlook STABLE". */
export function signalLine(a: CommodityAssessment): string {
  const top = a.contributions[0];
  if (top === undefined) return `${fixed(a.score, 1)}/100, no current climate observation; outlook ${a.outlook}`;
  const s = a.signals;
  return (
    `${fixed(a.score, 1)}/100, ${top.assessment.primaryThreat} in ${top.region.name} (${sharePct(top.weight)} of supply); ` +
    `${signed(s.temperatureAnomaly, 2)} °C, drought ${fixed(s.droughtIndex, 2)}/5, ` +
    `${plural(s.wildfireActivity, 'wildfire')}, ${plural(s.extremeWeatherEvents, 'alert')}; outlook ${a.outlook}`
  );
}

function newestObservation(regions: ReadonlyMap<string, RegionAssessment>): string | undefined {
  let newest: number | undefined;
  for (const assessment of regions.values()) {
    const time = Date.parse(assessment.current.observedAt);
    if (newest === undefined || time > newest) newest = time;
  }
  return newest === undefined ? undefined : new Date(newest).toISOString();
}

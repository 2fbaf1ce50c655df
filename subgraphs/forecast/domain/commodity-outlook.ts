// The full outlook of one commodity, shaped as the spec's Commodity outlook.

import { assessDataset, type DatasetAssessment } from './assess-dataset.js';
import type { ForecastContext, ForecastDataset, ModelParameters } from './dataset.js';
import { explainCommodityOutlook } from './explain-outlook.js';
import { presentConfidence, presentScore, presentShare, presentSignal } from './present.js';
import type { CommodityAssessment, CommoditySignals } from './score-commodity.js';
import type { CommoditySymbol, DataQuality, Outlook, PrimaryThreat, RegionOutlook, RiskStatus } from './types.js';

export interface ProductionRegionExposure {
  region: string;
  regionId: string;
  /** Share of the commodity's listed production, 0-1. */
  share: number;
  climateRiskScore: number;
  primaryThreat: PrimaryThreat;
  outlook: RegionOutlook;
}

export interface CommodityOutlook {
  symbol: CommoditySymbol;
  name: string;
  currentPrice: number;
  priceUnit: string;
  /** Date of the latest price (YYYY-MM-DD). */
  priceDate: string;
  climateRiskScore: number;
  status: RiskStatus;
  signals: CommoditySignals;
  outlook: Outlook;
  reasoning: string;
  confidence: number;
  productionRegions: ProductionRegionExposure[];
  /** Newest climate observation behind the figures (ISO 8601); the clock when there is none. */
  asOf: string;
  dataQuality: DataQuality;
}

/** One outlook on its own: assesses the dataset for it alone. */
export function buildCommodityOutlook(dataset: ForecastDataset, symbol: CommoditySymbol, context: ForecastContext): CommodityOutlook {
  return commodityOutlookFrom(assessDataset(dataset, context), symbol);
}

export function commodityOutlookFrom({ commodities, dataset, context }: DatasetAssessment, symbol: CommoditySymbol): CommodityOutlook {
  return presentCommodityOutlook(commodities[symbol], dataset.parameters, context);
}

export function presentCommodityOutlook(assessment: CommodityAssessment, params: ModelParameters, context: ForecastContext): CommodityOutlook {
  const profile = assessment.profile;
  const latest = profile.prices.at(-1);
  return {
    symbol: assessment.symbol,
    name: profile.name,
    currentPrice: latest?.price ?? 0,
    priceUnit: profile.benchmark.unit,
    priceDate: latest?.date ?? '',
    climateRiskScore: presentScore(assessment.score),
    status: assessment.status,
    signals: presentSignals(assessment.signals),
    outlook: assessment.outlook,
    reasoning: explainCommodityOutlook(assessment, params, context.now),
    confidence: presentConfidence(assessment.confidence),
    productionRegions: assessment.contributions.map((c) => ({
      region: c.region.name,
      regionId: c.region.id,
      share: presentShare(c.weight),
      climateRiskScore: presentScore(c.assessment.result.score),
      primaryThreat: c.assessment.primaryThreat,
      outlook: c.assessment.outlook,
    })),
    asOf: assessment.asOf ?? context.now.toISOString(),
    dataQuality: context.dataQuality,
  };
}

export function presentSignals(signals: CommoditySignals): CommoditySignals {
  return {
    temperatureAnomaly: presentSignal(signals.temperatureAnomaly),
    droughtIndex: presentSignal(signals.droughtIndex),
    wildfireActivity: signals.wildfireActivity,
    extremeWeatherEvents: signals.extremeWeatherEvents,
  };
}

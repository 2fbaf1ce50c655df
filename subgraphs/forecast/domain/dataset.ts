// The plain value every forecast function reads: the shipped snapshot or live data, same shape.

import { compareText, type ValueRange } from './numeric.js';
import type { CommoditySymbol, DataQuality, PricePoint, PrimaryThreat, Provenance, RegionClimateObservation, ScenarioId, SeverityLevel } from './types.js';

export interface Benchmark {
  description: string;
  /** The series the shipped snapshot's prices come from. */
  snapshotSeries: string;
  /** FRED series id a live price adapter reads for this benchmark. */
  seriesId: string;
  /** Unit of the FRED series' values. */
  seriesUnit: string;
  /** Factor from seriesUnit to unit (e.g. US cents/lb to USD/kg: 0.0220462262). */
  toBenchmarkUnit: number;
  exchangeContract: string;
  /** Unit of the prices in the dataset. */
  unit: string;
  currency: string;
}

export interface ProductionRegion {
  regionId: string;
  /** Share of the production of the listed regions, 0-1; the model renormalises the list to sum 1. */
  share: number;
  /** The cited production figure, in CommodityProfile.production.unit. */
  production: number;
  /** production / worldTotal: how much of the benchmark's supply this region holds. */
  worldShare: number;
  note?: string;
}

export interface CommodityProfile {
  symbol: CommoditySymbol;
  name: string;
  benchmark: Benchmark;
  /** Monthly benchmark prices, ascending by date. */
  prices: readonly PricePoint[];
  priceProvenance: Provenance;
  production: {
    provenance: Provenance;
    unit: string;
    worldTotal: number;
    derivation: string;
    regions: readonly ProductionRegion[];
  };
}

export interface GeoPoint {
  lat: number;
  lon: number;
}

export interface RegionProfile {
  id: string;
  name: string;
  /** [minLon, minLat, maxLon, maxLat], WGS 84 degrees. */
  boundingBox: readonly [number, number, number, number];
  commodities: readonly CommoditySymbol[];
  /** Growing areas or basins a live temperature adapter can sample. */
  representativePoints: readonly GeoPoint[];
  /** US states (2-digit FIPS) for the US Drought Monitor; absent outside the US. */
  usdmStateFips?: readonly string[];
}

export interface PctRange {
  low: number;
  high: number;
}

export interface ScenarioImpact {
  symbol: CommoditySymbol;
  /** Assumed move of the benchmark over the horizon, in percent. */
  priceImpactPct: PctRange;
  /** Assumed loss of the supply behind the benchmark over the horizon, in percent. */
  supplyReductionPct: number;
}

export interface HistoricalAnalog {
  event: string;
  period: string;
  observed: string;
}

export interface Scenario {
  id: ScenarioId;
  name: string;
  description: string;
  /** Annual probability, 0-1. */
  probability: number;
  probabilityBasis: { text: string; url: string };
  horizonMonths: number;
  regions: readonly string[];
  affectedCommodities: readonly ScenarioImpact[];
  historicalAnalogs: readonly HistoricalAnalog[];
}

export interface CalendarMonth {
  /** 1 (January) to 12. */
  month: number;
  name: string;
  events: readonly string[];
  commoditiesAtRisk: readonly CommoditySymbol[];
  historicalSeverity: SeverityLevel;
  basis: string;
}

export interface RegionScoreParameters {
  weights: { temperature: number; drought: number; wildfire: number; alerts: number };
  normalisation: {
    temperatureAnomalyC: ValueRange;
    droughtIndex: ValueRange;
    activeWildfires: ValueRange;
    weightedAlerts: ValueRange;
  };
  alertKindWeights: RegionClimateObservation['alerts'];
  threatTieBreakOrder: readonly PrimaryThreat[];
}

export interface DrawdownParameters {
  lookbackMonths: number;
  tailZ: number;
  horizonMonths: number;
  minRiskScale: number;
  maxRiskScale: number;
  maxLossFraction: number;
}

export interface StatusThresholds {
  yellowFrom: number;
  redFrom: number;
  /** A region scoring at least this is under severe stress. */
  severeRegionFrom: number;
  /** YELLOW once this share of production is in severe regions, whatever the mean. */
  yellowSevereShare: number;
  /** RED once this share of production is in severe regions, whatever the mean. */
  redSevereShare: number;
}

export interface ModelParameters {
  regionScore: RegionScoreParameters;
  status: StatusThresholds;
  trend: {
    regionChangePoints: number;
    commodityChangePoints: number;
    comparisonMinGapDays: number;
    comparisonMaxGapDays: number;
  };
  uncertainty: { minConfidence: number; minCoverage: number; minTrendCoverage: number; conflictingShare: number };
  confidence: { freshnessHalfLifeDays: number; levels: { highFrom: number; mediumFrom: number } };
  drawdown: DrawdownParameters;
  portfolio: { concentrationLimitPct: number; atRiskShareLimitPct: number; topRiskCount: number };
  severity: { moderateFrom: number; highFrom: number };
  /** An input older than this (days from its as-of to now) is stale; answers say so per input (decision 0068). */
  dataAge: { climateStaleAfterDays: number; priceStaleAfterDays: number };
}

export interface ForecastDataset {
  commodities: Readonly<Record<CommoditySymbol, CommodityProfile>>;
  regions: readonly RegionProfile[];
  /** Any number per region; the latest is current, an older one within the trend gap is previous. */
  observations: readonly RegionClimateObservation[];
  parameters: ModelParameters;
  scenarios: Readonly<Record<ScenarioId, Scenario>>;
  /** Twelve months, January first. */
  calendar: readonly CalendarMonth[];
  /** Every source behind the dataset, for disclosures. */
  sources: readonly Provenance[];
}

/** One exposure; validated at the edge (known symbol, notional above zero). */
export interface Position {
  symbol: CommoditySymbol;
  notionalUsd: number;
}

/** What the caller knows and the domain must not look up: the clock and the data's quality. */
export interface ForecastContext {
  now: Date;
  dataQuality: DataQuality;
}

export interface LiveInputs {
  observations?: readonly RegionClimateObservation[];
  /** Monthly points of each benchmark's live series (benchmark.seriesId), in that series' own unit. */
  prices?: Partial<Record<CommoditySymbol, readonly PricePoint[]>>;
  sources?: readonly Provenance[];
}

/**
 * The dataset with live inputs laid over it.
 * 1. Live observations are added, not swapped in: the newest per region becomes current and the
 *    older ones stay available as the trend's previous observation.
 * 2. A live price series replaces the snapshot series of that commodity, converted from the
 *    series' unit to the benchmark's unit with benchmark.toBenchmarkUnit.
 */
export function withLiveInputs(dataset: ForecastDataset, live: LiveInputs): ForecastDataset {
  return {
    ...dataset,
    commodities: replacePrices(dataset.commodities, live.prices ?? {}),
    observations: [...dataset.observations, ...(live.observations ?? [])],
    sources: mergeSources(dataset.sources, live.sources ?? []),
  };
}

function replacePrices(commodities: ForecastDataset['commodities'], prices: NonNullable<LiveInputs['prices']>): ForecastDataset['commodities'] {
  const next = { ...commodities };
  for (const symbol of Object.keys(prices) as CommoditySymbol[]) {
    const series = prices[symbol];
    if (series === undefined || series.length === 0) continue;
    const profile = next[symbol];
    const factor = profile.benchmark.toBenchmarkUnit;
    const converted = series.map((p) => ({ date: p.date, price: p.price * factor }));
    next[symbol] = { ...profile, prices: converted.sort((a, b) => compareText(a.date, b.date)) };
  }
  return next;
}

function mergeSources(base: readonly Provenance[], extra: readonly Provenance[]): Provenance[] {
  const merged = [...base];
  for (const source of extra) {
    if (!merged.some((s) => s.source === source.source && s.url === source.url)) merged.push(source);
  }
  return merged;
}

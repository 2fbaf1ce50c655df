// Shared vocabulary of the forecast domain. Pure types: no I/O, no clock.

export const COMMODITY_SYMBOLS = ['WHEAT', 'CORN', 'SOYB', 'COFFEE', 'COCOA', 'COTTON', 'SUGAR', 'WTI', 'NG', 'COPPER', 'LUMBER'] as const;
export type CommoditySymbol = (typeof COMMODITY_SYMBOLS)[number];

export type RiskStatus = 'GREEN' | 'YELLOW' | 'RED';
export type Outlook = 'IMPROVING' | 'STABLE' | 'DETERIORATING' | 'UNCERTAIN';
export type PrimaryThreat = 'drought' | 'wildfire' | 'flood' | 'heat stress' | 'storm';
export type DataQuality = 'LIVE' | 'PARTIAL' | 'ESTIMATED';

/** Climate inputs for one production region at one observation time. */
export interface RegionClimateObservation {
  regionId: string;
  /** ISO 8601 date-time the values describe. */
  observedAt: string;
  /** Degrees C of the 30-day mean 2 m temperature against the 1991-2020 baseline for the same days. */
  temperatureAnomalyC: number;
  /** 0 (no drought) to 5 (exceptional): share-weighted US Drought Monitor style category D0-D4 + 1, or the SPEI equivalent outside the US. */
  droughtIndex: number;
  /** Active wildfire events (NASA EONET category "wildfires", status open) inside the region's bounding box. */
  activeWildfires: number;
  /** Active GDACS alerts (orange or red) by kind inside the region's bounding box. */
  alerts: { flood: number; storm: number; drought: number; other: number };
}

/** One published price observation of a commodity's benchmark. */
export interface PricePoint {
  /** ISO date (YYYY-MM-DD) of the settlement or monthly average. */
  date: string;
  price: number;
}

/** Where a figure came from: every snapshot or live value carries one. */
export interface Provenance {
  source: string;
  url: string;
  asOf: string;
  /** How a value was derived when it is not the source's own figure. */
  derivation?: string;
}

// ---- Added for the forecast model (domain/dataset.ts and the outputs). New exports only. ----

/** The nine built-in scenario ids of POST /forecast/scenario. */
export const SCENARIO_IDS = [
  'la_nina',
  'gulf_hurricane',
  'black_sea_disruption',
  'amazon_drought',
  'sahel_heatwave',
  'us_midwest_drought',
  'arctic_blast',
  'pacific_typhoon',
  'global_heatwave',
] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export const RISK_STATUSES = ['GREEN', 'YELLOW', 'RED'] as const satisfies readonly RiskStatus[];
export const OUTLOOKS = ['IMPROVING', 'STABLE', 'DETERIORATING', 'UNCERTAIN'] as const satisfies readonly Outlook[];
export const PRIMARY_THREATS = ['drought', 'wildfire', 'flood', 'heat stress', 'storm'] as const satisfies readonly PrimaryThreat[];

/** A region's direction between two observations; regions are never UNCERTAIN (spec: Region entry). */
export type RegionOutlook = Exclude<Outlook, 'UNCERTAIN'>;

export type SeverityLevel = 'LOW' | 'MODERATE' | 'HIGH';
export const SEVERITY_LEVELS = ['LOW', 'MODERATE', 'HIGH'] as const satisfies readonly SeverityLevel[];

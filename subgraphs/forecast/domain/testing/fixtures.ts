// Test-only helpers: a fixed clock and small datasets derived from a given one. Not part of the barrel.
// Pure like the rest of domain/: the tests pass the shipped snapshot in from data/.

import type { ForecastContext, ForecastDataset, ProductionRegion } from '../dataset.js';
import type { CommoditySymbol, RegionClimateObservation } from '../types.js';

/** One day after the snapshot's current observations (2024-10-08T00:00Z). */
export const NOW = new Date('2024-10-09T00:00:00Z');
export const CONTEXT: ForecastContext = { now: NOW, dataQuality: 'ESTIMATED' };

export const CURRENT_AT = '2024-10-08T00:00:00Z';
export const PREVIOUS_AT = '2024-09-08T00:00:00Z';

export function observation(regionId: string, observedAt: string, values: Partial<Omit<RegionClimateObservation, 'regionId' | 'observedAt'>> = {}): RegionClimateObservation {
  return {
    regionId,
    observedAt,
    temperatureAnomalyC: values.temperatureAnomalyC ?? 0,
    droughtIndex: values.droughtIndex ?? 0,
    activeWildfires: values.activeWildfires ?? 0,
    alerts: values.alerts ?? { flood: 0, storm: 0, drought: 0, other: 0 },
  };
}

/** The dataset with its observations replaced. */
export function withObservations(dataset: ForecastDataset, observations: readonly RegionClimateObservation[]): ForecastDataset {
  return { ...dataset, observations };
}

/** The dataset with one commodity's production regions replaced. */
export function withProduction(dataset: ForecastDataset, symbol: CommoditySymbol, regions: readonly Pick<ProductionRegion, 'regionId' | 'share'>[]): ForecastDataset {
  const profile = dataset.commodities[symbol];
  const listed = regions.map((r) => ({ ...r, production: r.share, worldShare: r.share }));
  return {
    ...dataset,
    commodities: { ...dataset.commodities, [symbol]: { ...profile, production: { ...profile.production, regions: listed } } },
  };
}

// The shipped forecast snapshot, validated when this module loads: a malformed file throws here.

import type { ForecastDataset, RegionProfile } from '../domain/index.js';
import type { RegionClimateObservation } from '../domain/index.js';
import { parseForecastFiles } from './assemble.js';
import calendar from './calendar.json' with { type: 'json' };
import commodities from './commodities.json' with { type: 'json' };
import parameters from './model-parameters.json' with { type: 'json' };
import regions from './regions.json' with { type: 'json' };
import scenarios from './scenarios.json' with { type: 'json' };
import { loadShippedSeries } from './series.js';

export { ForecastDataError, parseForecastFiles, type RawForecastFiles } from './assemble.js';
export { pricePointSchema, provenanceSchema, regionClimateObservationSchema } from './schemas.js';
export { loadShippedSeries, type SeriesSource, type ShippedSeries } from './series.js';

/** Data quality of results computed from the snapshot alone. */
export const SNAPSHOT_DATA_QUALITY = 'ESTIMATED' as const;

export const snapshotDataset: ForecastDataset = parseForecastFiles({ commodities, regions, parameters, scenarios, calendar, series: loadShippedSeries() });

export const snapshotRegions: readonly RegionProfile[] = snapshotDataset.regions;

export const snapshotObservations: readonly RegionClimateObservation[] = snapshotDataset.observations;

/** The newest snapshot observation of each region: the base a live adapter overlays field by field. */
export function latestSnapshotObservations(): RegionClimateObservation[] {
  const newest = new Map<string, RegionClimateObservation>();
  for (const observation of snapshotObservations) {
    const held = newest.get(observation.regionId);
    if (held === undefined || Date.parse(observation.observedAt) > Date.parse(held.observedAt)) {
      newest.set(observation.regionId, observation);
    }
  }
  return snapshotRegions.flatMap((r) => {
    const observation = newest.get(r.id);
    return observation === undefined ? [] : [observation];
  });
}

// Pure: the shipped snapshot with the live values laid over it, field by field.

import type { RegionClimateObservation } from '../domain/index.js';
import { hasLiveValue, type LiveClimateObservation } from './live-dataset.js';

/**
 * One observation per snapshot region. Live fields replace the snapshot's; a region with no
 * live field keeps its snapshot observation whole, observedAt included.
 */
export function mergeWithSnapshot(live: readonly LiveClimateObservation[], snapshot: readonly RegionClimateObservation[]): RegionClimateObservation[] {
  const byRegion = new Map(live.map((o) => [o.regionId, o]));
  return snapshot.map((base) => {
    const fresh = byRegion.get(base.regionId);
    if (fresh === undefined || !hasLiveValue(fresh)) return base;
    return { ...base, ...fresh };
  });
}

// Picks, per region, the observation that is current and the older one the trend compares with.

import type { ForecastDataset } from './dataset.js';
import { compareText, daysBetween } from './numeric.js';
import type { RegionClimateObservation } from './types.js';

export interface ObservationPair {
  current: RegionClimateObservation;
  /** Absent when no observation lies inside the trend's comparison gap. */
  previous?: RegionClimateObservation;
}

type TrendGap = Pick<ForecastDataset['parameters']['trend'], 'comparisonMinGapDays' | 'comparisonMaxGapDays'>;

/**
 * The newest observation of each region is current; previous is the newest one that is at least
 * comparisonMinGapDays and at most comparisonMaxGapDays older. On equal timestamps the later input
 * wins, so live observations appended after the snapshot take precedence.
 */
export function pairObservations(observations: readonly RegionClimateObservation[], gap: TrendGap): Map<string, ObservationPair> {
  const byRegion = new Map<string, RegionClimateObservation[]>();
  for (const observation of observations) {
    const list = byRegion.get(observation.regionId) ?? [];
    list.push(observation);
    byRegion.set(observation.regionId, list);
  }
  const pairs = new Map<string, ObservationPair>();
  for (const regionId of [...byRegion.keys()].sort(compareText)) {
    const newestFirst = sortNewestFirst(byRegion.get(regionId) ?? []);
    const current = newestFirst[0];
    if (current === undefined) continue;
    const previous = newestFirst.find((o) => isInGap(o, current, gap));
    pairs.set(regionId, previous === undefined ? { current } : { current, previous });
  }
  return pairs;
}

function sortNewestFirst(list: readonly RegionClimateObservation[]): RegionClimateObservation[] {
  return list
    .map((observation, index) => ({ observation, index, time: Date.parse(observation.observedAt) }))
    .sort((a, b) => b.time - a.time || b.index - a.index)
    .map((entry) => entry.observation);
}

function isInGap(candidate: RegionClimateObservation, current: RegionClimateObservation, gap: TrendGap): boolean {
  const days = daysBetween(new Date(candidate.observedAt), new Date(current.observedAt));
  return days >= gap.comparisonMinGapDays && days <= gap.comparisonMaxGapDays;
}

// Pure: GDACS features into the alert counts of a region, by kind.

import { bboxesIntersect, pointBbox } from '../geo.js';
import type { AlertCounts, Bbox } from '../types.js';
import type { GdacsFeature } from './parse.js';

const COUNTED_LEVELS = new Set(['orange', 'red']);

/** Current Orange and Red alerts whose extent touches the box, each event once. */
export function mapRegionAlerts(features: readonly GdacsFeature[], bbox: Bbox): AlertCounts {
  const counts: AlertCounts = { flood: 0, storm: 0, drought: 0, other: 0 };
  const seen = new Set<string>();
  for (const feature of features) {
    const { eventtype, eventid } = feature.properties;
    const id = `${eventtype}:${eventid}`;
    if (seen.has(id) || !isCountedAlert(feature) || !touches(feature, bbox)) continue;
    seen.add(id);
    counts[alertKind(eventtype)] += 1;
  }
  return counts;
}

export function alertKind(eventtype: string): keyof AlertCounts {
  switch (eventtype.toUpperCase()) {
    case 'FL':
      return 'flood';
    case 'TC':
      return 'storm';
    case 'DR':
      return 'drought';
    default:
      return 'other';
  }
}

function isCountedAlert(feature: GdacsFeature): boolean {
  const { alertlevel, iscurrent } = feature.properties;
  return COUNTED_LEVELS.has(alertlevel.toLowerCase()) && String(iscurrent).toLowerCase() === 'true';
}

function touches(feature: GdacsFeature, bbox: Bbox): boolean {
  const extent = feature.bbox ?? centroidBbox(feature.geometry);
  return extent !== undefined && bboxesIntersect(extent, bbox);
}

function centroidBbox(geometry: GdacsFeature['geometry']): Bbox | undefined {
  if (geometry.type !== 'Point' || !Array.isArray(geometry.coordinates)) return undefined;
  const [lon, lat]: unknown[] = geometry.coordinates;
  return typeof lon === 'number' && typeof lat === 'number' ? pointBbox(lon, lat) : undefined;
}

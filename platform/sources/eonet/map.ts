// Pure: EONET events into the count of active wildfires in a region.

import { bboxesIntersect, pointBbox, positionsBbox } from '../geo.js';
import type { Bbox } from '../types.js';
import type { EonetEvent, EonetGeometry } from './parse.js';

/**
 * Open wildfire events whose latest position lies in the box. Checked here as well as in the
 * query so the count does not depend on how the server matches events with several
 * positions: only the latest one says where the fire is now.
 */
export function mapActiveWildfires(events: readonly EonetEvent[], bbox: Bbox): number {
  return events.filter((event) => isActiveWildfire(event) && latestInside(event, bbox)).length;
}

function isActiveWildfire(event: EonetEvent): boolean {
  return event.closed === null && event.categories.some((c) => c.id === 'wildfires');
}

function latestInside(event: EonetEvent, bbox: Bbox): boolean {
  const latest = [...event.geometry].sort((a, b) => Date.parse(b.date) - Date.parse(a.date))[0];
  const box = latest ? geometryBbox(latest) : undefined;
  return box !== undefined && bboxesIntersect(box, bbox);
}

function geometryBbox(geometry: EonetGeometry): Bbox | undefined {
  if (geometry.type === 'Point') return pointBbox(geometry.coordinates[0], geometry.coordinates[1]);
  return positionsBbox(geometry.coordinates.flat());
}

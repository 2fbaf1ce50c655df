// Bounding-box tests used by the event maps (EONET, GDACS). Boxes do not cross the antimeridian.

import type { Bbox } from './types.js';

export function bboxesIntersect(a: Bbox, b: Bbox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

export function pointBbox(lon: number, lat: number): Bbox {
  return [lon, lat, lon, lat];
}

/** The smallest box holding every [lon, lat] position. */
export function positionsBbox(positions: readonly (readonly number[])[]): Bbox | undefined {
  const lons = positions.map((p) => p[0]).filter((v): v is number => v !== undefined);
  const lats = positions.map((p) => p[1]).filter((v): v is number => v !== undefined);
  if (lons.length === 0 || lats.length === 0) return undefined;
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

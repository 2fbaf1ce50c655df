// Pure: Open-Meteo daily series into the 1991-2020 daily normals and the region's temperature anomaly.

import type { GeoPoint } from '../types.js';
import type { OpenMeteoLocation } from './parse.js';

/** Mean daily temperature per calendar day ("MM-DD"), in °C, for one point. */
export type DailyNormals = ReadonlyMap<string, number>;

/** Normals are fixed for a point, so they are kept per point for the life of a process. */
export type ClimatologyCache = Map<string, DailyNormals>;

/** Points with fewer valid days than this in the 30-day window are left out of the region mean. */
export const MIN_VALID_DAYS = 15;

export function pointKey(point: GeoPoint): string {
  return `${point.lat},${point.lon}`;
}

export function mapDailyNormals(location: OpenMeteoLocation): DailyNormals {
  const sums = new Map<string, { sum: number; count: number }>();
  location.daily.time.forEach((day, i) => {
    const value = location.daily.temperature_2m_mean[i];
    if (value === null || value === undefined) return;
    const key = day.slice(5);
    const entry = sums.get(key) ?? { sum: 0, count: 0 };
    sums.set(key, { sum: entry.sum + value, count: entry.count + 1 });
  });
  return new Map([...sums].map(([key, { sum, count }]) => [key, sum / count]));
}

/** Mean over the window's valid days of (observed - normal for that calendar day), or undefined. */
export function mapPointAnomaly(recent: OpenMeteoLocation, normals: DailyNormals): number | undefined {
  const differences: number[] = [];
  recent.daily.time.forEach((day, i) => {
    const value = recent.daily.temperature_2m_mean[i];
    const normal = normals.get(day.slice(5));
    if (value !== null && value !== undefined && normal !== undefined) differences.push(value - normal);
  });
  if (differences.length < MIN_VALID_DAYS) return undefined;
  return mean(differences);
}

/**
 * Region anomaly: the mean of the point anomalies. Locations pair with normals by request
 * order, which Open-Meteo keeps. Undefined when no point has enough valid days.
 */
export function mapTemperatureAnomaly(recent: readonly OpenMeteoLocation[], normals: readonly DailyNormals[]): number | undefined {
  const anomalies = recent
    .map((location, i) => {
      const pointNormals = normals[i];
      return pointNormals ? mapPointAnomaly(location, pointNormals) : undefined;
    })
    .filter((a): a is number => a !== undefined);
  return anomalies.length === 0 ? undefined : mean(anomalies);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

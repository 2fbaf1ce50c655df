// Network step for the Open-Meteo Historical Weather API (ERA5 reanalysis archive).

import { addDays, isoDay } from '../calendar.js';
import { buildUrl, getJson } from '../http.js';
import type { FeedRequestOptions } from '../options.js';
import type { GeoPoint } from '../types.js';

/** The WMO climate normal period the anomaly is measured against. */
export const NORMAL_PERIOD = { start: '1991-01-01', end: '2020-12-31' } as const;

/** Points asked for in one request; further points are ignored. */
export const MAX_POINTS_PER_REQUEST = 5;

/** Length of the recent window, in days (the contract's 30-day mean). */
export const RECENT_WINDOW_DAYS = 30;

// ERA5 reaches the archive about 5 days late; one more day keeps the window's end filled.
const ERA5_DELAY_DAYS = 6;

export interface DayWindow {
  start: string;
  end: string;
}

export function recentWindow(now: Date): DayWindow {
  const end = addDays(now, -ERA5_DELAY_DAYS);
  return { start: isoDay(addDays(end, -(RECENT_WINDOW_DAYS - 1))), end: isoDay(end) };
}

/**
 * Daily mean 2 m temperature at up to MAX_POINTS_PER_REQUEST points in one request.
 * models=era5 pins the reanalysis so recent days and the 1991-2020 normal come from one model.
 */
export async function fetchOpenMeteoDaily(options: FeedRequestOptions<'openMeteoArchive'>, points: readonly GeoPoint[], window: DayWindow): Promise<unknown> {
  const used = points.slice(0, MAX_POINTS_PER_REQUEST);
  const url = buildUrl(options.baseUrls.openMeteoArchive, '', {
    latitude: used.map((p) => String(p.lat)).join(','),
    longitude: used.map((p) => String(p.lon)).join(','),
    start_date: window.start,
    end_date: window.end,
    daily: 'temperature_2m_mean',
    models: 'era5',
    timezone: 'GMT',
  });
  return getJson('open-meteo', url, options);
}

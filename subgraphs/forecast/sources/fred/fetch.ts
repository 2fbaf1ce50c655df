// Network step for FRED series observations (St. Louis Fed).

import { addMonths, isoDay } from '../calendar.js';
import { buildUrl, getJson } from '../http.js';
import type { LiveSourceOptions } from '../options.js';

/** Months of history asked for: enough for the outlook's trend and volatility windows. */
export const PRICE_HISTORY_MONTHS = 24;

export async function fetchFredObservations(
  options: LiveSourceOptions,
  apiKey: string,
  seriesId: string,
  now: Date,
): Promise<unknown> {
  const url = buildUrl(options.baseUrls.fred, '/series/observations', {
    series_id: seriesId,
    api_key: apiKey,
    file_type: 'json',
    observation_start: isoDay(addMonths(now, -PRICE_HISTORY_MONTHS)),
    sort_order: 'asc',
  });
  return getJson('fred', url, options);
}

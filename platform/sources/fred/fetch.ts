// Network step for FRED series observations (St. Louis Fed).

import { buildUrl, getJson } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

/**
 * One series' observations from `observationStart` (YYYY-MM-DD) on, as published (no units
 * transformation), oldest first. The key travels in the query only: errors name host and path.
 */
export async function fetchFredObservations(options: FeedRequestOptions<'fred'>, apiKey: string, seriesId: string, observationStart: string): Promise<unknown> {
  const url = buildUrl(options.baseUrls.fred, '/series/observations', {
    series_id: seriesId,
    api_key: apiKey,
    file_type: 'json',
    observation_start: observationStart,
    sort_order: 'asc',
  });
  return getJson('fred', url, options);
}

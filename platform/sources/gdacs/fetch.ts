// Network step for the GDACS event list API: current Orange and Red alerts worldwide.

import { addDays, isoDay } from '../calendar.js';
import { buildUrl, getText, parseJsonBody } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

/** How far back an alert may have started and still be listed; droughts last for months. */
export const GDACS_LOOKBACK_DAYS = 120;

/**
 * One worldwide request per load: the list has no bbox filter, and filtering by region in
 * map.ts costs one call instead of one per region. Resolves to null on 204 No Content:
 * an empty answer, not a broken one.
 */
export async function fetchGdacsAlerts(options: FeedRequestOptions<'gdacs'>, now: Date): Promise<unknown> {
  const url = buildUrl(options.baseUrls.gdacs, '/events/geteventlist/SEARCH', {
    eventlist: 'FL;TC;DR;EQ;WF;VO',
    alertlevel: 'Orange;Red',
    fromDate: isoDay(addDays(now, -GDACS_LOOKBACK_DAYS)),
    toDate: isoDay(now),
  });
  const { status, text } = await getText('gdacs', url, options);
  return status === 204 ? null : parseJsonBody('gdacs', url, text);
}

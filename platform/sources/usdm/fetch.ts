// Network step for the US Drought Monitor comprehensive statistics service (state level).

import { addDays, usDay } from '../calendar.js';
import { buildUrl, getJson } from '../http.js';
import type { FeedRequestOptions } from '../options.js';
import { CATEGORICAL_STATISTICS } from './parse.js';

// Maps are weekly (valid Tuesday, published Thursday): two weeks always hold a published one.
const LOOKBACK_DAYS = 14;

/**
 * Area in square miles per drought class for the given states, one row per state and map.
 * Areas rather than percentages, so several states weigh by their size when summed.
 */
export async function fetchUsdmStateAreas(options: FeedRequestOptions<'usdm'>, stateFips: readonly string[], now: Date): Promise<unknown> {
  const url = buildUrl(options.baseUrls.usdm, '/StateStatistics/GetDroughtSeverityStatisticsByArea', {
    aoi: stateFips.join(','),
    startdate: usDay(addDays(now, -LOOKBACK_DAYS)),
    enddate: usDay(now),
    statisticsType: String(CATEGORICAL_STATISTICS),
  });
  return getJson('usdm', url, options);
}

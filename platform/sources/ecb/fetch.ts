// Network step for the ECB Data Portal web service (SDMX RESTful API), one series as SDMX-CSV.

import { buildUrl, getText } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

/** The euro short-term rate, volume-weighted trimmed mean, business daily: dataflow EST, key B.EU000A2X2A25.WT. */
export const ESTR_SERIES = { flow: 'EST', key: 'B.EU000A2X2A25.WT' } as const;

/** Observations of one series from `startPeriod` (YYYY-MM-DD) on, as SDMX-CSV: one row per observation. */
export async function fetchEcbSeries(options: FeedRequestOptions<'ecb'>, series: { flow: string; key: string }, startPeriod: string): Promise<string> {
  const url = buildUrl(options.baseUrls.ecb, `/data/${series.flow}/${series.key}`, { format: 'csvdata', startPeriod });
  const { text } = await getText('ecb', url, options, 'text/csv');
  return text;
}

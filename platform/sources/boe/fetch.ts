// Network step for the Bank of England Interactive Statistical Database (IADB): one series as CSV.

import { buildUrl, getText } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

/** SONIA, daily, percent: the IADB series code. */
export const SONIA_SERIES_CODE = 'IUDSOIA';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** DD/Mon/YYYY, the date form the IADB's Datefrom parameter takes. */
export function iadbDay(date: Date): string {
  return `${String(date.getUTCDate()).padStart(2, '0')}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}`;
}

/**
 * Observations of one series from `from` to the latest, as CSV with a DATE column and one column
 * named by the series code (CSVF=TN: tabular, no titles). The IADB refuses requests without a
 * User-Agent, so callers set options.userAgent.
 */
export async function fetchBoeSeries(options: FeedRequestOptions<'boe'>, seriesCode: string, from: Date): Promise<string> {
  const url = buildUrl(options.baseUrls.boe, '/_iadb-fromshowcolumns.asp', {
    'csv.x': 'yes',
    Datefrom: iadbDay(from),
    Dateto: 'now',
    SeriesCodes: seriesCode,
    CSVF: 'TN',
    UsingCodes: 'Y',
    VPD: 'Y',
    VFD: 'N',
  });
  const { text } = await getText('boe', url, options, 'text/csv');
  return text;
}

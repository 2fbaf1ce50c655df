// Network step for the World Bank Commodity Price Data (The Pink Sheet): the monthly historical workbook.

import { getBytes } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * CMO-Historical-Data-Monthly.xlsx as published with each monthly Pink Sheet: every series from
 * 1960 in one workbook (there is no API for it). The configured URL is the workbook itself.
 */
export async function fetchPinkSheetMonthly(options: FeedRequestOptions<'worldbankPinkSheet'>): Promise<Uint8Array> {
  return getBytes('worldbank', new URL(options.baseUrls.worldbankPinkSheet), options, XLSX);
}

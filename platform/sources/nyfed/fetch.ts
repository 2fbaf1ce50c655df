// Network step for the Federal Reserve Bank of New York's Global Supply Chain Pressure Index workbook.

import { getBytes } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * gscpi_data.xlsx as published with each monthly release: the whole series, re-estimated every
 * month (a vintage is never spliced onto another). The configured URL is the workbook itself.
 */
export async function fetchGscpiWorkbook(options: FeedRequestOptions<'nyfedGscpi'>): Promise<Uint8Array> {
  return getBytes('nyfed', new URL(options.baseUrls.nyfedGscpi), options, XLSX);
}

// Network step for NOAA GML's carbon dioxide trend files (Mauna Loa and the global marine surface average).

import { buildUrl, getText } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

/** The whitespace-separated tables NOAA GML publishes under gml.noaa.gov/ccgg/trends/. */
export type GmlCo2File = 'co2_mm_mlo.txt' | 'co2_mm_gl.txt' | 'co2_annmean_mlo.txt';

/** One CO2 table as published: '#' comment lines, then one row per month (or year), oldest first. */
export async function fetchGmlCo2(options: FeedRequestOptions<'noaaGmlCo2'>, file: GmlCo2File): Promise<string> {
  const { text } = await getText('noaa-gml', buildUrl(options.baseUrls.noaaGmlCo2, `/${file}`, {}), options, 'text/plain');
  return text;
}

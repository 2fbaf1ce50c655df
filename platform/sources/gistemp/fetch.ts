// Network step for NASA GISS Surface Temperature Analysis (GISTEMP v4) global land-ocean means.

import { buildUrl, getText } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

/** GLB.Ts+dSST.csv: a title line, then Year,Jan..Dec,J-D,D-N,DJF,MAM,JJA,SON, one row per year. */
export async function fetchGistempGlobal(options: FeedRequestOptions<'gistemp'>): Promise<string> {
  const { text } = await getText('gistemp', buildUrl(options.baseUrls.gistemp, '/GLB.Ts+dSST.csv', {}), options, 'text/csv');
  return text;
}

// Network step for DefiLlama's stablecoins list: every pegged asset with its circulating supply and price.

import { buildUrl, getJson } from '../http.js';
import type { FeedRequestOptions } from '../options.js';

export async function fetchDefillamaStablecoins(options: FeedRequestOptions<'defillama'>): Promise<unknown> {
  const url = buildUrl(options.baseUrls.defillama, '/stablecoins', { includePrices: 'true' });
  return getJson('defillama', url, options);
}

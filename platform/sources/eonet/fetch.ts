// Network step for NASA EONET v3: open wildfire events in a region's bounding box.

import { buildUrl, getJson } from '../http.js';
import type { FeedRequestOptions } from '../options.js';
import type { Bbox } from '../types.js';

export async function fetchEonetWildfires(options: FeedRequestOptions<'eonet'>, bbox: Bbox): Promise<unknown> {
  const [minLon, minLat, maxLon, maxLat] = bbox;
  const url = buildUrl(options.baseUrls.eonet, '/events', {
    category: 'wildfires',
    status: 'open',
    // EONET wants the upper-left corner then the lower-right one, not GeoJSON's min/max order.
    bbox: [minLon, maxLat, maxLon, minLat].join(','),
  });
  return getJson('eonet', url, options);
}

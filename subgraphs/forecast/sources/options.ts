// Typed options of the forecast's live sources. The lead wires them from platform config: nothing here reads the environment.

import { type Bbox, DEFAULT_FEED_BASE_URLS, type FeedBaseUrls, type FeedOptions, type GeoPoint, MAX_POINTS_PER_REQUEST } from '../../../platform/sources/index.js';

export type { Bbox, GeoPoint } from '../../../platform/sources/index.js';

/** The publishers the forecast reads: Open-Meteo, EONET, GDACS, the US Drought Monitor and FRED. */
export type LiveSourceBaseUrls = Pick<FeedBaseUrls, 'openMeteoArchive' | 'eonet' | 'gdacs' | 'usdm' | 'fred'>;

export const DEFAULT_LIVE_BASE_URLS: LiveSourceBaseUrls = {
  openMeteoArchive: DEFAULT_FEED_BASE_URLS.openMeteoArchive,
  eonet: DEFAULT_FEED_BASE_URLS.eonet,
  gdacs: DEFAULT_FEED_BASE_URLS.gdacs,
  usdm: DEFAULT_FEED_BASE_URLS.usdm,
  fred: DEFAULT_FEED_BASE_URLS.fred,
};

export interface LiveSourceOptions extends FeedOptions {
  enabled: boolean;
  /** Sent as api_key to FRED; prices are not fetched without it. Never logged or put in an error. */
  fredApiKey?: string;
  baseUrls: LiveSourceBaseUrls;
}

/** The User-Agent of the forecast's requests to its sources, unless the options name another. */
export const FORECAST_USER_AGENT = 'settlement-rail-graph forecast live sources';

/** Seconds a client is told to wait after a 503 caused by a live source (spec 7 and 8). */
export const LIVE_SOURCE_RETRY_AFTER_SECONDS = 60;

/** Most representative points of one region sent to Open-Meteo; further points are ignored. */
export const MAX_POINTS_PER_REGION = MAX_POINTS_PER_REQUEST;

export interface LiveRegionSpec {
  id: string;
  bbox: Bbox;
  /** Representative points (growing areas, basins); at most MAX_POINTS_PER_REGION are used. */
  points: GeoPoint[];
  /** US states (2-digit FIPS) covered by the US Drought Monitor; absent outside the US. */
  usdmArea?: { type: 'state'; fips: string[] };
}

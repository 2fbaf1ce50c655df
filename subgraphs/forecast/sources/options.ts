// Typed options of the live adapters. The lead wires them from platform config: nothing here reads the environment.

export interface LiveSourceBaseUrls {
  /** Open-Meteo Historical Weather API endpoint (ERA5 archive). */
  openMeteoArchive: string;
  /** NASA EONET API v3 root (the adapter appends /events). */
  eonet: string;
  /** GDACS API root (the adapter appends /events/geteventlist/SEARCH). */
  gdacs: string;
  /** US Drought Monitor data services root (the adapter appends /StateStatistics/...). */
  usdm: string;
  /** FRED API root (the adapter appends /series/observations). */
  fred: string;
}

export const DEFAULT_LIVE_BASE_URLS: LiveSourceBaseUrls = {
  openMeteoArchive: 'https://archive-api.open-meteo.com/v1/archive',
  eonet: 'https://eonet.gsfc.nasa.gov/api/v3',
  gdacs: 'https://www.gdacs.org/gdacsapi/api',
  usdm: 'https://usdmdataservices.unl.edu/api',
  fred: 'https://api.stlouisfed.org/fred',
};

export interface LiveSourceOptions {
  enabled: boolean;
  /** Budget of one HTTP request, connection to last body byte. */
  timeoutMs: number;
  /** Sent as api_key to FRED; prices are not fetched without it. Never logged or put in an error. */
  fredApiKey?: string;
  baseUrls: LiveSourceBaseUrls;
  fetch: typeof globalThis.fetch;
}

/** Longitude then latitude, WGS 84 degrees, GeoJSON order. */
export type Bbox = [minLon: number, minLat: number, maxLon: number, maxLat: number];

export interface GeoPoint {
  lat: number;
  lon: number;
}

/** Most representative points of one region sent to Open-Meteo; further points are ignored. */
export const MAX_POINTS_PER_REGION = 5;

export interface LiveRegionSpec {
  id: string;
  bbox: Bbox;
  /** Representative points (growing areas, basins); at most MAX_POINTS_PER_REGION are used. */
  points: GeoPoint[];
  /** US states (2-digit FIPS) covered by the US Drought Monitor; absent outside the US. */
  usdmArea?: { type: 'state'; fips: string[] };
}

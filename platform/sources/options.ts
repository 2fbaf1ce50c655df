// What every feed adapter needs to make its request: the network, a time budget and its publisher's base URL.
// Callers wire these from their own configuration: nothing here reads the environment.

export interface FeedOptions {
  /** Budget of one HTTP request, connection to last body byte. */
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
  /** Sent as User-Agent when set; otherwise the fetch implementation's own is sent. */
  userAgent?: string;
}

/** Each publisher's API root; an adapter appends its own path. */
export interface FeedBaseUrls {
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
  /** DefiLlama stablecoins API root (the adapter appends /stablecoins). */
  defillama: string;
}

/** The publishers' public endpoints. */
export const DEFAULT_FEED_BASE_URLS: FeedBaseUrls = {
  openMeteoArchive: 'https://archive-api.open-meteo.com/v1/archive',
  eonet: 'https://eonet.gsfc.nasa.gov/api/v3',
  gdacs: 'https://www.gdacs.org/gdacsapi/api',
  usdm: 'https://usdmdataservices.unl.edu/api',
  fred: 'https://api.stlouisfed.org/fred',
  defillama: 'https://stablecoins.llama.fi',
};

/** The options an adapter of the named publishers takes: the network, the budget, their base URLs. */
export type FeedRequestOptions<Publisher extends keyof FeedBaseUrls> = FeedOptions & { baseUrls: Pick<FeedBaseUrls, Publisher> };

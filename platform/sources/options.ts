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
  /** The World Bank's Pink Sheet monthly workbook itself (CMO-Historical-Data-Monthly.xlsx): the adapter appends nothing. */
  worldbankPinkSheet: string;
  /** NOAA GML's CO2 trends data folder (the adapter appends /co2_mm_mlo.txt, /co2_mm_gl.txt, /co2_annmean_mlo.txt). */
  noaaGmlCo2: string;
  /** NASA GISTEMP v4 table folder (the adapter appends /GLB.Ts+dSST.csv). */
  gistemp: string;
  /** The New York Fed's GSCPI workbook itself (gscpi_data.xlsx): the adapter appends nothing. */
  nyfedGscpi: string;
  /** ECB Data Portal web service root (the adapter appends /data/<flow>/<key>). */
  ecb: string;
  /** Bank of England Interactive Statistical Database root (the adapter appends /_iadb-fromshowcolumns.asp). */
  boe: string;
}

/** The publishers' public endpoints. */
export const DEFAULT_FEED_BASE_URLS: FeedBaseUrls = {
  openMeteoArchive: 'https://archive-api.open-meteo.com/v1/archive',
  eonet: 'https://eonet.gsfc.nasa.gov/api/v3',
  gdacs: 'https://www.gdacs.org/gdacsapi/api',
  usdm: 'https://usdmdataservices.unl.edu/api',
  fred: 'https://api.stlouisfed.org/fred',
  defillama: 'https://stablecoins.llama.fi',
  worldbankPinkSheet: 'https://thedocs.worldbank.org/en/doc/5d903e848db1d1b83e0ec8f744e55570-0350012021/related/CMO-Historical-Data-Monthly.xlsx',
  noaaGmlCo2: 'https://gml.noaa.gov/webdata/ccgg/trends/co2',
  gistemp: 'https://data.giss.nasa.gov/gistemp/tabledata_v4',
  nyfedGscpi: 'https://www.newyorkfed.org/medialibrary/research/interactives/gscpi/downloads/gscpi_data.xlsx',
  ecb: 'https://data-api.ecb.europa.eu/service',
  boe: 'https://www.bankofengland.co.uk/boeapps/database',
};

/** The options an adapter of the named publishers takes: the network, the budget, their base URLs. */
export type FeedRequestOptions<Publisher extends keyof FeedBaseUrls> = FeedOptions & { baseUrls: Pick<FeedBaseUrls, Publisher> };

// Test support of the live intelligence feeds: every publisher answering from its recorded fixture,
// as a fetch (for the dataset source) or as a local HTTP server (for a whole server's configuration).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_FEED_BASE_URLS } from '../../../platform/sources/index.js';
import { fixtureFetch, type FixtureRoute, readFixture } from '../../../platform/sources/testing/fixture-fetch.js';
import { workbookFixture } from '../../../platform/sources/testing/workbook-fixture.js';

/** FRED fixtures by the series_id asked; any other id is answered 404. */
export const FRED_FIXTURES: Record<string, string> = {
  NFCI: 'nfci-recent.json',
  STLFSI4: 'stlfsi4-recent.json',
  DCPN3M: 'dcpn3m-recent.json',
  DTB3: 'dtb3-recent.json',
  VIXCLS: 'vixcls-recent.json',
  DRTSCILM: 'drtscilm-recent.json',
  FYFSD: 'fyfsd-recent.json',
  // The recorded T10Y2Y answer stands for an FX quote: 0.52 and 0.51 USD per EUR invert to round numbers to check.
  DEXUSEU: 't10y2y.json',
};

export type FixturePublisher = 'fred' | 'worldbank' | 'noaa-gml' | 'gistemp' | 'nyfed' | 'ecb' | 'boe';

const host = (name: string) => (url: URL) => url.host === name;
const fredSeries = (id: string) => (url: URL) => url.host === 'api.stlouisfed.org' && url.searchParams.get('series_id') === id;
const gmlFile = (file: string) => (url: URL) => url.host === 'gml.noaa.gov' && url.pathname.endsWith(`/${file}`);

/** Every publisher of the live intelligence series answering from its fixture; `overrides` replaces a publisher's answers (a status, a body). */
export function intelligenceFixtureRoutes(overrides: Partial<Record<FixturePublisher, Partial<FixtureRoute>>> = {}): FixtureRoute[] {
  return [
    ...Object.entries(FRED_FIXTURES).map(([id, file]) => ({ matches: fredSeries(id), body: readFixture('fred', file), ...overrides.fred })),
    { matches: host('thedocs.worldbank.org'), body: workbookFixture('worldbank', 'pink-sheet-monthly-excerpt'), ...overrides.worldbank },
    { matches: gmlFile('co2_mm_mlo.txt'), body: readFixture('noaa-gml', 'co2_mm_mlo-excerpt.txt'), ...overrides['noaa-gml'] },
    { matches: gmlFile('co2_mm_gl.txt'), body: readFixture('noaa-gml', 'co2_mm_gl-excerpt.txt'), ...overrides['noaa-gml'] },
    { matches: gmlFile('co2_annmean_mlo.txt'), body: readFixture('noaa-gml', 'co2_annmean_mlo-excerpt.txt'), ...overrides['noaa-gml'] },
    { matches: host('data.giss.nasa.gov'), body: readFixture('gistemp', 'GLB.Ts+dSST-excerpt.csv'), ...overrides.gistemp },
    { matches: host('www.newyorkfed.org'), body: workbookFixture('nyfed', 'gscpi-data-excerpt'), ...overrides.nyfed },
    { matches: host('data-api.ecb.europa.eu'), body: readFixture('ecb', 'est-b-eu000a2x2a25-wt.csv'), ...overrides.ecb },
    { matches: host('www.bankofengland.co.uk'), body: readFixture('boe', 'iudsoia.csv'), ...overrides.boe },
  ];
}

/** The configuration variable of each publisher's base URL, and the public URL its local stand-in path maps to. */
const PUBLISHER_URLS: Record<string, { variable: string; path: string; publicUrl: string }> = {
  fred: { variable: 'INTELLIGENCE_FRED_URL', path: '/fred', publicUrl: DEFAULT_FEED_BASE_URLS.fred },
  worldbank: { variable: 'INTELLIGENCE_PINK_SHEET_URL', path: '/pink-sheet.xlsx', publicUrl: DEFAULT_FEED_BASE_URLS.worldbankPinkSheet },
  noaa: { variable: 'INTELLIGENCE_NOAA_GML_CO2_URL', path: '/gml', publicUrl: DEFAULT_FEED_BASE_URLS.noaaGmlCo2 },
  gistemp: { variable: 'INTELLIGENCE_GISTEMP_URL', path: '/gistemp', publicUrl: DEFAULT_FEED_BASE_URLS.gistemp },
  nyfed: { variable: 'INTELLIGENCE_GSCPI_URL', path: '/gscpi.xlsx', publicUrl: DEFAULT_FEED_BASE_URLS.nyfedGscpi },
  ecb: { variable: 'INTELLIGENCE_ECB_URL', path: '/ecb', publicUrl: DEFAULT_FEED_BASE_URLS.ecb },
  boe: { variable: 'INTELLIGENCE_BOE_URL', path: '/boe', publicUrl: DEFAULT_FEED_BASE_URLS.boe },
};

export interface FixtureServer {
  server: Server;
  /** INTELLIGENCE_*_URL of every publisher, pointing at this server. */
  environment: Record<string, string>;
  /** Public URLs the requests stood for, in order. */
  requests: URL[];
  close(): Promise<void>;
}

/** A local stand-in for every publisher: a request to `<path><rest>` is answered as `<public URL><rest>` would be by `routes`. */
export async function startFixtureServer(routes: () => readonly FixtureRoute[]): Promise<FixtureServer> {
  const requests: URL[] = [];
  const server = createServer((request, response) => {
    const local = new URL(request.url ?? '/', 'http://fixture');
    const publisher = Object.values(PUBLISHER_URLS).find(({ path }) => local.pathname.startsWith(path));
    if (publisher === undefined) return void response.writeHead(404).end();
    const target = new URL(publisher.publicUrl);
    target.pathname = `${target.pathname.replace(/\/$/, '')}${local.pathname.slice(publisher.path.length)}`;
    target.search = local.search;
    requests.push(target);
    void fixtureFetch(routes())
      .fetch(target)
      .then(async (answer) => response.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const environment = Object.fromEntries(Object.values(PUBLISHER_URLS).map(({ variable, path }) => [variable, `${origin}${path}`]));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { server, environment, requests, close };
}

// Test support of the forecast's live sources: its options, and every source answering from its recorded fixture.

import { type FixtureRoute, readFixture } from '../../../platform/sources/testing/fixture-fetch.js';
import { DEFAULT_LIVE_BASE_URLS, type LiveSourceOptions } from './options.js';

export type LiveFixtureSource = 'archive' | 'eonet' | 'gdacs' | 'usdm' | 'fred';

/** Every live source answering from its recorded fixture; `overrides` changes a source's answer. */
export function liveFixtureRoutes(overrides: Partial<Record<LiveFixtureSource, Partial<FixtureRoute>>> = {}): FixtureRoute[] {
  const host = (name: string) => (url: URL) => url.host === name;
  const normals = (url: URL) => host('archive-api.open-meteo.com')(url) && url.searchParams.get('start_date') === '1991-01-01';
  return [
    { matches: normals, body: readFixture('open-meteo', 'era5-normal-excerpt-1991-1992.json'), ...overrides.archive },
    { matches: host('archive-api.open-meteo.com'), body: readFixture('open-meteo', 'era5-recent-2025-06-15_2025-07-14.json'), ...overrides.archive },
    { matches: host('eonet.gsfc.nasa.gov'), body: readFixture('eonet', 'wildfires-open-corn-belt.json'), ...overrides.eonet },
    { matches: host('www.gdacs.org'), body: readFixture('gdacs', 'search-orange-red.json'), ...overrides.gdacs },
    { matches: host('usdmdataservices.unl.edu'), body: readFixture('usdm', 'state-area-categorical-ia-il.json'), ...overrides.usdm },
    { matches: host('api.stlouisfed.org'), body: readFixture('fred', 'pwheamtusdm.json'), ...overrides.fred },
  ];
}

export function testOptions(fetch: typeof globalThis.fetch, overrides: Partial<LiveSourceOptions> = {}): LiveSourceOptions {
  return { enabled: true, timeoutMs: 1_000, baseUrls: DEFAULT_LIVE_BASE_URLS, fetch, ...overrides };
}

import { describe, expect, it } from 'vitest';
import { fixtureFetch, hangingFetch } from '../../../platform/sources/testing/fixture-fetch.js';
import type { RegionClimateObservation } from '../domain/index.js';
import { type ClimatologyCache, hasLiveClimate, type LiveClimateObservation, loadLiveClimate } from './live-dataset.js';
import { mergeWithSnapshot } from './merge-snapshot.js';
import type { LiveRegionSpec } from './options.js';
import { liveFixtureRoutes, testOptions } from './testing.js';

const NOW = new Date('2025-07-20T12:00:00Z');
const POINTS = [
  { lat: 41.6, lon: -93.6 },
  { lat: 40.5, lon: -88.9 },
];
const CORN_BELT: LiveRegionSpec = {
  id: 'us-corn-belt',
  bbox: [-97.5, 36.0, -80.5, 49.5],
  points: POINTS,
  usdmArea: { type: 'state', fips: ['19', '17'] },
};
// The fake archive answers every point query with the same two locations, so this region gets
// the Corn Belt's temperatures; the EONET and GDACS counts still differ through its own bbox.
const MATO_GROSSO: LiveRegionSpec = { id: 'br-mato-grosso', bbox: [-61.0, -18.0, -45.0, -7.0], points: POINTS };
const REGIONS = [CORN_BELT, MATO_GROSSO];
const SERIES = { WHEAT: 'PWHEAMTUSDM' };

const host = (name: string) => (url: URL) => url.host === name;

const routes = liveFixtureRoutes;

function observation(observations: readonly LiveClimateObservation[], regionId: string): LiveClimateObservation | undefined {
  return observations.find((o) => o.regionId === regionId);
}

describe('loadLiveClimate with every source answering', () => {
  it('returns LIVE observations, prices and provenance', async () => {
    const { fetch, requests } = fixtureFetch(routes());
    const result = await loadLiveClimate(testOptions(fetch, { fredApiKey: 'test-key' }), REGIONS, NOW, { priceSeries: SERIES });

    expect(result.dataQuality).toBe('LIVE');
    expect(result.failures).toEqual([]);
    // Figures as derived in the per-source tests: anomaly 0.975, drought 0.75, 3 fires, alerts 1/1/0/1.
    expect(observation(result.observations, 'us-corn-belt')).toEqual({
      regionId: 'us-corn-belt',
      observedAt: '2025-07-20T12:00:00.000Z',
      temperatureAnomalyC: expect.closeTo(0.975, 10),
      droughtIndex: expect.closeTo(0.75, 10),
      activeWildfires: 3,
      alerts: { flood: 1, storm: 1, drought: 0, other: 1 },
    });
    // Outside the US: no drought figure (the snapshot keeps it); the US fires are outside its box.
    expect(observation(result.observations, 'br-mato-grosso')).toEqual({
      regionId: 'br-mato-grosso',
      observedAt: '2025-07-20T12:00:00.000Z',
      temperatureAnomalyC: expect.closeTo(0.975, 10),
      activeWildfires: 0,
      alerts: { flood: 0, storm: 0, drought: 1, other: 0 },
    });
    expect(result.prices.WHEAT?.map((p) => p.price)).toEqual([232.4, 241.15, 226.9, 219.05, 214.7]);
    expect(result.provenance.map((p) => p.source).sort()).toEqual([
      'FRED series PWHEAMTUSDM',
      'GDACS event list',
      'NASA EONET v3',
      'Open-Meteo Historical Weather API (ECMWF ERA5)',
      'US Drought Monitor comprehensive statistics',
    ]);
    // One worldwide GDACS call, one USDM call (the US region only), one per price series.
    expect(requests.filter(host('www.gdacs.org'))).toHaveLength(1);
    expect(requests.filter(host('usdmdataservices.unl.edu'))).toHaveLength(1);
    expect(requests.filter(host('api.stlouisfed.org'))).toHaveLength(1);
    expect(hasLiveClimate(result)).toBe(true);
  });

  it('keeps the normals in the given cache and does not ask for them again', async () => {
    const climatology: ClimatologyCache = new Map();
    const first = fixtureFetch(routes());
    await loadLiveClimate(testOptions(first.fetch), [CORN_BELT], NOW, { climatology });
    const second = fixtureFetch(routes());
    const result = await loadLiveClimate(testOptions(second.fetch), [CORN_BELT], NOW, { climatology });

    const askedNormals = (url: URL) => url.searchParams.get('start_date') === '1991-01-01';
    expect(first.requests.filter(askedNormals)).toHaveLength(1);
    expect(second.requests.filter(askedNormals)).toHaveLength(0);
    expect(observation(result.observations, 'us-corn-belt')?.temperatureAnomalyC).toBeCloseTo(0.975, 10);
  });

  it('fetches no prices without a FRED key', async () => {
    const { fetch, requests } = fixtureFetch(routes());
    const result = await loadLiveClimate(testOptions(fetch), [CORN_BELT], NOW, { priceSeries: SERIES });
    expect(requests.filter(host('api.stlouisfed.org'))).toHaveLength(0);
    expect(result.prices).toEqual({});
    expect(result.dataQuality).toBe('LIVE');
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const served = fixtureFetch(routes());
    let inFlight = 0;
    let most = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      return served.fetch(input, init);
    };
    await loadLiveClimate(testOptions(fetch, { fredApiKey: 'k' }), REGIONS, NOW, { priceSeries: SERIES, concurrency: 2 });
    expect(served.requests.length).toBeGreaterThan(2);
    expect(most).toBe(2);
  });
});

describe('loadLiveClimate with failing sources', () => {
  it('is PARTIAL and lists the failure when GDACS answers 503, keeping the other values', async () => {
    const { fetch } = fixtureFetch(routes({ gdacs: { status: 503, body: 'Service Unavailable' } }));
    const result = await loadLiveClimate(testOptions(fetch), REGIONS, NOW);

    expect(result.dataQuality).toBe('PARTIAL');
    expect(result.failures).toEqual([{ source: 'gdacs', message: 'gdacs: HTTP 503 from www.gdacs.org/gdacsapi/api/events/geteventlist/SEARCH' }]);
    const cornBelt = observation(result.observations, 'us-corn-belt');
    expect(cornBelt).not.toHaveProperty('alerts');
    expect(cornBelt).toMatchObject({ activeWildfires: 3, droughtIndex: expect.closeTo(0.75, 10) });
    expect(hasLiveClimate(result)).toBe(true);
  });

  it('lists a timed-out source once per region it was asked for', async () => {
    const served = fixtureFetch(routes());
    const fetch: typeof globalThis.fetch = (input, init) => (String(input).includes('eonet.gsfc.nasa.gov') ? hangingFetch(input, init) : served.fetch(input, init));
    const result = await loadLiveClimate(testOptions(fetch, { timeoutMs: 30 }), REGIONS, NOW);

    expect(result.dataQuality).toBe('PARTIAL');
    expect(result.failures).toEqual([
      { source: 'eonet', regionId: 'us-corn-belt', message: 'eonet: no answer within 30 ms from eonet.gsfc.nasa.gov/api/v3/events' },
      { source: 'eonet', regionId: 'br-mato-grosso', message: 'eonet: no answer within 30 ms from eonet.gsfc.nasa.gov/api/v3/events' },
    ]);
    expect(observation(result.observations, 'us-corn-belt')).not.toHaveProperty('activeWildfires');
    expect(observation(result.observations, 'us-corn-belt')?.alerts).toEqual({ flood: 1, storm: 1, drought: 0, other: 1 });
  });

  it('reports a malformed body as a failure of that source only', async () => {
    const { fetch } = fixtureFetch(routes({ usdm: { body: '{"Message":"An error has occurred."}' } }));
    const result = await loadLiveClimate(testOptions(fetch), [CORN_BELT], NOW);
    expect(result.failures.map((f) => [f.source, f.regionId])).toEqual([['usdm', 'us-corn-belt']]);
    expect(observation(result.observations, 'us-corn-belt')).not.toHaveProperty('droughtIndex');
  });

  it('has no live climate at all when every source is down', async () => {
    const { fetch } = fixtureFetch([{ matches: () => true, status: 502, body: 'Bad Gateway' }]);
    const result = await loadLiveClimate(testOptions(fetch, { fredApiKey: 'k' }), REGIONS, NOW, { priceSeries: SERIES });

    expect(result.dataQuality).toBe('PARTIAL');
    // gdacs once; open-meteo, eonet for each region; usdm for the US region; fred once
    expect(result.failures.map((f) => f.source).sort()).toEqual(['eonet', 'eonet', 'fred', 'gdacs', 'open-meteo', 'open-meteo', 'usdm']);
    expect(result.observations.map((o) => Object.keys(o))).toEqual([
      ['regionId', 'observedAt'],
      ['regionId', 'observedAt'],
    ]);
    expect(hasLiveClimate(result)).toBe(false);
  });

  it('makes no request when live sources are disabled', async () => {
    const { fetch, requests } = fixtureFetch(routes());
    const result = await loadLiveClimate(testOptions(fetch, { enabled: false }), REGIONS, NOW);
    expect(requests).toEqual([]);
    expect(result).toEqual({ observations: [], prices: {}, failures: [], provenance: [], dataQuality: 'PARTIAL' });
  });
});

describe('mergeWithSnapshot', () => {
  const snapshot: RegionClimateObservation = {
    regionId: 'us-corn-belt',
    observedAt: '2025-06-30T00:00:00Z',
    temperatureAnomalyC: 0.4,
    droughtIndex: 1.2,
    activeWildfires: 1,
    alerts: { flood: 0, storm: 0, drought: 1, other: 0 },
  };

  it('lays live fields over the snapshot and keeps the rest', () => {
    const live = [{ regionId: 'us-corn-belt', observedAt: '2025-07-20T12:00:00.000Z', activeWildfires: 3 }];
    expect(mergeWithSnapshot(live, [snapshot])).toEqual([{ ...snapshot, observedAt: '2025-07-20T12:00:00.000Z', activeWildfires: 3 }]);
  });

  it('keeps a snapshot observation whole when nothing came live for it', () => {
    const live = [{ regionId: 'us-corn-belt', observedAt: '2025-07-20T12:00:00.000Z' }];
    expect(mergeWithSnapshot(live, [snapshot])).toEqual([snapshot]);
    expect(mergeWithSnapshot([], [snapshot])).toEqual([snapshot]);
  });
});

import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { createLogger } from '../../platform/log.js';
import { commodityAssessmentsOf } from './domain/assess-dataset.js';
import { withLiveInputs } from './domain/index.js';
import { latestSnapshotObservations, snapshotDataset } from './data/index.js';
import { createLiveSource, LIVE_FAILURE_WINDOW_MS, SNAPSHOT_AS_OF } from './data-source.js';
import { fixtureFetch, hangingFetch, readFixture, testOptions, type FixtureRoute } from './sources/testing/fixture-fetch.js';

const logger = createLogger({ logLevel: 'silent' });
const NOW = new Date('2025-07-20T12:00:00Z');
const host = (name: string) => (url: URL) => url.host === name;

/** Every live source answering from its recorded fixture. */
function answeringRoutes(): FixtureRoute[] {
  const normals = (url: URL) => host('archive-api.open-meteo.com')(url) && url.searchParams.get('start_date') === '1991-01-01';
  return [
    { matches: normals, body: readFixture('open-meteo', 'era5-normal-excerpt-1991-1992.json') },
    { matches: host('archive-api.open-meteo.com'), body: readFixture('open-meteo', 'era5-recent-2025-06-15_2025-07-14.json') },
    { matches: host('eonet.gsfc.nasa.gov'), body: readFixture('eonet', 'wildfires-open-corn-belt.json') },
    { matches: host('www.gdacs.org'), body: readFixture('gdacs', 'search-orange-red.json') },
    { matches: host('usdmdataservices.unl.edu'), body: readFixture('usdm', 'state-area-categorical-ia-il.json') },
  ];
}

/** A fetch whose behaviour the test switches, counting every request it is asked for. */
function switchableFetch(initial: typeof globalThis.fetch) {
  const state = { current: initial, requests: 0 };
  const fetch: typeof globalThis.fetch = (input, init) => {
    state.requests += 1;
    return state.current(input, init);
  };
  return { fetch, state };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof AppError)) throw outcome;
  return outcome;
}

describe('the assessment is computed once per dataset version', () => {
  it('shares one assessment between answers on the same version, and a new version gets its own, from its own data', () => {
    const first = commodityAssessmentsOf(snapshotDataset, SNAPSHOT_AS_OF);
    expect(commodityAssessmentsOf(snapshotDataset, SNAPSHOT_AS_OF)).toBe(first);
    // A live refresh is a new dataset object: hotter, drier observations for every region.
    const hotter = withLiveInputs(snapshotDataset, {
      observations: latestSnapshotObservations().map((observation) => ({
        ...observation,
        observedAt: new Date(Date.parse(observation.observedAt) + 86_400_000).toISOString(),
        temperatureAnomalyC: observation.temperatureAnomalyC + 3,
        droughtIndex: Math.min(1, observation.droughtIndex + 0.4),
      })),
    });
    const refreshed = commodityAssessmentsOf(hotter, new Date(SNAPSHOT_AS_OF.getTime() + 86_400_000));
    expect(refreshed).not.toBe(first);
    expect(refreshed.WHEAT.score).toBeGreaterThan(first.WHEAT.score);
  });
});

describe('live sources: single flight and a failure window', () => {
  it('has concurrent requests during a refresh share that one refresh', async () => {
    const once = fixtureFetch(answeringRoutes());
    await createLiveSource(testOptions(once.fetch), logger).load(NOW);
    const oneRefresh = once.requests.length;

    const { fetch, requests } = fixtureFetch(answeringRoutes());
    const source = createLiveSource(testOptions(fetch), logger);
    const loads = await Promise.all(Array.from({ length: 8 }, () => source.load(NOW)));
    expect(requests).toHaveLength(oneRefresh);
    for (const loaded of loads) expect(loaded.dataset).toBe(loads[0]?.dataset);
    expect(loads[0]?.evaluatedAt).toEqual(NOW);
  });

  it('answers an outage 503 at once within the window, without asking a source, then tries again after it', async () => {
    const { fetch, state } = switchableFetch(fixtureFetch([{ matches: () => true, status: 502, body: 'Bad Gateway' }]).fetch);
    const source = createLiveSource(testOptions(fetch), logger);

    const first = await rejection(source.load(NOW));
    expect(first.code).toBe('FCT_ERR_UPSTREAM_UNAVAILABLE');
    const askedFirstTime = state.requests;
    expect(askedFirstTime).toBeGreaterThan(0);

    // Within the window the sources would hang: the request is still refused, and none is asked.
    state.current = hangingFetch;
    const tenSecondsLater = new Date(NOW.getTime() + 10_000);
    const second = await rejection(source.load(tenSecondsLater));
    expect(second.code).toBe('FCT_ERR_UPSTREAM_UNAVAILABLE');
    expect(second.retryAfterSeconds).toBe((LIVE_FAILURE_WINDOW_MS - 10_000) / 1000);
    expect(state.requests).toBe(askedFirstTime);

    // After the window a refresh is tried again, and succeeds once the sources answer.
    state.current = fixtureFetch(answeringRoutes()).fetch;
    const loaded = await source.load(new Date(NOW.getTime() + LIVE_FAILURE_WINDOW_MS));
    expect(state.requests).toBeGreaterThan(askedFirstTime);
    expect(loaded.dataQuality).not.toBe('ESTIMATED');
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { createHttpServer } from '../../platform/http.js';
import { createLogger } from '../../platform/log.js';
import { fixtureFetch, unansweringFetch } from '../../platform/sources/testing/fixture-fetch.js';
import { createRuleBasedSynthesiser } from '../../platform/synthesis.js';
import { snapshotDataset } from './data/index.js';
import { createLiveSource, LIVE_FAILURE_WINDOW_MS, LIVE_REFRESH_MS, SNAPSHOT_AS_OF, SNAPSHOT_VERSION, snapshotSource } from './data-source.js';
import { forecastRoutes } from './routes.js';
import { createForecastService } from './service.js';
import { liveFixtureRoutes, testOptions } from './sources/testing.js';

const logger = createLogger({ logLevel: 'silent' });
const START = '2025-07-20T12:00:00.000Z';
const SECOND_MS = 1_000;

/** A fetch whose behaviour the test switches, counting every request it is asked for. */
function switchableFetch(initial: typeof globalThis.fetch) {
  const state = { current: initial, requests: 0 };
  const fetch: typeof globalThis.fetch = (input, init) => {
    state.requests += 1;
    return state.current(input, init);
  };
  return { fetch, state };
}

/** Holds every request until `open()`: a refresh stays in flight for as long as the test wants. */
function gatedFetch(inner: typeof globalThis.fetch) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    await gate;
    return inner(input, init);
  };
  return { fetch, open };
}

const everySourceDown = () => fixtureFetch([{ matches: () => true, status: 502, body: 'Bad Gateway' }]).fetch;

/** How many requests one refresh with every source answering makes. */
async function requestsOfOneRefresh(): Promise<number> {
  const { fetch, requests } = fixtureFetch(liveFixtureRoutes());
  await createLiveSource(testOptions(fetch), logger).load(new ManualClock(START));
  return requests.length;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof AppError)) throw outcome;
  return outcome;
}

describe('the snapshot source', () => {
  it('is one version, evaluated as of its own date, whatever the clock', async () => {
    const loads = [await snapshotSource.load(new ManualClock(START)), await snapshotSource.load(new ManualClock('2030-01-01T00:00:00Z'))];
    for (const loaded of loads) {
      expect(loaded).toMatchObject({ version: SNAPSHOT_VERSION, dataset: snapshotDataset, evaluatedAt: SNAPSHOT_AS_OF });
    }
  });
});

describe('live sources: one version per refresh, single flight', () => {
  it('has requests arriving during a refresh share that one refresh', async () => {
    const oneRefresh = await requestsOfOneRefresh();
    const fixtures = fixtureFetch(liveFixtureRoutes());
    const gated = gatedFetch(fixtures.fetch);
    const source = createLiveSource(testOptions(gated.fetch), logger);
    const clock = new ManualClock(START);

    const loads = Array.from({ length: 8 }, () => source.load(clock));
    gated.open();
    const loaded = await Promise.all(loads);

    expect(fixtures.requests).toHaveLength(oneRefresh);
    for (const load of loaded) expect(load).toBe(loaded[0]);
    expect(loaded[0]).toMatchObject({ version: 'live-1', evaluatedAt: new Date(START) });
  });

  it('serves a refresh for its period, then refreshes into a new version', async () => {
    const { fetch, requests } = fixtureFetch(liveFixtureRoutes());
    const source = createLiveSource(testOptions(fetch), logger);
    const clock = new ManualClock(START);
    const first = await source.load(clock);
    const asked = requests.length;

    clock.advance(LIVE_REFRESH_MS - 1);
    expect(await source.load(clock)).toBe(first);
    expect(requests).toHaveLength(asked);

    clock.advance(1);
    const second = await source.load(clock);
    expect(requests.length).toBeGreaterThan(asked);
    expect(second.version).not.toBe(first.version);
    expect(second.evaluatedAt).toEqual(clock.now());
  });
});

describe('live sources: a failure window after an outage', () => {
  it('answers 503 at once within the window with the seconds left, calls no source, and tries again after it', async () => {
    const clock = new ManualClock(START);
    const { fetch, state } = switchableFetch(everySourceDown());
    const service = createForecastService({ clock, synthesiser: createRuleBasedSynthesiser(clock), source: createLiveSource(testOptions(fetch), logger) });
    const app = createHttpServer({ logger });
    await app.register(forecastRoutes(service, { mcpHostnames: ['localhost'] }));
    const heatCheck = () => app.inject({ method: 'GET', url: '/forecast/heat-check' });

    const first = await heatCheck();
    expect(first.statusCode).toBe(503);
    expect(first.headers['retry-after']).toBe('60');
    const askedInTheOutage = state.requests;
    expect(askedInTheOutage).toBeGreaterThan(0);

    // Within the window a source asked would never answer: the request settles all the same.
    state.current = unansweringFetch;
    for (const [elapsedMs, retryAfter] of [
      [10 * SECOND_MS, '50'],
      [59.5 * SECOND_MS, '1'],
    ] as const) {
      clock.set(new Date(Date.parse(START) + elapsedMs));
      const refused = await app.inject({ method: 'GET', url: '/forecast/commodity/WHEAT' });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe(retryAfter);
      expect(refused.json()).toMatchObject({ code: 'FCT_ERR_UPSTREAM_UNAVAILABLE' });
    }
    expect(state.requests).toBe(askedInTheOutage);

    state.current = fixtureFetch(liveFixtureRoutes()).fetch;
    clock.set(new Date(Date.parse(START) + LIVE_FAILURE_WINDOW_MS));
    const recovered = await heatCheck();
    expect(recovered.statusCode).toBe(200);
    expect(recovered.json().dataQuality).not.toBe('ESTIMATED');
    expect(state.requests).toBeGreaterThan(askedInTheOutage);
    await app.close();
  });

  it('counts the window from the failure, not from the start of a refresh that outlasted it', async () => {
    const clock = new ManualClock(START);
    const down = everySourceDown();
    // Each source takes 5 s to fail: the refresh ends long after the window would have closed.
    const slowDown: typeof globalThis.fetch = async (input, init) => {
      clock.advance(5 * SECOND_MS);
      return down(input, init);
    };
    const { fetch, state } = switchableFetch(slowDown);
    const source = createLiveSource(testOptions(fetch), logger);

    await rejection(source.load(clock));
    expect(clock.now().getTime() - Date.parse(START)).toBeGreaterThan(LIVE_FAILURE_WINDOW_MS);
    const asked = state.requests;

    const refused = await rejection(source.load(clock));
    expect(refused.retryAfterSeconds).toBe(LIVE_FAILURE_WINDOW_MS / SECOND_MS);
    expect(state.requests).toBe(asked);
  });

  it('has requests arriving during a failing refresh share its 503', async () => {
    const { fetch, state } = switchableFetch(everySourceDown());
    const gated = gatedFetch(fetch);
    const source = createLiveSource(testOptions(gated.fetch), logger);
    const clock = new ManualClock(START);

    const loads = Array.from({ length: 4 }, () => rejection(source.load(clock)));
    gated.open();
    const refusals = await Promise.all(loads);
    const asked = state.requests;

    for (const refusal of refusals) expect(refusal).toMatchObject({ code: 'FCT_ERR_UPSTREAM_UNAVAILABLE', retryAfterSeconds: 60 });
    const { fetch: alone, state: aloneState } = switchableFetch(everySourceDown());
    await rejection(createLiveSource(testOptions(alone), logger).load(clock));
    expect(asked).toBe(aloneState.requests);
  });
});

import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { loadConfig } from '../../../platform/config.js';
import { fixtureFetch, hangingFetch, unansweringFetch } from '../../../platform/sources/testing/fixture-fetch.js';
import { snapshotSeries } from '../data/dataset.js';
import { createDatasetSource, INTELLIGENCE_USER_AGENT } from './dataset-source.js';
import { LIVE_SERIES } from './live-series.js';
import { intelligenceFixtureRoutes } from './testing.js';

const NOW = '2026-10-08T12:00:00.000Z';
const HOUR_MS = 3_600_000;
/** Three routed series of three publishers: FRED, the Pink Sheet and the GSCPI vintage. */
const ROUTES = { VIXCLS: LIVE_SERIES.VIXCLS!, wb_wheat_us_hrw_monthly: LIVE_SERIES.wb_wheat_us_hrw_monthly!, GSCPI: LIVE_SERIES.GSCPI! };

/** Deadline of the timeout tests; the others allow a cold worker's first exceljs workbook loads (a few hundred ms under a loaded test run). */
const SHORT_TIMEOUT = { INTELLIGENCE_LIVE_TIMEOUT_MS: '200' };

function source(options: { fetch?: typeof globalThis.fetch; environment?: Record<string, string> } = {}) {
  const config = loadConfig({ INTELLIGENCE_LIVE: 'true', FRED_API_KEY: 'test-key', INTELLIGENCE_REFRESH_SECONDS: '3600', INTELLIGENCE_LIVE_TIMEOUT_MS: '3000', ...options.environment });
  const clock = new ManualClock(NOW);
  const logger = { warn: vi.fn(), info: vi.fn() };
  const registry = new Registry();
  const fetch = options.fetch ?? fixtureFetch(intelligenceFixtureRoutes()).fetch;
  const calls: URL[] = [];
  const counted: typeof globalThis.fetch = (input, init) => {
    calls.push(new URL(String(input)));
    return fetch(input, init);
  };
  const dataset = createDatasetSource({ config, clock, logger, metrics: { registry }, fetch: counted, routes: ROUTES });
  return { dataset, clock, logger, registry, calls };
}

async function failureCount(registry: Registry, labels: Record<string, string>): Promise<number | undefined> {
  const metric = registry.getSingleMetric('intelligence_live_feed_failures_total');
  const { values } = (await metric?.get()) ?? { values: [] };
  return values.find((value) => Object.entries(labels).every(([name, label]) => value.labels[name] === label))?.value;
}

describe('createDatasetSource without INTELLIGENCE_LIVE', () => {
  it('is the shipped snapshot and asks no publisher', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const config = loadConfig({});
    const dataset = createDatasetSource({ config, clock: new ManualClock(NOW), logger: { warn: vi.fn(), info: vi.fn() }, fetch });
    expect((await dataset.current()).series).toBe(snapshotSeries());
    expect(config.intelligence.live).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('createDatasetSource with INTELLIGENCE_LIVE overlays the live series', () => {
  it('replaces each routed series with live: true, its own asOf and the snapshot provenance; others stay', async () => {
    const { dataset, calls } = source();
    const { series } = await dataset.current();
    const shipped = snapshotSeries();
    const vix = series.get('VIXCLS')!;
    const { observations: _live, live, asOf, ...provenance } = vix;
    const { observations: _shippedObservations, live: _shippedLive, asOf: _shippedAsOf, ...shippedProvenance } = shipped.get('VIXCLS')!;
    expect({ live, asOf }).toEqual({ live: true, asOf: '2026-10-06' });
    expect(provenance).toEqual(shippedProvenance);
    // The fixture repeats the snapshot's last three days: the spliced series is the shipped one, read live.
    expect(vix.observations).toEqual(shipped.get('VIXCLS')!.observations);
    expect(series.get('wb_wheat_us_hrw_monthly')).toMatchObject({ live: true, asOf: '2026-05-01' });
    expect(series.get('DGS10')).toBe(shipped.get('DGS10'));
    expect(new Set(calls.map((url) => url.host))).toEqual(new Set(['api.stlouisfed.org', 'thedocs.worldbank.org', 'www.newyorkfed.org']));
  });

  it('replaces the GSCPI whole with the vintage published (never spliced onto the shipped one)', async () => {
    const { dataset } = source();
    const gscpi = (await dataset.current()).series.get('GSCPI')!;
    // The fixture's vintage: 1998-01..04 and 2024-11..2025-02; the shipped series (2010 on) is gone.
    expect(gscpi.observations.map((o) => o.date)).toEqual(['1998-01-01', '1998-02-01', '1998-03-01', '1998-04-01', '2024-11-01', '2024-12-01', '2025-01-01', '2025-02-01']);
    expect(gscpi).toMatchObject({ live: true, asOf: '2025-02-01' });
  });

  it('keeps a shipped series whose feed fails, says live: false, logs the failure and counts it', async () => {
    const { dataset, logger, registry } = source({ fetch: fixtureFetch(intelligenceFixtureRoutes({ fred: { status: 500 } })).fetch });
    const { series } = await dataset.current();
    expect(series.get('VIXCLS')).toBe(snapshotSeries().get('VIXCLS'));
    expect(series.get('VIXCLS')!.live).toBe(false);
    expect(series.get('wb_wheat_us_hrw_monthly')!.live).toBe(true);
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ feed: 'fred', series: ['VIXCLS'], kind: 'http-status' }), expect.stringContaining('snapshot'));
    expect(await failureCount(registry, { feed: 'fred', kind: 'http-status' })).toBe(1);
  });

  it('sends its User-Agent with every request', async () => {
    const agents: Array<string | null> = [];
    const { fetch } = fixtureFetch(intelligenceFixtureRoutes());
    const { dataset } = source({
      fetch: (input, init) => {
        agents.push(new Headers(init?.headers).get('user-agent'));
        return fetch(input, init);
      },
    });
    await dataset.current();
    expect(new Set(agents)).toEqual(new Set([INTELLIGENCE_USER_AGENT]));
  });
});

describe('createDatasetSource refreshes at most once per interval, one refresh at a time', () => {
  it('serves one refresh until INTELLIGENCE_REFRESH_SECONDS have passed since it started', async () => {
    const { dataset, clock, calls } = source();
    await dataset.current();
    const perRefresh = calls.length;
    expect(perRefresh).toBe(3);
    clock.advance(HOUR_MS - 1);
    await dataset.current();
    expect(calls).toHaveLength(perRefresh);
    clock.advance(1);
    await dataset.current();
    expect(calls).toHaveLength(2 * perRefresh);
  });

  it('shares one refresh between concurrent calls', async () => {
    const { dataset, calls } = source();
    const answers = await Promise.all(Array.from({ length: 5 }, () => dataset.current()));
    expect(calls).toHaveLength(3);
    expect(new Set(answers).size).toBe(1);
  });

  it('does not retry a failed feed before the next interval', async () => {
    const { dataset, clock, calls } = source({ fetch: fixtureFetch(intelligenceFixtureRoutes({ fred: { status: 503 } })).fetch });
    await dataset.current();
    clock.advance(HOUR_MS / 2);
    await dataset.current();
    expect(calls.filter((url) => url.host === 'api.stlouisfed.org')).toHaveLength(1);
  });
});

describe('createDatasetSource is bounded by INTELLIGENCE_LIVE_TIMEOUT_MS', () => {
  it('times out a publisher that does not answer, and keeps its series from the snapshot', async () => {
    const { dataset, logger } = source({ fetch: hangingFetch, environment: SHORT_TIMEOUT });
    const { series } = await dataset.current();
    expect([...Object.keys(ROUTES)].map((id) => series.get(id)!.live)).toEqual([false, false, false]);
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ feed: 'fred', kind: 'timeout' }), expect.any(String));
  });

  it('answers from the data it holds when a refresh outlasts the timeout, and starts no second refresh meanwhile', async () => {
    // unansweringFetch ignores its abort signal: only the wait's own deadline can end the call.
    const { dataset, calls } = source({ fetch: unansweringFetch, environment: SHORT_TIMEOUT });
    const first = await dataset.current();
    expect(first.series).toBe(snapshotSeries());
    await dataset.current();
    expect(calls).toHaveLength(3);
  });
});

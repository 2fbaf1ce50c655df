import { Counter } from 'prom-client';
import type { Clock } from '../../../platform/clock.js';
import type { Config } from '../../../platform/config.js';
import type { Logger } from '../../../platform/log.js';
import type { Metrics } from '../../../platform/metrics.js';
import { DEFAULT_FEED_BASE_URLS, type FeedBaseUrls } from '../../../platform/sources/index.js';
import { snapshotSeries } from '../data/dataset.js';
import type { SeriesSet } from '../domain/index.js';
import type { IntelligenceDataset } from '../shared/signal-endpoint.js';
import type { DatasetSource } from '../shared/signal-service.js';
import { type LiveFeedOptions, type LiveLoad, loadLiveSeries } from './live-feeds.js';
import { LIVE_SERIES, type LiveRoute } from './live-series.js';
import { overlayLiveSeries, windowStart } from './overlay.js';

/** The User-Agent of the live intelligence requests (the Bank of England's database refuses requests without one). */
export const INTELLIGENCE_USER_AGENT = 'settlement-rail-graph intelligence live feeds';

export interface DatasetSourceDeps {
  config: Pick<Config, 'intelligence' | 'forecast'>;
  clock: Clock;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** When given, failures and refreshes are counted on its registry. */
  metrics?: Pick<Metrics, 'registry'>;
  /** The network; globalThis.fetch unless a test hands in its fixtures. */
  fetch?: typeof globalThis.fetch;
  /** The series to overlay; every shipped series that has a route unless a test narrows it. */
  routes?: Readonly<Record<string, LiveRoute>>;
}

/**
 * The dataset the signals compute over (decision 0067): the shipped snapshot, and with
 * INTELLIGENCE_LIVE the publishers' live series laid over it (docs/intelligence/live-feeds.md).
 */
export function createDatasetSource(deps?: DatasetSourceDeps): DatasetSource {
  if (deps === undefined || !deps.config.intelligence.live) return { current: async () => ({ series: snapshotSeries() }) };
  return createLiveDatasetSource(deps, snapshotSeries());
}

/**
 * Live series over `snapshot`:
 * 1. A refresh serves for INTELLIGENCE_REFRESH_SECONDS from its start; the next call after that starts the next one.
 * 2. Single flight: calls during a refresh share it; never two at once.
 * 3. A call waits for a refresh at most INTELLIGENCE_LIVE_TIMEOUT_MS (each request has that budget too), then is
 *    answered from the data already held (the previous refresh, or the snapshot) while the refresh completes.
 * 4. A series whose feed failed is the snapshot's (live: false); the failure is logged and counted.
 */
export function createLiveDatasetSource(deps: DatasetSourceDeps, snapshot: SeriesSet): DatasetSource {
  const { intelligence } = deps.config;
  const refreshMs = intelligence.refreshSeconds * 1000;
  const routes = Object.entries(deps.routes ?? LIVE_SERIES).filter(([id]) => snapshot.has(id));
  const counters = deps.metrics ? liveCounters(deps.metrics) : undefined;
  const options: LiveFeedOptions = { timeoutMs: intelligence.liveTimeoutMs, fetch: deps.fetch ?? globalThis.fetch, userAgent: INTELLIGENCE_USER_AGENT, baseUrls: baseUrlsOf(intelligence) };
  let held: { startedAtMs: number; dataset: IntelligenceDataset } | undefined;
  let inFlight: Promise<IntelligenceDataset> | undefined;

  async function refresh(): Promise<IntelligenceDataset> {
    const startedAt = deps.clock.now();
    try {
      const load = await loadLiveSeries(routes, { options, fredApiKey: deps.config.forecast.fredApiKey, since: (id) => windowStart(snapshot, id, startedAt) });
      report(load, routes.length, deps, counters);
      held = { startedAtMs: startedAt.getTime(), dataset: { series: overlayLiveSeries(snapshot, load.series, Object.fromEntries(routes)) } };
      return held.dataset;
    } finally {
      inFlight = undefined;
    }
  }

  return {
    async current() {
      const nowMs = deps.clock.now().getTime();
      if (held !== undefined && nowMs - held.startedAtMs < refreshMs) return held.dataset;
      inFlight ??= refresh();
      const fallback = held?.dataset ?? { series: snapshot };
      return withDeadline(inFlight, intelligence.liveTimeoutMs, fallback);
    },
  };
}

/** The configured publishers; the ones the intelligence does not read keep their defaults (the options type names every publisher). */
function baseUrlsOf(intelligence: Config['intelligence']): FeedBaseUrls {
  return {
    ...DEFAULT_FEED_BASE_URLS,
    fred: intelligence.fredUrl,
    worldbankPinkSheet: intelligence.pinkSheetUrl,
    noaaGmlCo2: intelligence.noaaGmlCo2Url,
    gistemp: intelligence.gistempUrl,
    nyfedGscpi: intelligence.gscpiUrl,
    ecb: intelligence.ecbUrl,
    boe: intelligence.boeUrl,
  };
}

/** The refresh's dataset, or `fallback` once `timeoutMs` has passed without it (the refresh goes on). */
async function withDeadline(refresh: Promise<IntelligenceDataset>, timeoutMs: number, fallback: IntelligenceDataset): Promise<IntelligenceDataset> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<IntelligenceDataset>((resolve) => {
    timer = setTimeout(() => resolve(fallback), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([refresh.catch(() => fallback), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

interface LiveCounters {
  failures: Counter<'feed' | 'kind'>;
  refreshes: Counter<'outcome'>;
}

function liveCounters(metrics: Pick<Metrics, 'registry'>): LiveCounters {
  const existing = (name: string) => metrics.registry.getSingleMetric(name);
  const failures =
    (existing('intelligence_live_feed_failures_total') as Counter<'feed' | 'kind'> | undefined) ??
    new Counter({
      name: 'intelligence_live_feed_failures_total',
      help: 'Live intelligence feed requests that failed (the snapshot series was used), by feed and kind',
      labelNames: ['feed', 'kind'],
      registers: [metrics.registry],
    });
  const refreshes =
    (existing('intelligence_live_refreshes_total') as Counter<'outcome'> | undefined) ??
    new Counter({
      name: 'intelligence_live_refreshes_total',
      help: 'Live intelligence refreshes, by outcome: live (every series), partial, snapshot (none)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  return { failures, refreshes };
}

function report(load: LiveLoad, routed: number, deps: Pick<DatasetSourceDeps, 'logger'>, counters: LiveCounters | undefined): void {
  for (const failure of load.failures) {
    deps.logger.warn({ feed: failure.feed, series: failure.ids, kind: failure.kind, reason: failure.reason }, 'intelligence live feed failed: the snapshot series is used');
    counters?.failures.inc({ feed: failure.feed, kind: failure.kind });
  }
  const outcome = load.series.size === routed ? 'live' : load.series.size === 0 ? 'snapshot' : 'partial';
  counters?.refreshes.inc({ outcome });
  deps.logger.info({ live: load.series.size, fallback: routed - load.series.size, outcome }, 'intelligence live refresh');
}

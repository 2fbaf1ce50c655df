import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/log.js';
import { latestSnapshotObservations, SNAPSHOT_DATA_QUALITY, snapshotDataset } from './data/index.js';
import type { ForecastDataSource, VersionedLoad } from './dataset-load.js';
import type { CommoditySymbol } from './domain/index.js';
import type { RegionProfile } from './domain/index.js';
import { withLiveInputs } from './domain/index.js';
import { type ClimatologyCache, hasLiveClimate, LIVE_SOURCE_RETRY_AFTER_SECONDS, type LiveRegionSpec, type LiveSourceOptions, loadLiveClimate, mergeWithSnapshot } from './sources/index.js';

/** The newest observation of the shipped snapshot: the date its figures describe. */
export const SNAPSHOT_AS_OF = new Date(Math.max(...latestSnapshotObservations().map((observation) => Date.parse(observation.observedAt))));

/** The shipped snapshot never changes: it is one dataset version for the life of the process. */
export const SNAPSHOT_VERSION = 'snapshot';

const snapshotLoad: VersionedLoad = {
  version: SNAPSHOT_VERSION,
  dataset: snapshotDataset,
  dataQuality: SNAPSHOT_DATA_QUALITY,
  evaluatedAt: SNAPSHOT_AS_OF,
};

/**
 * The shipped snapshot: real published values, marked ESTIMATED because they are not live, and
 * evaluated as of its own date (decision 0103): a model run today on data two years old would
 * read every commodity UNCERTAIN with confidence 0 and say nothing.
 */
export const snapshotSource: ForecastDataSource = {
  load: async () => snapshotLoad,
};

function toLiveRegionSpec(region: RegionProfile): LiveRegionSpec {
  return {
    id: region.id,
    bbox: [...region.boundingBox] as LiveRegionSpec['bbox'],
    points: region.representativePoints.map(({ lat, lon }) => ({ lat, lon })),
    ...(region.usdmStateFips ? { usdmArea: { type: 'state' as const, fips: [...region.usdmStateFips] } } : {}),
  };
}

/** How long one successful live refresh serves every request. */
export const LIVE_REFRESH_MS = 15 * 60 * 1000;
/** After a refresh that found no live value, requests are answered 503 at once for this long. */
export const LIVE_FAILURE_WINDOW_MS = LIVE_SOURCE_RETRY_AFTER_SECONDS * 1000;

type LiveRefresh = (now: Date) => Promise<Omit<VersionedLoad, 'version'>>;

/**
 * Live climate over the snapshot (decisions 0102, 0104): each successful refresh is a new dataset
 * version, evaluated as of the refresh and served for LIVE_REFRESH_MS. When some sources failed,
 * their values come from the snapshot and dataQuality is PARTIAL.
 */
export function createLiveSource(options: LiveSourceOptions, logger: Logger): ForecastDataSource {
  return sharedRefreshes(liveRefresh(options, logger));
}

/** One load of every live source laid over the snapshot; 503 when not one climate value came live. */
function liveRefresh(options: LiveSourceOptions, logger: Logger): LiveRefresh {
  const regions = snapshotDataset.regions.map(toLiveRegionSpec);
  const priceSeries = Object.fromEntries(Object.entries(snapshotDataset.commodities).map(([symbol, profile]) => [symbol, profile.benchmark.seriesId]));
  const climatology: ClimatologyCache = new Map();
  return async (now) => {
    const live = await loadLiveClimate(options, regions, now, { priceSeries, climatology });
    for (const failure of live.failures) logger.warn({ failure }, 'live climate source failed');
    if (!hasLiveClimate(live)) throw upstreamUnavailable(LIVE_SOURCE_RETRY_AFTER_SECONDS);
    const dataset = withLiveInputs(snapshotDataset, {
      observations: mergeWithSnapshot(live.observations, latestSnapshotObservations()),
      prices: live.prices as Partial<Record<CommoditySymbol, (typeof live.prices)[string]>>,
      sources: live.provenance,
    });
    return { dataset, dataQuality: live.dataQuality, evaluatedAt: now };
  };
}

/**
 * Refreshes shared between requests:
 * 1. A successful refresh is served for LIVE_REFRESH_MS from its start.
 * 2. Single flight: requests arriving during a refresh wait for that one; never two at once.
 * 3. After a refresh fails upstream, every request gets the same 503 at once for
 *    LIVE_FAILURE_WINDOW_MS from the failure, with Retry-After the seconds left, and no source is
 *    called: without it each request would wait out every source's timeout again. The window
 *    counts from the failure, not the start, because a refresh of timing-out sources can outlast it.
 */
function sharedRefreshes(refresh: LiveRefresh): ForecastDataSource {
  let latest: { startedAtMs: number; load: VersionedLoad } | undefined;
  let failedAtMs: number | undefined;
  let inFlight: Promise<VersionedLoad> | undefined;
  let refreshCount = 0;

  async function refreshOnce(clock: Clock): Promise<VersionedLoad> {
    const startedAt = clock.now();
    try {
      const loaded = await refresh(startedAt);
      refreshCount += 1;
      latest = { startedAtMs: startedAt.getTime(), load: { version: `live-${refreshCount}`, ...loaded } };
      failedAtMs = undefined;
      return latest.load;
    } catch (error) {
      if (isUpstreamUnavailable(error)) failedAtMs = clock.now().getTime();
      throw error;
    } finally {
      inFlight = undefined;
    }
  }

  return {
    async load(clock) {
      const nowMs = clock.now().getTime();
      if (latest !== undefined && nowMs - latest.startedAtMs < LIVE_REFRESH_MS) return latest.load;
      if (failedAtMs !== undefined && nowMs - failedAtMs < LIVE_FAILURE_WINDOW_MS) {
        throw upstreamUnavailable(secondsUntil(failedAtMs + LIVE_FAILURE_WINDOW_MS, nowMs));
      }
      inFlight ??= refreshOnce(clock);
      return inFlight;
    },
  };
}

/** At least 1: a Retry-After of 0 would invite the caller straight back into the window. */
function secondsUntil(endMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((endMs - nowMs) / 1000));
}

function upstreamUnavailable(retryAfterSeconds: number): AppError {
  return new AppError('FCT_ERR_UPSTREAM_UNAVAILABLE', { retryAfterSeconds });
}

function isUpstreamUnavailable(error: unknown): boolean {
  return error instanceof AppError && error.code === 'FCT_ERR_UPSTREAM_UNAVAILABLE';
}

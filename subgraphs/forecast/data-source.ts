import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/log.js';
import { withLiveInputs, type ForecastDataset } from './domain/index.js';
import type { CommoditySymbol, DataQuality } from './domain/types.js';
import type { RegionProfile } from './domain/index.js';
import { latestSnapshotObservations, SNAPSHOT_DATA_QUALITY, snapshotDataset } from './data/index.js';
import type { ForecastDataSource } from './service.js';
import {
  hasLiveClimate,
  LIVE_SOURCE_RETRY_AFTER_SECONDS,
  loadLiveClimate,
  mergeWithSnapshot,
  type ClimatologyCache,
  type LiveRegionSpec,
  type LiveSourceOptions,
} from './sources/index.js';

/** The newest observation of the shipped snapshot: the date its figures describe. */
export const SNAPSHOT_AS_OF = new Date(Math.max(...latestSnapshotObservations().map((observation) => Date.parse(observation.observedAt))));

/**
 * The shipped snapshot: real published values, marked ESTIMATED because they are not live, and
 * evaluated as of its own date (decision 0103): a model run today on data two years old would
 * read every commodity UNCERTAIN with confidence 0 and say nothing.
 */
export const snapshotSource: ForecastDataSource = {
  load: async () => ({ dataset: snapshotDataset, dataQuality: SNAPSHOT_DATA_QUALITY, evaluatedAt: SNAPSHOT_AS_OF }),
};

function toLiveRegionSpec(region: RegionProfile): LiveRegionSpec {
  return {
    id: region.id,
    bbox: [...region.boundingBox] as LiveRegionSpec['bbox'],
    points: region.representativePoints.map(({ lat, lon }) => ({ lat, lon })),
    ...(region.usdmStateFips ? { usdmArea: { type: 'state' as const, fips: [...region.usdmStateFips] } } : {}),
  };
}

const LIVE_REFRESH_MS = 15 * 60 * 1000;
/** After a refresh that found no live value, requests are answered 503 at once for this long. */
export const LIVE_FAILURE_WINDOW_MS = LIVE_SOURCE_RETRY_AFTER_SECONDS * 1000;

type LoadedLive = { dataset: ForecastDataset; dataQuality: DataQuality; evaluatedAt: Date };

/**
 * Live climate over the snapshot (decisions 0102, 0104). A load is shared by every request for 15
 * minutes: one dataset version, evaluated as of its refresh, so its assessment is computed once.
 * 1. Single flight: requests arriving during a refresh wait for that refresh; never two at once.
 * 2. When no live value at all could be had, the request fails with 503; for the next 60 s every
 *    request gets the same 503 at once (Retry-After: the seconds left), without calling a source,
 *    instead of waiting out every source's timeout again.
 * 3. When some sources failed, their values come from the snapshot and dataQuality is PARTIAL.
 */
export function createLiveSource(options: LiveSourceOptions, logger: Logger): ForecastDataSource {
  const regions = snapshotDataset.regions.map(toLiveRegionSpec);
  const priceSeries = Object.fromEntries(
    Object.entries(snapshotDataset.commodities).map(([symbol, profile]) => [symbol, profile.benchmark.seriesId]),
  );
  const climatology: ClimatologyCache = new Map();
  let cached: { at: number; value: LoadedLive } | undefined;
  let failedAt: number | undefined;
  let inFlight: Promise<LoadedLive> | undefined;

  async function refresh(now: Date): Promise<LoadedLive> {
    const live = await loadLiveClimate(options, regions, now, { priceSeries, climatology });
    for (const failure of live.failures) logger.warn({ failure }, 'live climate source failed');
    if (!hasLiveClimate(live)) {
      throw new AppError('FCT_ERR_UPSTREAM_UNAVAILABLE', { retryAfterSeconds: LIVE_SOURCE_RETRY_AFTER_SECONDS });
    }
    const dataset = withLiveInputs(snapshotDataset, {
      observations: mergeWithSnapshot(live.observations, latestSnapshotObservations()),
      prices: live.prices as Partial<Record<CommoditySymbol, (typeof live.prices)[string]>>,
      sources: live.provenance,
    });
    return { dataset, dataQuality: live.dataQuality, evaluatedAt: now };
  }

  function startRefresh(now: Date): Promise<LoadedLive> {
    inFlight ??= refresh(now)
      .then((value) => {
        cached = { at: now.getTime(), value };
        failedAt = undefined;
        return value;
      })
      .catch((error: unknown) => {
        failedAt = now.getTime();
        throw error;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  return {
    async load(now) {
      const nowMs = now.getTime();
      if (cached && nowMs - cached.at < LIVE_REFRESH_MS) return cached.value;
      if (failedAt !== undefined && nowMs - failedAt < LIVE_FAILURE_WINDOW_MS) {
        const secondsLeft = Math.max(1, Math.ceil((failedAt + LIVE_FAILURE_WINDOW_MS - nowMs) / 1000));
        throw new AppError('FCT_ERR_UPSTREAM_UNAVAILABLE', { retryAfterSeconds: secondsLeft });
      }
      return startRefresh(now);
    },
  };
}

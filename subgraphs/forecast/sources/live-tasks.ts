// One task per source and region: fetch, parse, map, and a failure record instead of a throw.

import {
  type AlertCounts,
  type ClimatologyCache,
  type DailyNormals,
  type FeedId,
  fetchEonetWildfires,
  fetchFredObservations,
  fetchGdacsAlerts,
  fetchOpenMeteoDaily,
  fetchUsdmStateAreas,
  isoDay,
  mapActiveWildfires,
  mapDailyNormals,
  mapDroughtIndex,
  mapRegionAlerts,
  mapTemperatureAnomaly,
  NORMAL_PERIOD,
  parseEonetEvents,
  parseFredObservations,
  parseGdacsEvents,
  parseOpenMeteoDaily,
  parseUsdmRows,
  pointKey,
  publicUrl,
  recentWindow,
  SourceUnavailableError,
} from '../../../platform/sources/index.js';
import type { PricePoint, Provenance, RegionClimateObservation } from '../domain/index.js';
import { type LiveRegionSpec, type LiveSourceOptions, MAX_POINTS_PER_REGION } from './options.js';
import { mapPricePoints, priceHistoryStart } from './prices.js';

export interface LiveFailure {
  source: FeedId;
  message: string;
  /** The region concerned; absent when a worldwide request or a price series failed. */
  regionId?: string;
}

export type ClimateValues = Partial<Pick<RegionClimateObservation, 'temperatureAnomalyC' | 'droughtIndex' | 'activeWildfires' | 'alerts'>>;

export type TaskOutcome =
  | { kind: 'climate'; regionId: string; values: ClimateValues; provenance: Provenance }
  | { kind: 'alerts'; byRegion: ReadonlyMap<string, AlertCounts>; provenance: Provenance }
  | { kind: 'prices'; key: string; points: PricePoint[]; provenance: Provenance }
  | { kind: 'failure'; failure: LiveFailure };

export type LiveTask = () => Promise<TaskOutcome>;

/** Source errors become failure records; anything else is a bug and propagates. */
async function settle(source: FeedId, regionId: string | undefined, run: LiveTask): Promise<TaskOutcome> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof SourceUnavailableError)) throw error;
    return failure(source, regionId, error.message);
  }
}

function failure(source: FeedId, regionId: string | undefined, message: string): TaskOutcome {
  return { kind: 'failure', failure: regionId === undefined ? { source, message } : { source, message, regionId } };
}

export function temperatureTask(options: LiveSourceOptions, region: LiveRegionSpec, now: Date, cache: ClimatologyCache): LiveTask {
  return () =>
    settle('open-meteo', region.id, async () => {
      const points = region.points.slice(0, MAX_POINTS_PER_REGION);
      const normals = await loadNormals(options, points, cache);
      const window = recentWindow(now);
      const recent = parseOpenMeteoDaily(await fetchOpenMeteoDaily(options, points, window));
      if (recent.length !== points.length) throw countMismatch(points.length, recent.length);
      const anomaly = mapTemperatureAnomaly(recent, normals);
      if (anomaly === undefined) return failure('open-meteo', region.id, 'no point has enough valid days');
      const provenance = { ...OPEN_METEO, url: publicUrl(options.baseUrls.openMeteoArchive), asOf: window.end };
      return { kind: 'climate', regionId: region.id, values: { temperatureAnomalyC: anomaly }, provenance };
    });
}

/** Normals of the points, fetching (one request) only those not yet in the cache. */
async function loadNormals(options: LiveSourceOptions, points: LiveRegionSpec['points'], cache: ClimatologyCache): Promise<DailyNormals[]> {
  const missing = points.filter((p) => !cache.has(pointKey(p)));
  if (missing.length > 0) {
    const locations = parseOpenMeteoDaily(await fetchOpenMeteoDaily(options, missing, NORMAL_PERIOD));
    if (locations.length !== missing.length) throw countMismatch(missing.length, locations.length);
    locations.forEach((location, i) => {
      const point = missing[i];
      if (point) cache.set(pointKey(point), mapDailyNormals(location));
    });
  }
  return points.map((p) => cache.get(pointKey(p)) ?? new Map<string, number>());
}

function countMismatch(asked: number, got: number): SourceUnavailableError {
  return new SourceUnavailableError('open-meteo', 'malformed-body', `asked for ${asked} locations, got ${got}`);
}

export function wildfireTask(options: LiveSourceOptions, region: LiveRegionSpec, now: Date): LiveTask {
  return () =>
    settle('eonet', region.id, async () => {
      const events = parseEonetEvents(await fetchEonetWildfires(options, region.bbox));
      const provenance = { ...EONET, url: publicUrl(options.baseUrls.eonet, '/events'), asOf: now.toISOString() };
      const values = { activeWildfires: mapActiveWildfires(events, region.bbox) };
      return { kind: 'climate', regionId: region.id, values, provenance };
    });
}

export function droughtTask(options: LiveSourceOptions, region: LiveRegionSpec, fips: string[], now: Date): LiveTask {
  return () =>
    settle('usdm', region.id, async () => {
      const drought = mapDroughtIndex(parseUsdmRows(await fetchUsdmStateAreas(options, fips, now)));
      if (drought === undefined) return failure('usdm', region.id, 'no categorical map in the last two weeks');
      const provenance = { ...USDM, url: publicUrl(options.baseUrls.usdm), asOf: drought.mapDate };
      return { kind: 'climate', regionId: region.id, values: { droughtIndex: drought.droughtIndex }, provenance };
    });
}

export function alertsTask(options: LiveSourceOptions, regions: readonly LiveRegionSpec[], now: Date): LiveTask {
  return () =>
    settle('gdacs', undefined, async () => {
      const features = parseGdacsEvents(await fetchGdacsAlerts(options, now));
      const byRegion = new Map(regions.map((r) => [r.id, mapRegionAlerts(features, r.bbox)]));
      const provenance = { ...GDACS, url: publicUrl(options.baseUrls.gdacs), asOf: now.toISOString() };
      return { kind: 'alerts', byRegion, provenance };
    });
}

export function priceTask(options: LiveSourceOptions, apiKey: string, key: string, seriesId: string, now: Date): LiveTask {
  return () =>
    settle('fred', undefined, async () => {
      const { observations } = parseFredObservations(await fetchFredObservations(options, apiKey, seriesId, priceHistoryStart(now)));
      const points = mapPricePoints(observations);
      const asOf = points.at(-1)?.date ?? isoDay(now);
      const provenance = { source: `FRED series ${seriesId}`, url: `https://fred.stlouisfed.org/series/${seriesId}`, asOf };
      return { kind: 'prices', key, points, provenance };
    });
}

const OPEN_METEO = {
  source: 'Open-Meteo Historical Weather API (ECMWF ERA5)',
  derivation: 'mean over the region points of the 30-day mean daily 2 m temperature minus the 1991-2020 mean for the same calendar days',
};

const EONET = {
  source: 'NASA EONET v3',
  derivation: 'open events of category wildfires whose latest position lies in the region bounding box',
};

const GDACS = {
  source: 'GDACS event list',
  derivation: 'current Orange and Red alerts touching the region bounding box: FL flood, TC storm, DR drought, other types other',
};

const USDM = {
  source: 'US Drought Monitor comprehensive statistics',
  derivation: 'sum over D0..D4 of percent of area x (class + 1) / 100, categorical areas of the region states summed',
};

// Assembles the live climate inputs of many regions from all adapters, tolerating per-source failures.

import type { ClimatologyCache } from '../../../platform/sources/index.js';
import type { PricePoint, Provenance, RegionClimateObservation } from '../domain/index.js';
import { mapBounded } from './concurrency.js';
import { alertsTask, type ClimateValues, droughtTask, type LiveFailure, type LiveTask, priceTask, type TaskOutcome, temperatureTask, wildfireTask } from './live-tasks.js';
import { FORECAST_USER_AGENT, type LiveRegionSpec, type LiveSourceOptions } from './options.js';

export type { ClimatologyCache } from '../../../platform/sources/index.js';
export type { LiveFailure } from './live-tasks.js';

/** What the live sources said about one region; a missing field is for the snapshot to fill. */
export type LiveClimateObservation = Pick<RegionClimateObservation, 'regionId' | 'observedAt'> & ClimateValues;

export interface LiveClimate {
  observations: LiveClimateObservation[];
  /** Price series by the caller's key (e.g. commodity symbol). */
  prices: Record<string, PricePoint[]>;
  failures: LiveFailure[];
  /** One entry per source (and per price series) that answered. */
  provenance: Provenance[];
  /** PARTIAL when any request failed or live sources are disabled. */
  dataQuality: 'LIVE' | 'PARTIAL';
}

export interface LiveLoadExtras {
  /** Caller's key to FRED series id, e.g. { WHEAT: 'PWHEAMTUSDM' }; prices need options.fredApiKey too. */
  priceSeries?: Readonly<Record<string, string>>;
  /** Keeps 1991-2020 normals across calls; pass one long-lived map, or each call refetches them. */
  climatology?: ClimatologyCache;
  /** Requests in flight at once; DEFAULT_CONCURRENCY when absent. */
  concurrency?: number;
}

export const DEFAULT_CONCURRENCY = 4;

const CLIMATE_FIELDS = ['temperatureAnomalyC', 'droughtIndex', 'activeWildfires', 'alerts'] as const;

/**
 * Fetches every source for every region, at most `concurrency` requests at a time. A failed
 * source leaves its fields out for that region and is listed in failures; other values stay.
 * Makes no request when options.enabled is false.
 */
export async function loadLiveClimate(options: LiveSourceOptions, regions: readonly LiveRegionSpec[], now: Date, extras: LiveLoadExtras = {}): Promise<LiveClimate> {
  if (!options.enabled) return assemble([], now, []);
  const tasks = buildTasks({ userAgent: FORECAST_USER_AGENT, ...options }, regions, now, extras);
  const outcomes = await mapBounded(tasks, extras.concurrency ?? DEFAULT_CONCURRENCY, (task) => task());
  return assemble(regions, now, outcomes);
}

/** False when not one climate figure came live: the HTTP layer then answers 503. */
export function hasLiveClimate(result: LiveClimate): boolean {
  return result.observations.some(hasLiveValue);
}

export function hasLiveValue(observation: LiveClimateObservation): boolean {
  return CLIMATE_FIELDS.some((field) => observation[field] !== undefined);
}

function buildTasks(options: LiveSourceOptions, regions: readonly LiveRegionSpec[], now: Date, extras: LiveLoadExtras): LiveTask[] {
  const cache: ClimatologyCache = extras.climatology ?? new Map();
  const perRegion = regions.flatMap((region) => [
    ...(region.points.length > 0 ? [temperatureTask(options, region, now, cache)] : []),
    wildfireTask(options, region, now),
    ...(region.usdmArea ? [droughtTask(options, region, region.usdmArea.fips, now)] : []),
  ]);
  const alerts = regions.length > 0 ? [alertsTask(options, regions, now)] : [];
  return [...alerts, ...perRegion, ...priceTasks(options, extras.priceSeries, now)];
}

function priceTasks(options: LiveSourceOptions, series: Readonly<Record<string, string>> | undefined, now: Date): LiveTask[] {
  const apiKey = options.fredApiKey;
  if (apiKey === undefined || apiKey === '' || series === undefined) return [];
  return Object.entries(series).map(([key, id]) => priceTask(options, apiKey, key, id, now));
}

function assemble(regions: readonly LiveRegionSpec[], now: Date, outcomes: readonly TaskOutcome[]): LiveClimate {
  const values = new Map<string, ClimateValues>(regions.map((r) => [r.id, {}]));
  const result: LiveClimate = { observations: [], prices: {}, failures: [], provenance: [], dataQuality: 'LIVE' };
  for (const outcome of outcomes) applyOutcome(outcome, values, result);
  const observedAt = now.toISOString();
  result.observations = [...values].map(([regionId, v]) => ({ regionId, observedAt, ...v }));
  const complete = regions.length > 0 && result.failures.length === 0;
  result.dataQuality = complete ? 'LIVE' : 'PARTIAL';
  return result;
}

function applyOutcome(outcome: TaskOutcome, values: Map<string, ClimateValues>, result: LiveClimate): void {
  switch (outcome.kind) {
    case 'failure':
      result.failures.push(outcome.failure);
      return;
    case 'climate':
      values.set(outcome.regionId, { ...values.get(outcome.regionId), ...outcome.values });
      break;
    case 'alerts':
      for (const [regionId, alerts] of outcome.byRegion) values.set(regionId, { ...values.get(regionId), alerts });
      break;
    case 'prices':
      result.prices[outcome.key] = outcome.points;
      break;
    default:
      return unreachable(outcome);
  }
  addProvenance(result.provenance, outcome.provenance);
}

/** Keeps the first answer of each source (task order is fixed, so this is deterministic). */
function addProvenance(list: Provenance[], entry: Provenance): void {
  if (!list.some((p) => p.source === entry.source && p.url === entry.url)) list.push(entry);
}

function unreachable(value: never): never {
  throw new Error(`unhandled live task outcome: ${JSON.stringify(value)}`);
}

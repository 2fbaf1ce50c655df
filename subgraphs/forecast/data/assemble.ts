// Parses the five data files, checks them against each other and builds the ForecastDataset.

import type { z } from 'zod';
import type { CalendarMonth, CommodityProfile, ForecastDataset, ModelParameters, RegionProfile, Scenario } from '../domain/index.js';
import type { CommoditySymbol, Provenance, RegionClimateObservation, ScenarioId } from '../domain/index.js';
import { findInconsistencies } from './consistency.js';
import { benchmarkPrices } from './prices.js';
import {
  calendarFileSchema,
  type CommoditiesFile,
  commoditiesFileSchema,
  parametersFileSchema,
  type ParsedForecastFiles,
  type RegionsFile,
  regionsFileSchema,
  type ScenariosFile,
  scenariosFileSchema,
} from './schemas.js';
import type { ShippedSeries } from './series.js';

/** The JSON of each file, as imported, and the shipped price series, as read through the feed layer. */
export interface RawForecastFiles {
  commodities: unknown;
  regions: unknown;
  parameters: unknown;
  scenarios: unknown;
  calendar: unknown;
  series: ReadonlyMap<string, ShippedSeries>;
}

/** Fewer monthly prices than this cannot fill the drawdown's 24-month lookback. */
const MIN_PRICES = 25;

export class ForecastDataError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ForecastDataError';
  }
}

/** Throws ForecastDataError naming the file and every problem found. */
export function parseForecastFiles(raw: RawForecastFiles): ForecastDataset {
  const files: ParsedForecastFiles = {
    commodities: parseFile(commoditiesFileSchema, raw.commodities, 'commodities.json'),
    regions: parseFile(regionsFileSchema, raw.regions, 'regions.json'),
    parameters: parseFile(parametersFileSchema, raw.parameters, 'model-parameters.json'),
    scenarios: parseFile(scenariosFileSchema, raw.scenarios, 'scenarios.json'),
    calendar: parseFile(calendarFileSchema, raw.calendar, 'calendar.json'),
  };
  const problems = [...findInconsistencies(files), ...priceSeriesProblems(files.commodities, raw.series)];
  if (problems.length > 0) {
    throw new ForecastDataError(`forecast data files are inconsistent:\n- ${problems.join('\n- ')}`);
  }
  return buildDataset(files, raw.series);
}

function parseFile<S extends z.ZodType>(schema: S, value: unknown, file: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new ForecastDataError(`forecast data file ${file} is malformed:\n- ${issues.join('\n- ')}`, { cause: result.error });
}

function priceSeriesProblems(file: CommoditiesFile, series: RawForecastFiles['series']): string[] {
  return file.commodities.flatMap(({ symbol, priceSeries }) => {
    const shipped = series.get(priceSeries.seriesId);
    if (shipped === undefined) return [`${symbol}: price series ${priceSeries.seriesId} is not in data/series/sources.json`];
    const count = benchmarkPrices(priceSeries, shipped).prices.length;
    return count < MIN_PRICES ? [`${symbol}: ${count} monthly prices from ${priceSeries.from}, at least ${MIN_PRICES} needed`] : [];
  });
}

function buildDataset(files: ParsedForecastFiles, series: RawForecastFiles['series']): ForecastDataset {
  const { provenance: _parameterProvenance, ...parameters } = files.parameters;
  const commodities = commoditiesOf(files.commodities, series);
  return {
    commodities,
    regions: files.regions.regions.map(regionProfileOf),
    observations: files.regions.regions.flatMap((r) => r.observations.map((o): RegionClimateObservation => ({ regionId: r.id, ...o }))),
    parameters: parameters satisfies ModelParameters,
    scenarios: scenariosOf(files.scenarios),
    calendar: [...files.calendar.months].sort((a, b) => a.month - b.month) satisfies CalendarMonth[],
    sources: sourcesOf(files, Object.values(commodities)),
  };
}

/** Each commodity with its prices and their provenance built from its series (checked present above). */
function commoditiesOf(file: CommoditiesFile, series: RawForecastFiles['series']): Record<CommoditySymbol, CommodityProfile> {
  const profiles = file.commodities.map(({ priceSeries, ...commodity }): CommodityProfile => {
    const { prices, provenance } = benchmarkPrices(priceSeries, series.get(priceSeries.seriesId)!);
    return { ...commodity, prices, priceProvenance: provenance };
  });
  return recordBy<CommoditySymbol, CommodityProfile>(profiles, (c) => c.symbol);
}

function regionProfileOf(region: RegionsFile['regions'][number]): RegionProfile {
  const { observations: _observations, derivation: _derivation, ...profile } = region;
  return profile;
}

function scenariosOf(file: ScenariosFile): Record<ScenarioId, Scenario> {
  return recordBy<ScenarioId, Scenario>(file.scenarios, (s) => s.id);
}

/** Keyed by id; the consistency check has already proved every key present exactly once. */
function recordBy<K extends string, V>(items: readonly V[], key: (item: V) => K): Record<K, V> {
  const record = {} as Record<K, V>;
  for (const item of items) record[key(item)] = item;
  return record;
}

/**
 * Every distinct source (by source and URL), in file order: prices, production, climate, scenarios,
 * calendar, parameters. Series-specific derivations stay on the commodity; the list keeps source, url, asOf.
 */
function sourcesOf(files: ParsedForecastFiles, commodities: readonly CommodityProfile[]): Provenance[] {
  const candidates: Provenance[] = [
    ...commodities.flatMap((c) => [c.priceProvenance, c.production.provenance]),
    ...(files.regions.provenance.sources ?? [files.regions.provenance]),
    files.scenarios.provenance,
    files.calendar.provenance,
    files.parameters.provenance,
  ];
  const distinct: Provenance[] = [];
  for (const { source, url, asOf } of candidates) {
    if (!distinct.some((d) => d.source === source && d.url === url)) distinct.push({ source, url, asOf });
  }
  return distinct;
}

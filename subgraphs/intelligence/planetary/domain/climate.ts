import { climbLadder, type LadderRule, mean, percentileRank, readInputs, round, type Series, type SeriesSet, type SignalAnswer } from '../../domain/index.js';
import { weightedPressure, yearWindowMean } from './measures.js';
import { fillTemplate } from './text.js';

interface YearRange {
  fromYear: number;
  toYear: number;
}

export interface ClimateParameters {
  precipitationSeries: string;
  baseline: YearRange;
  recent: YearRange;
  regions: Array<{ name: string; commodities: string[]; migrationSensitive: boolean }>;
  classifications: LadderRule<string>[];
  atRiskClassifications: string[];
  foodBasket: { series: Record<string, string>; changeDays: number; lookbackYears: number; cascadeMovePct: number };
  foodInflationPressure: LadderRule<string>[];
  weights: { precipitation: number; foodPrices: number };
  globalFoodSystemRisk: LadderRule<string>[];
  texts: Record<'migrationElevated' | 'migrationLow' | 'migrationUnknown', string>;
}

export interface ClimateRegion {
  name: string;
  precipitationShiftPct: number;
  classification: string;
  commodities: string[];
}

export interface Climate {
  climateScore: number;
  summary: { globalFoodSystemRisk: string; regionsAtRisk: number; criticalCommodities: string[]; cascadeSignals: string[] };
  regions: ClimateRegion[];
  transmission: { foodInflationPressure: string; migrationPressure: string };
  coverage: { regionsAssessed: number; regionsRequired: number; missingRegions: string[] };
}

/** Percent change of mean annual precipitation from the baseline years to the recent years; undefined when a window is empty. */
export function precipitationShiftPct(series: Series, parameters: Pick<ClimateParameters, 'baseline' | 'recent'>): number | undefined {
  const baseline = yearWindowMean(series, parameters.baseline.fromYear, parameters.baseline.toYear);
  const recent = yearWindowMean(series, parameters.recent.fromYear, parameters.recent.toYear);
  if (baseline === undefined || recent === undefined || baseline === 0) return undefined;
  return ((recent - baseline) / baseline) * 100;
}

function assessRegions(series: SeriesSet, parameters: ClimateParameters) {
  const regions: ClimateRegion[] = [];
  const used: Series[] = [];
  const missingRegions: string[] = [];
  for (const region of parameters.regions) {
    const id = `${parameters.precipitationSeries}:${region.name}`;
    const found = series.get(id);
    const shift = found ? precipitationShiftPct(found, parameters) : undefined;
    if (!found || shift === undefined) {
      missingRegions.push(region.name);
      continue;
    }
    used.push(found);
    regions.push({ name: region.name, precipitationShiftPct: round(shift, 1), classification: climbLadder(parameters.classifications, shift), commodities: [...region.commodities] });
  }
  return { regions, used, missingRegions };
}

/** A year earlier, same month and day. */
function yearBefore(date: string): string {
  return `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
}

/** Per date, the mean 12-month change of the basket's prices, on the dates every price has with its year-earlier value. */
export function basketChanges(prices: readonly Series[]): Array<{ date: string; changePct: number }> {
  const maps = prices.map((series) => new Map(series.observations.map((observation) => [observation.date, observation.value])));
  const dates = prices[0]?.observations.map((observation) => observation.date) ?? [];
  return dates.flatMap((date) => {
    const changes = maps.map((values) => {
      const now = values.get(date);
      const before = values.get(yearBefore(date));
      return now === undefined || before === undefined || before === 0 ? undefined : (now / before - 1) * 100;
    });
    return changes.every((change) => change !== undefined) ? [{ date, changePct: mean(changes) }] : [];
  });
}

function foodPrices(series: SeriesSet, parameters: ClimateParameters) {
  const ids = Object.values(parameters.foodBasket.series);
  const read = readInputs(series, ids);
  const history = basketChanges(read.used);
  const current = history.at(-1);
  if (!current) return { read, current: undefined, percentile: undefined, moves: [] as string[] };
  const since = `${Number(current.date.slice(0, 4)) - parameters.foodBasket.lookbackYears}${current.date.slice(4)}`;
  const window = history.filter((point) => point.date > since).map((point) => point.changePct);
  const moves = Object.entries(parameters.foodBasket.series).flatMap(([name, id]) => {
    const one = read.found[id];
    const change = one ? basketChanges([one]).at(-1) : undefined;
    if (!change || Math.abs(change.changePct) < parameters.foodBasket.cascadeMovePct) return [];
    return [`${name} ${change.changePct >= 0 ? '+' : ''}${round(change.changePct, 1)}% over 12 months to ${change.date.slice(0, 7)} (${one!.title})`];
  });
  return { read, current, percentile: percentileRank(window, current.changePct), moves };
}

function migrationPressure(regions: readonly ClimateRegion[], missingRegions: readonly string[], parameters: ClimateParameters): string {
  const sensitive = parameters.regions.filter((region) => region.migrationSensitive).map((region) => region.name);
  const assessed = regions.filter((region) => sensitive.includes(region.name));
  if (assessed.length === 0) return fillTemplate(parameters.texts.migrationUnknown, { regions: sensitive.filter((name) => missingRegions.includes(name)).join(', ') });
  const atRisk = assessed.filter((region) => parameters.atRiskClassifications.includes(region.classification));
  if (atRisk.length === 0) return fillTemplate(parameters.texts.migrationLow, { regions: assessed.map((region) => region.name).join(', ') });
  return fillTemplate(parameters.texts.migrationElevated, { regions: atRisk.map((region) => `${region.name} (${region.classification}, ${region.precipitationShiftPct}%)`).join(', ') });
}

/**
 * Structural precipitation shift in ten agricultural zones (spec §2 shape 1) and its transmission
 * to food prices and migration. Zones without a precipitation series are left out of `regions`,
 * listed in `coverage.missingRegions` and named missing; the climate score then rests on the food
 * basket alone, and the answer says PARTIAL.
 */
export function computeClimate(series: SeriesSet, parameters: ClimateParameters): SignalAnswer<Climate> {
  const { regions, used, missingRegions } = assessRegions(series, parameters);
  const food = foodPrices(series, parameters);
  const atRisk = regions.filter((region) => parameters.atRiskClassifications.includes(region.classification));
  const components = [
    ...(regions.length > 0 ? [{ value: (atRisk.length / regions.length) * 100, weight: parameters.weights.precipitation }] : []),
    ...(food.percentile !== undefined ? [{ value: food.percentile, weight: parameters.weights.foodPrices }] : []),
  ];
  if (components.length === 0) throw new Error('climate: neither a precipitation series nor the food basket could be read');
  const climateScore = weightedPressure(components);
  const foodInflationPressure = food.current
    ? `${climbLadder(parameters.foodInflationPressure, food.current.changePct)}: food basket (wheat, maize, rice, soybeans) ${food.current.changePct >= 0 ? '+' : ''}${round(food.current.changePct, 1)}% over 12 months to ${food.current.date.slice(0, 7)}, percentile ${Math.round(food.percentile!)} of ${parameters.foodBasket.lookbackYears} years`
    : 'UNKNOWN: the food price series are missing';
  const regionSignals = atRisk.map((region) => `${region.name} ${region.classification} (${region.precipitationShiftPct}%): ${region.commodities.join(', ')} supply`);
  const body: Climate = {
    climateScore,
    summary: {
      globalFoodSystemRisk: climbLadder(parameters.globalFoodSystemRisk, climateScore),
      regionsAtRisk: atRisk.length,
      criticalCommodities: [...new Set(atRisk.flatMap((region) => region.commodities))],
      cascadeSignals: [...regionSignals, ...food.moves],
    },
    regions,
    transmission: { foodInflationPressure, migrationPressure: migrationPressure(regions, missingRegions, parameters) },
    coverage: { regionsAssessed: regions.length, regionsRequired: parameters.regions.length, missingRegions },
  };
  const missing = [...missingRegions.map((name) => `${parameters.precipitationSeries}:${name}`), ...food.read.missing];
  return { body, inputs: [...used, ...food.read.used], missing };
}

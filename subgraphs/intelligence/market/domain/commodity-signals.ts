import { climbLadder, type LadderRule, type Observation, round, type Series, type SeriesSet, weightedMean } from '../../domain/index.js';
import { changeOverMonths, indexOnOrBefore, levelPercentile, ratioOnCommonDates, shiftMonths, signedPercent } from './moves.js';

export type FlightToSafety = 'ACTIVE' | 'WATCH' | 'ABSENT';
export type DemandRegime = 'EXPANDING' | 'STABLE' | 'CONTRACTING' | 'UNKNOWN';

export interface FlightToSafetyParameters {
  realYieldSeries: string;
  fearGaugeSeries: string;
  goldRallyThreeMonthPct: number;
  realYieldFallPp: number;
  fearGaugePercentile: number;
}

export interface FlightToSafetyReading {
  state: FlightToSafety;
  basis: string;
  realYield10y: number | null;
  used: Series[];
  missing: string[];
}

/** Change of a series in its own units (percentage points for a yield) over `months` to its latest observation. */
function changeInUnits(observations: readonly Observation[], months: number): number | undefined {
  const last = observations.length - 1;
  const start = indexOnOrBefore(observations, shiftMonths(observations[last]!.date, -months), last);
  return start < 0 || start === last ? undefined : observations[last]!.value - observations[start]!.value;
}

/**
 * Gold as a safe haven: ACTIVE when gold rallies over three months while the real 10-year yield
 * does not fall (the usual driver of gold does not explain the rally) or while the fear gauge sits
 * high in its range; WATCH when only one of rally and fear is there; ABSENT otherwise.
 */
export function readFlightToSafety(gold: readonly Observation[], series: SeriesSet, parameters: FlightToSafetyParameters, lookbackYears: number): FlightToSafetyReading {
  const used: Series[] = [];
  const missing: string[] = [];
  const goldChange = changeOverMonths(gold, gold.length - 1, 3);
  // Compared at 4 decimals: the inputs have at most 2, and a bound must hold at the bound (1.9 - 2 is -0.10000000000000009).
  const rally = goldChange !== undefined && round(goldChange, 4) >= parameters.goldRallyThreeMonthPct;
  const realYield = series.get(parameters.realYieldSeries);
  const fearGauge = series.get(parameters.fearGaugeSeries);
  let realYieldChange: number | undefined;
  let realYield10y: number | null = null;
  if (realYield && realYield.observations.length > 1) {
    used.push(realYield);
    realYield10y = realYield.observations.at(-1)!.value;
    realYieldChange = changeInUnits(realYield.observations, 3);
  } else missing.push(`gold.flightToSafety: ${parameters.realYieldSeries}`);
  let fearPercentile: number | undefined;
  if (fearGauge && fearGauge.observations.length > 1) {
    used.push(fearGauge);
    fearPercentile = levelPercentile(fearGauge.observations, lookbackYears);
  } else missing.push(`gold.flightToSafety: ${parameters.fearGaugeSeries}`);
  const unexplained = realYieldChange !== undefined && round(realYieldChange, 4) >= parameters.realYieldFallPp;
  const fear = fearPercentile !== undefined && fearPercentile >= parameters.fearGaugePercentile;
  const state: FlightToSafety = rally && (unexplained || fear) ? 'ACTIVE' : rally || fear ? 'WATCH' : 'ABSENT';
  const parts = [
    goldChange === undefined ? 'gold 3-month change unknown' : `gold ${signedPercent(goldChange, 1)} over 3 months`,
    realYield10y === null
      ? 'real yield unknown'
      : `real 10-year yield ${realYield10y.toFixed(2)}%${realYieldChange === undefined ? '' : ` (${realYieldChange >= 0 ? '+' : ''}${realYieldChange.toFixed(2)}pp)`}`,
    fearPercentile === undefined ? 'fear gauge unknown' : `VIX at percentile ${Math.round(fearPercentile)} of ${lookbackYears} years`,
  ];
  return { state, basis: parts.join('; '), realYield10y, used, missing };
}

export interface DemandParameters {
  months: number;
  ladder: LadderRule<Exclude<DemandRegime, 'UNKNOWN'>>[];
}

/** Copper outrunning gold over the horizon reads as industrial demand; the ratio is taken on the months both have. */
export function readDemandRegime(copper: readonly Observation[], gold: readonly Observation[] | undefined, parameters: DemandParameters): { regime: DemandRegime; ratioChange: number | null } {
  if (!gold) return { regime: 'UNKNOWN', ratioChange: null };
  const ratio = ratioOnCommonDates(copper, gold);
  const change = ratio.length > 1 ? changeOverMonths(ratio, ratio.length - 1, parameters.months) : undefined;
  if (change === undefined) return { regime: 'UNKNOWN', ratioChange: null };
  return { regime: climbLadder(parameters.ladder, round(change, 2)), ratioChange: round(change, 2) };
}

export interface CrossCommodityParameters {
  elevatedScore: number;
  ladder: LadderRule<string>[];
  texts: Record<string, string>;
}

export function crossCommoditySignal(scores: ReadonlyArray<{ name: string; score: number }>, parameters: CrossCommodityParameters): string {
  const elevated = scores.filter((entry) => entry.score >= parameters.elevatedScore).map((entry) => entry.name);
  const level = climbLadder(parameters.ladder, elevated.length);
  const which = elevated.length > 0 ? ` (${elevated.join(', ')})` : '';
  return `${level}: ${elevated.length} of ${scores.length} commodities with moves at percentile ${parameters.elevatedScore} or above${which}; ${parameters.texts[level] ?? ''}`;
}

export interface InflationLeadParameters {
  weights: Record<string, number>;
  ladder: LadderRule<string>[];
  texts: Record<string, string>;
}

/** Weighted 3-month price change of energy and food (the commodities of the weights that are present). */
export function inflationLeadSignal(threeMonthChanges: ReadonlyArray<{ name: string; change: number }>, parameters: InflationLeadParameters): string {
  const entries = threeMonthChanges.filter((entry) => parameters.weights[entry.name] !== undefined).map((entry) => ({ value: entry.change, weight: parameters.weights[entry.name]! }));
  const pressure = weightedMean(entries);
  if (pressure === undefined) return 'UNKNOWN: no energy or food price in the snapshot';
  const level = climbLadder(parameters.ladder, round(pressure, 2));
  const names = threeMonthChanges.filter((entry) => parameters.weights[entry.name] !== undefined).map((entry) => entry.name);
  return `${level}: energy and food ${signedPercent(pressure, 1)} over 3 months (weighted ${names.join(', ')}); ${parameters.texts[level] ?? ''}`;
}

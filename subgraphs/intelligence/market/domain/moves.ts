import { dayNumber, type Observation, percentileRank, type Series, shiftDate } from '../../domain/index.js';

/** Trading days in a year: the annualisation of a daily realised volatility. */
export const TRADING_DAYS_PER_YEAR = 252;

/**
 * YYYY-MM-DD moved by whole calendar months, the day clamped to the length of the target month
 * (2026-03-31 one month back is 2026-02-28). Calendar days would not do for monthly series: 30
 * days before 1 March is 30 January, whose observation on or before is 1 January, two months back.
 */
export function shiftMonths(date: string, months: number): string {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** First date of a lookback window of `years` ending at `date` (the convention of macro-stress). */
export function lookbackStart(date: string, years: number): string {
  return shiftDate(date, -Math.round(years * 365.25));
}

/** Index of the newest observation dated on or before `date` among the first `upTo + 1`, or -1. */
export function indexOnOrBefore(observations: readonly Observation[], date: string, upTo = observations.length - 1): number {
  let low = 0;
  let high = upTo;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (observations[middle]!.date <= date) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Where a horizon starts, from the date it ends: a number of calendar months or of calendar days back. */
export type HorizonStart = (end: string) => string;

export const monthsBack =
  (months: number): HorizonStart =>
  (end) =>
    shiftMonths(end, -months);

export const daysBack =
  (days: number): HorizonStart =>
  (end) =>
    shiftDate(end, -days);

/** Percent change of observation `index` against the newest one on or before the start of the horizon. */
export function changeOver(observations: readonly Observation[], index: number, start: HorizonStart): number | undefined {
  const end = observations[index]!;
  const startIndex = indexOnOrBefore(observations, start(end.date), index);
  if (startIndex < 0 || startIndex === index) return undefined;
  const from = observations[startIndex]!.value;
  return from === 0 ? undefined : ((end.value - from) / Math.abs(from)) * 100;
}

/** Percent change of observation `index` against the newest one on or before `months` months earlier. */
export function changeOverMonths(observations: readonly Observation[], index: number, months: number): number | undefined {
  return changeOver(observations, index, monthsBack(months));
}

/** A latest move and how large it is against the moves of the same length in the lookback window. */
export interface MoveReading {
  /** Percent change of the latest observation over the horizon. */
  changePct: number;
  /** Percentile rank (0-100) of its absolute size among the absolute moves of every observation of the window. */
  percentile: number;
}

/** The latest move of a series over a horizon, ranked by size among the window's moves of the same length. */
export function readMove(observations: readonly Observation[], start: HorizonStart, lookbackYears: number): MoveReading | undefined {
  const last = observations.length - 1;
  if (last < 1) return undefined;
  const changePct = changeOver(observations, last, start);
  if (changePct === undefined) return undefined;
  const from = lookbackStart(observations[last]!.date, lookbackYears);
  const sizes: number[] = [];
  for (let index = last; index >= 0 && observations[index]!.date >= from; index -= 1) {
    const change = changeOver(observations, index, start);
    if (change !== undefined) sizes.push(Math.abs(change));
  }
  return { changePct, percentile: percentileRank(sizes, Math.abs(changePct)) };
}

/** Population standard deviation of values[from..to] (inclusive), two passes, no allocation. */
function deviationOf(values: readonly number[], from: number, to: number): number {
  let sum = 0;
  for (let index = from; index <= to; index += 1) sum += values[index]!;
  const average = sum / (to - from + 1);
  let squares = 0;
  for (let index = from; index <= to; index += 1) squares += (values[index]! - average) ** 2;
  return Math.sqrt(squares / (to - from + 1));
}

/**
 * Annualised realised volatility (percent) ending at each observation: the population standard
 * deviation of the daily log returns between observations dated within the `days` calendar days
 * up to it, times the square root of 252. Undefined where fewer than `minimumReturns` returns fall
 * in the window. One pass with two pointers over day numbers: the window start only moves forward.
 */
export function realisedVolatilities(observations: readonly Observation[], days: number, minimumReturns = 5): Array<number | undefined> {
  const dayOf = observations.map((observation) => dayNumber(observation.date));
  const returns = observations.map((observation, index) => (index === 0 ? 0 : Math.log(observation.value / observations[index - 1]!.value)));
  const result: Array<number | undefined> = [];
  let start = 0;
  for (let index = 0; index < observations.length; index += 1) {
    while (dayOf[start]! <= dayOf[index]! - days) start += 1;
    // The window holds observations start..index; its returns are those of start+1..index (each from the one before it).
    const count = index - start;
    result.push(count < minimumReturns ? undefined : deviationOf(returns, start + 1, index) * Math.sqrt(TRADING_DAYS_PER_YEAR) * 100);
  }
  return result;
}

/** The latest realised volatility and its percentile rank among the window's volatilities. */
export interface VolatilityReading {
  /** Annualised, percent. */
  value: number;
  percentile: number;
}

export function readVolatility(observations: readonly Observation[], days: number, lookbackYears: number): VolatilityReading | undefined {
  const volatilities = realisedVolatilities(observations, days);
  const value = volatilities.at(-1);
  if (value === undefined) return undefined;
  const from = lookbackStart(observations.at(-1)!.date, lookbackYears);
  const window = volatilities.filter((volatility, index): volatility is number => volatility !== undefined && observations[index]!.date >= from);
  return { value, percentile: percentileRank(window, value) };
}

/** Percentile rank of the latest value among the values of the lookback window (a level, not a move). */
export function levelPercentile(observations: readonly Observation[], lookbackYears: number): number {
  const last = observations.at(-1)!;
  const from = lookbackStart(last.date, lookbackYears);
  return percentileRank(
    observations.filter((observation) => observation.date >= from).map((observation) => observation.value),
    last.value,
  );
}

/** The observations of a series re-expressed by `transform` (a per-USD rate as the currency's value in USD). */
export function mapObservations(series: Series, transform: (value: number) => number): Observation[] {
  return series.observations.map((observation) => ({ date: observation.date, value: transform(observation.value) }));
}

/** The ratio of two series on the dates both have. */
export function ratioOnCommonDates(numerator: readonly Observation[], denominator: readonly Observation[]): Observation[] {
  const divisor = new Map(denominator.map((observation) => [observation.date, observation.value]));
  return numerator.flatMap((observation) => {
    const value = divisor.get(observation.date);
    return value === undefined || value === 0 ? [] : [{ date: observation.date, value: observation.value / value }];
  });
}

/** Points of a piecewise-linear score, ascending by `at`; outside them the end scores hold. */
export function piecewiseLinear(points: ReadonlyArray<{ at: number; score: number }>, value: number): number {
  const first = points[0]!;
  const last = points.at(-1)!;
  if (value <= first.at) return first.score;
  if (value >= last.at) return last.score;
  const upper = points.findIndex((point) => point.at >= value);
  const low = points[upper - 1]!;
  const high = points[upper]!;
  return low.score + ((value - low.at) / (high.at - low.at)) * (high.score - low.score);
}

/** A signed percentage as text with its sign: +1.26%, -0.40%. */
export function signedPercent(value: number, digits = 2): string {
  return `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(digits)}%`;
}

/** A published time series as the intelligence models read it: observations and where they come from. */

export type Frequency = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'annual';

export interface Observation {
  /** ISO date, YYYY-MM-DD. */
  readonly date: string;
  readonly value: number;
}

/** Where a series comes from: shown with every answer that used it. */
export interface SeriesSource {
  readonly id: string;
  readonly title: string;
  readonly units: string;
  readonly frequency: Frequency;
  readonly publisher: string;
  readonly url: string;
  readonly licence: string;
  /** Date of the newest observation. */
  readonly asOf: string;
  /** Read from the publisher's API in this process (a live adapter), rather than the shipped snapshot. */
  readonly live: boolean;
}

export interface Series extends SeriesSource {
  /** Ascending by date, no gaps filled. */
  readonly observations: readonly Observation[];
}

export type SeriesSet = ReadonlyMap<string, Series>;

const DAY_MS = 86_400_000;

export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** YYYY-MM-DD of `date` moved by `days`. */
export function shiftDate(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

export function latest(series: Series): Observation {
  const last = series.observations.at(-1);
  if (!last) throw new Error(`series ${series.id} has no observations`);
  return last;
}

/** The newest observation dated on or before `date` (binary search). */
export function onOrBefore(series: Series, date: string): Observation | undefined {
  const observations = series.observations;
  let low = 0;
  let high = observations.length - 1;
  let found: Observation | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const observation = observations[middle]!;
    if (observation.date <= date) {
      found = observation;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The latest value against the one `days` calendar days before it, in percent of the earlier one. */
export function changePct(series: Series, days: number): number | undefined {
  const end = latest(series);
  const start = onOrBefore(series, shiftDate(end.date, -days));
  if (!start || start.value === 0) return undefined;
  return ((end.value - start.value) / Math.abs(start.value)) * 100;
}

/** The latest value minus the one `days` calendar days before it, in the series' units. */
export function changeBy(series: Series, days: number): number | undefined {
  const end = latest(series);
  const start = onOrBefore(series, shiftDate(end.date, -days));
  return start ? end.value - start.value : undefined;
}

/** Observations dated from `from` (inclusive) to `to` (inclusive). */
export function between(series: Series, from: string, to: string): Observation[] {
  return series.observations.filter((observation) => observation.date >= from && observation.date <= to);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error('mean of no values');
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Population standard deviation. */
export function standardDeviation(values: readonly number[]): number {
  const average = mean(values);
  return Math.sqrt(mean(values.map((value) => (value - average) ** 2)));
}

/** Share (0-100) of `values` at or below `value`. */
export function percentileRank(values: readonly number[], value: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  return (values.filter((candidate) => candidate <= value).length / values.length) * 100;
}

/** The latest value as a z-score against the observations of the `years` years before it. */
export function zScore(series: Series, years: number): number | undefined {
  const end = latest(series);
  const window = between(series, shiftDate(end.date, -Math.round(years * 365.25)), end.date).map((observation) => observation.value);
  if (window.length < 2) return undefined;
  const deviation = standardDeviation(window);
  return deviation === 0 ? 0 : (end.value - mean(window)) / deviation;
}

/** Sum of weight x value over the entries present, divided by the weights present (weights renormalised). */
export function weightedMean(entries: ReadonlyArray<{ value: number; weight: number }>): number | undefined {
  const weights = entries.reduce((sum, entry) => sum + entry.weight, 0);
  return weights === 0 ? undefined : entries.reduce((sum, entry) => sum + entry.value * entry.weight, 0) / weights;
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** Rounds to `digits` decimals (half away from zero), so answers carry no float noise. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.sign(value) * (Math.round(Math.abs(value) * factor) / factor);
}

/** The series as they stood on `date`: observations dated after it left out (a clock before the data sees none of it). */
export function seriesAsOf(series: SeriesSet, date: string): SeriesSet {
  const truncated = new Map<string, Series>();
  for (const [id, one] of series) {
    if (one.asOf <= date) {
      truncated.set(id, one);
      continue;
    }
    const observations = one.observations.filter((observation) => observation.date <= date);
    if (observations.length > 0) truncated.set(id, { ...one, observations, asOf: observations.at(-1)!.date });
  }
  return truncated;
}

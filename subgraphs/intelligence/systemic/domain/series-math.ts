import { type Observation, percentileRank, type Series, shiftDate } from '../../domain/index.js';
import { indexOnOrBefore } from '../../market/domain/index.js';

/** Mean of the observations dated within the `days` calendar days up to each observation (prefix sums, one pass). */
export function rollingMeans(observations: readonly Observation[], days: number): number[] {
  const prefix = [0];
  for (const observation of observations) prefix.push(prefix.at(-1)! + observation.value);
  let start = 0;
  return observations.map((observation, index) => {
    const from = shiftDate(observation.date, -(days - 1));
    while (observations[start]!.date < from) start += 1;
    return (prefix[index + 1]! - prefix[start]!) / (index + 1 - start);
  });
}

/** Percentile rank (0-100) of the last value among the values dated within `years` before it. */
export function lastPercentile(observations: readonly Observation[], values: readonly number[], years: number): number {
  const last = observations.length - 1;
  const from = shiftDate(observations[last]!.date, -Math.round(years * 365.25));
  const window = values.filter((_, index) => observations[index]!.date >= from);
  return percentileRank(window, values[last]!);
}

/** Percent change of observation `index` against the newest one on or before `days` calendar days earlier. */
export function changePctAt(observations: readonly Observation[], index: number, days: number): number | undefined {
  const end = observations[index]!;
  const start = indexOnOrBefore(observations, shiftDate(end.date, -days), index);
  if (start < 0 || start === index) return undefined;
  const from = observations[start]!.value;
  return from === 0 ? undefined : ((end.value - from) / Math.abs(from)) * 100;
}

/** Percent change of the latest observation against the newest one on or before `days` calendar days earlier. */
export function changePctOverDays(series: Series, days: number): number | undefined {
  return series.observations.length === 0 ? undefined : changePctAt(series.observations, series.observations.length - 1, days);
}

/** The latest value minus the one on or before `days` calendar days earlier, in the series' units. */
export function changeOverDays(series: Series, days: number): number | undefined {
  const observations = series.observations;
  const end = observations.at(-1)!;
  const start = indexOnOrBefore(observations, shiftDate(end.date, -days));
  if (start < 0 || start === observations.length - 1) return undefined;
  return end.value - observations[start]!.value;
}

/** Date of the first observation of the unbroken run, ending at the latest, in which `holds` is true; undefined when it does not hold now. */
export function runStart(observations: readonly Observation[], holds: (index: number) => boolean): string | undefined {
  let index = observations.length - 1;
  if (index < 0 || !holds(index)) return undefined;
  while (index > 0 && holds(index - 1)) index -= 1;
  return observations[index]!.date;
}

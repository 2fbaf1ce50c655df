import { clamp, mean, type Observation, round, type Series, weightedMean } from '../../domain/index.js';

/** Mean of the observations dated in the calendar years `fromYear` to `toYear` (inclusive); undefined when there are none. */
export function yearWindowMean(series: Series, fromYear: number, toYear: number): number | undefined {
  const values = series.observations.filter((observation) => inYears(observation, fromYear, toYear)).map((observation) => observation.value);
  return values.length === 0 ? undefined : mean(values);
}

function inYears(observation: Observation, fromYear: number, toYear: number): boolean {
  const year = Number(observation.date.slice(0, 4));
  return year >= fromYear && year <= toYear;
}

/** Mean of the last `count` observations, and the date of the newest. */
export function trailingMean(series: Series, count: number): { value: number; asOf: string } {
  const window = series.observations.slice(-count);
  if (window.length === 0) throw new Error(`series ${series.id} has no observations`);
  return { value: mean(window.map((observation) => observation.value)), asOf: window.at(-1)!.date };
}

/** A pressure 0-100: 0 at or below `safe`, 100 at or beyond `critical`, linear between. */
export function linearPressure(value: number, bounds: { safe: number; critical: number }): number {
  return clamp(((value - bounds.safe) / (bounds.critical - bounds.safe)) * 100, 0, 100);
}

/** A 0-100 score: the weighted mean of the components present (weights renormalised), rounded to one decimal; at least one component. */
export function weightedPressure(components: ReadonlyArray<{ value: number; weight: number }>): number {
  const mean = weightedMean(components);
  if (mean === undefined) throw new Error('a weighted mean needs at least one weighted component');
  return round(mean, 1);
}

import type { Series, SeriesSet } from '../../domain/index.js';

/**
 * Indicators on a regular calendar grid: the fault-line stresses (annual) and the cycle series
 * (quarterly or annual) are built from published series by the same few documented steps, named in
 * the catalogues (data/structural/fault-lines.json, cycles.json):
 *   1. each member series is averaged per calendar quarter or year;
 *   2. a member may be deflated (divided by another series on the same grid, e.g. CPI: a real price);
 *   3. a member transform (log, growth over a year, change over a year), then an optional
 *      deviation from a reference value, optionally absolute;
 *   4. the members combine (mean, weighted mean, weighted sum, ratio of the first to the second);
 *   5. an optional transform of the combination.
 * The result is the longest run of consecutive periods ending at the last period every member has.
 */
export type Grid = 'quarterly' | 'annual';
export type Transform = 'level' | 'log' | 'growthPct' | 'changeOverYear';

export interface IndicatorMember {
  series: string;
  weight?: number;
  deflateBy?: string;
  transform?: Transform;
  deviationFrom?: number;
  absolute?: boolean;
}

export interface IndicatorDefinition {
  grid: Grid;
  combine: 'mean' | 'weightedMean' | 'weightedSum' | 'ratio';
  members: IndicatorMember[];
  transform?: Transform;
  /** Periods a member's last value may stand in for a period it has not published yet (levels only). */
  carryForwardPeriods?: number;
}

/** A series on the grid: period indexes (quarter: year * 4 + quarter - 1; year: the year) and values. */
export interface GridSeries {
  grid: Grid;
  periods: number[];
  values: number[];
}

export interface BuiltIndicator {
  series: GridSeries;
  used: Series[];
}

export const PERIODS_PER_YEAR: Record<Grid, number> = { quarterly: 4, annual: 1 };

export function periodOf(date: string, grid: Grid): number {
  const year = Number(date.slice(0, 4));
  return grid === 'annual' ? year : year * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
}

/** Time of a period's midpoint in quarters since year 0 (the clock of phase velocities). */
export function periodMidQuarter(period: number, grid: Grid): number {
  return grid === 'annual' ? period * 4 + 2 : period + 0.5;
}

/** A date as quarters since year 0. */
export function dateInQuarters(date: string): number {
  const year = Number(date.slice(0, 4));
  const start = Date.UTC(year, 0, 1);
  const fraction = (Date.parse(`${date.slice(0, 10)}T00:00:00Z`) - start) / (Date.UTC(year + 1, 0, 1) - start);
  return (year + fraction) * 4;
}

export function periodLabel(period: number, grid: Grid): string {
  return grid === 'annual' ? String(period) : `${Math.floor(period / 4)}Q${(period % 4) + 1}`;
}

/** Period means by series object: series are immutable, and the same CPI deflates a dozen prices. */
const periodMeans = new WeakMap<Series, Partial<Record<Grid, Map<number, number>>>>();

function averagePerPeriod(series: Series, grid: Grid): Map<number, number> {
  const cached = periodMeans.get(series) ?? {};
  cached[grid] ??= computeAveragePerPeriod(series, grid);
  periodMeans.set(series, cached);
  return cached[grid];
}

function computeAveragePerPeriod(series: Series, grid: Grid): Map<number, number> {
  const sums = new Map<number, { sum: number; count: number }>();
  for (const { date, value } of series.observations) {
    const period = periodOf(date, grid);
    const bucket = sums.get(period) ?? { sum: 0, count: 0 };
    bucket.sum += value;
    bucket.count += 1;
    sums.set(period, bucket);
  }
  return new Map([...sums].map(([period, { sum, count }]) => [period, sum / count]));
}

function transformed(values: Map<number, number>, transform: Transform, grid: Grid): Map<number, number> {
  const lag = PERIODS_PER_YEAR[grid];
  const out = new Map<number, number>();
  for (const [period, value] of values) {
    if (transform === 'level') out.set(period, value);
    else if (transform === 'log') {
      if (value > 0) out.set(period, Math.log(value));
    } else {
      const before = values.get(period - lag);
      if (before === undefined) continue;
      if (transform === 'changeOverYear') out.set(period, value - before);
      else if (before !== 0) out.set(period, ((value - before) / Math.abs(before)) * 100);
    }
  }
  return out;
}

function memberValues(member: IndicatorMember, series: SeriesSet, grid: Grid, used: Series[]): Map<number, number> | undefined {
  const source = series.get(member.series);
  if (!source || source.observations.length === 0) return undefined;
  used.push(source);
  let values = averagePerPeriod(source, grid);
  if (member.deflateBy) {
    const deflator = series.get(member.deflateBy);
    if (!deflator || deflator.observations.length === 0) return undefined;
    used.push(deflator);
    const prices = averagePerPeriod(deflator, grid);
    values = new Map([...values].flatMap(([period, value]) => (prices.get(period) ? [[period, value / prices.get(period)!] as const] : [])));
  }
  values = transformed(values, member.transform ?? 'level', grid);
  if (member.deviationFrom === undefined && !member.absolute) return values;
  return new Map([...values].map(([period, value]) => [period, adjusted(value, member)]));
}

function adjusted(value: number, member: IndicatorMember): number {
  const deviation = value - (member.deviationFrom ?? 0);
  return member.absolute ? Math.abs(deviation) : deviation;
}

function valueAt(values: Map<number, number>, period: number, carry: number): number | undefined {
  for (let back = 0; back <= carry; back++) {
    const value = values.get(period - back);
    if (value !== undefined) return value;
  }
  return undefined;
}

function combined(definition: IndicatorDefinition, members: Map<number, number>[], period: number): number | undefined {
  const carry = definition.carryForwardPeriods ?? 0;
  const values: number[] = [];
  for (const member of members) {
    const value = valueAt(member, period, carry);
    if (value === undefined) return undefined;
    values.push(value);
  }
  if (definition.combine === 'ratio') return values[1] ? values[0]! / values[1] : undefined;
  if (definition.combine === 'mean') return values.reduce((sum, value) => sum + value, 0) / values.length;
  const weights = definition.members.map((member) => member.weight ?? 1);
  const sum = values.reduce((total, value, index) => total + value * weights[index]!, 0);
  return definition.combine === 'weightedSum' ? sum : sum / weights.reduce((total, weight) => total + weight, 0);
}

/** Builds the indicator, or names why it cannot be built (a member series absent or without overlap). */
export function buildIndicator(definition: IndicatorDefinition, series: SeriesSet): BuiltIndicator | undefined {
  const used: Series[] = [];
  const members: Map<number, number>[] = [];
  for (const member of definition.members) {
    const values = memberValues(member, series, definition.grid, used);
    if (!values) return undefined;
    members.push(values);
  }
  const allPeriods = [...new Set(members.flatMap((values) => [...values.keys()]))].sort((a, b) => a - b);
  const combination = new Map<number, number>();
  for (const period of allPeriods) {
    const value = combined(definition, members, period);
    if (value !== undefined && Number.isFinite(value)) combination.set(period, value);
  }
  const final = transformed(combination, definition.transform ?? 'level', definition.grid);
  const run = lastConsecutiveRun(final);
  return run.periods.length === 0 ? undefined : { series: { grid: definition.grid, ...run }, used: [...new Map(used.map((one) => [one.id, one])).values()] };
}

function lastConsecutiveRun(values: Map<number, number>): { periods: number[]; values: number[] } {
  const periods = [...values.keys()].sort((a, b) => a - b);
  let start = periods.length - 1;
  while (start > 0 && periods[start - 1] === periods[start]! - 1) start--;
  const run = periods.slice(Math.max(start, 0));
  return { periods: run, values: run.map((period) => values.get(period)!) };
}

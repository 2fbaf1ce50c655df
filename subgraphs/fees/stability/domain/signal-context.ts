import type { Observation, SignalSeries, SignalSet } from '../../domain/index.js';
import type { StabilityParameters } from './parameters.js';

// What one run of the stability pipeline reads and records as it goes: the signals as of a day,
// the readings (each signal's value and score) and the series found stale. Pure.

export const DAY_MS = 86_400_000;
export const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** Observations dated on or before `day`. */
export function upTo(series: SignalSeries | undefined, day: string): Observation[] {
  return series ? series.observations.filter((observation) => observation.date <= day) : [];
}

export function changePct(observations: Observation[], back: number): number | null {
  const latest = observations.at(-1);
  const earlier = observations.at(-1 - back);
  if (!latest || !earlier || earlier.value === 0) return null;
  return ((latest.value - earlier.value) / earlier.value) * 100;
}

export function trendOf(change: number | null, threshold: number, up: string, down: string, flat: string): string {
  if (change === null) return 'UNKNOWN';
  if (change > threshold) return up;
  if (change < -threshold) return down;
  return flat;
}

export interface SignalReading {
  signal: string;
  value: number;
  score: number;
  asOf: string;
  source: string;
}

export interface Context {
  day: string;
  now: Date;
  signals: SignalSet;
  parameters: StabilityParameters;
  readings: Map<string, SignalReading>;
  stale: string[];
}

export function latestOf(context: Context, id: string): Observation | undefined {
  const series = context.signals.series[id];
  const latest = upTo(series, context.day).at(-1);
  if (series && latest) {
    const allowance = context.parameters.staleAfterDays[series.frequency];
    if ((context.now.getTime() - Date.parse(latest.date)) / DAY_MS > allowance) context.stale.push(id);
  }
  return latest;
}

export function record(context: Context, signal: string, seriesId: string, value: number, score: number, asOf: string): void {
  const series = context.signals.series[seriesId];
  context.readings.set(signal, { signal, value: round(value, 3), score: round(score), asOf, source: series ? `${series.source} (${series.id})` : seriesId });
}

/** A fresh context: the run's day, no reading and no stale series yet. */
export function signalContext(signals: SignalSet, parameters: StabilityParameters, now: Date): Context {
  return { day: now.toISOString().slice(0, 10), now, signals, parameters, readings: new Map(), stale: [] };
}

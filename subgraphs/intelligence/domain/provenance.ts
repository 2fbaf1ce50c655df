import type { Frequency, Series, SeriesSet, SeriesSource } from './series.js';
import { daysBetween } from './series.js';

/** How fresh the data behind an answer is (the vocabulary of the forecast and reports services). */
export type DataQuality = 'LIVE' | 'PARTIAL' | 'ESTIMATED';

/** What a model computed, the inputs it read and the inputs it needed but could not find. */
export interface SignalAnswer<Body> {
  body: Body;
  inputs: readonly SeriesSource[];
  /** Inputs the method names that exist nowhere open (or failed to load): the answer was computed without them. */
  missing: readonly string[];
}

/** An input as an answer shows it. */
export interface InputUse {
  id: string;
  title: string;
  publisher: string;
  url: string;
  licence: string;
  asOf: string;
  live: boolean;
  /** Older than a publisher of its frequency would normally be (STALE_AFTER_DAYS). */
  stale: boolean;
}

/** Age past which an observation is stale, by frequency: a normal publication lag plus one period. */
export const STALE_AFTER_DAYS: Record<Frequency, number> = { daily: 10, weekly: 21, monthly: 75, quarterly: 200, annual: 550 };

export function isStale(source: SeriesSource, today: string): boolean {
  return daysBetween(source.asOf, today) > STALE_AFTER_DAYS[source.frequency];
}

export function inputUse(source: SeriesSource, today: string): InputUse {
  const { id, title, publisher, url, licence, asOf, live } = source;
  return { id, title, publisher, url, licence, asOf, live, stale: isStale(source, today) };
}

/** LIVE when every input was read live and none is missing; PARTIAL when one is missing or some were not live; ESTIMATED from the shipped snapshot. */
export function dataQualityOf(inputs: readonly SeriesSource[], missing: readonly string[]): DataQuality {
  if (missing.length > 0) return 'PARTIAL';
  const live = inputs.filter((input) => input.live).length;
  if (inputs.length > 0 && live === inputs.length) return 'LIVE';
  return live === 0 ? 'ESTIMATED' : 'PARTIAL';
}

/** The series of `ids` found in `series`, and the ids not found: how a model reads its inputs. */
export function readInputs<Id extends string>(series: SeriesSet, ids: readonly Id[]): { found: Partial<Record<Id, Series>>; used: Series[]; missing: Id[] } {
  const found: Partial<Record<Id, Series>> = {};
  const used: Series[] = [];
  const missing: Id[] = [];
  for (const id of ids) {
    const one = series.get(id);
    if (one && one.observations.length > 0) {
      found[id] = one;
      used.push(one);
    } else missing.push(id);
  }
  return { found, used, missing };
}

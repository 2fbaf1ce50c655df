import type { Frequency, Series, SeriesSet } from '../../domain/index.js';

/** A series made in a test: observations given as [date, value] pairs, ascending. */
export function testSeries(id: string, points: Array<[string, number]>, frequency: Frequency = 'daily'): Series {
  const observations = points.map(([date, value]) => ({ date, value }));
  return { id, title: id, units: 'test', frequency, publisher: 'test', url: 'https://example.org', licence: 'test', asOf: observations.at(-1)?.date ?? '', live: false, observations };
}

/** `base` with `extra` laid over it (same id replaces). */
export function withSeries(base: SeriesSet, ...extra: Series[]): SeriesSet {
  const set = new Map(base);
  for (const one of extra) set.set(one.id, one);
  return set;
}

/** `base` without the series named. */
export function withoutSeries(base: SeriesSet, ...ids: string[]): SeriesSet {
  const set = new Map(base);
  for (const id of ids) set.delete(id);
  return set;
}

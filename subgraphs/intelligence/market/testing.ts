import { snapshotSeries } from '../data/dataset.js';
import type { Frequency, Series, SeriesSet } from '../domain/index.js';

/** A series for a test: the dates and values given, with a placeholder provenance. */
export function testSeries(id: string, points: ReadonlyArray<readonly [string, number]>, frequency: Frequency = 'daily'): Series {
  const observations = points.map(([date, value]) => ({ date, value }));
  return {
    id,
    title: id,
    units: 'test units',
    frequency,
    publisher: 'test',
    url: 'https://example.test/series',
    licence: 'test',
    asOf: observations.at(-1)?.date ?? '1970-01-01',
    live: false,
    observations,
  };
}

/** The shipped snapshot without the series named: how a test takes an input away. */
export function snapshotWithout(...ids: string[]): SeriesSet {
  const copy = new Map(snapshotSeries());
  for (const id of ids) copy.delete(id);
  return copy;
}

/** The shipped snapshot with the series given laid over it (same id replaces). */
export function snapshotWith(...series: Series[]): SeriesSet {
  const copy = new Map(snapshotSeries());
  for (const one of series) copy.set(one.id, one);
  return copy;
}

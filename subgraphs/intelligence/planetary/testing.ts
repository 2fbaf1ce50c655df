import type { Frequency, Series, SeriesSet } from '../domain/index.js';

/** A series for tests: the observations as given (dates ascending), with placeholder provenance. */
export function testSeries(id: string, observations: Array<[string, number]>, frequency: Frequency = 'monthly'): Series {
  return {
    id,
    title: `test ${id}`,
    units: 'test units',
    frequency,
    publisher: 'test publisher',
    url: 'https://example.org/test',
    licence: 'test licence',
    asOf: observations.at(-1)?.[0] ?? '1970-01-01',
    live: false,
    observations: observations.map(([date, value]) => ({ date, value })),
  };
}

export function testSet(...series: Series[]): SeriesSet {
  return new Map(series.map((one) => [one.id, one]));
}

/** Annual observations `{ year: value }` as dated pairs (YYYY-01-01). */
export function annual(values: Record<number, number>): Array<[string, number]> {
  return Object.entries(values).map(([year, value]) => [`${year}-01-01`, value]);
}

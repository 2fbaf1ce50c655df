// Pure: series-file rows into dated observations, and daily observations into calendar-month averages.

import type { DatedObservation } from '../types.js';
import type { SeriesCsvRow } from './parse.js';

/** The published values in date order; periods without a value ("" or ".") are left out. */
export function mapSeriesCsv(rows: readonly SeriesCsvRow[]): DatedObservation[] {
  return rows.filter((row) => row.value !== '' && row.value !== '.').map((row) => ({ date: row.date, value: Number(row.value) }));
}

/**
 * The mean of each complete calendar month, dated the first of the month (the way FRED dates a
 * monthly average of a daily series). A month is complete once the series holds an observation in a
 * later month: the month the series stops in may still be filling, so it is left out rather than
 * averaged over its first days. Observations must ascend by date.
 */
export function monthlyAverages(observations: readonly DatedObservation[]): DatedObservation[] {
  const months = new Map<string, { sum: number; count: number }>();
  for (const { date, value } of observations) {
    const month = date.slice(0, 7);
    const entry = months.get(month) ?? { sum: 0, count: 0 };
    months.set(month, { sum: entry.sum + value, count: entry.count + 1 });
  }
  const complete = [...months].slice(0, -1);
  return complete.map(([month, { sum, count }]) => ({ date: `${month}-01`, value: sum / count }));
}

// Pure: NOAA GML CO2 rows into dated series.

import type { DatedObservation } from '../types.js';

/** Monthly means dated the first of their month; a negative mean (-99.99, the old files' missing month) is left out. */
export function mapGmlMonthlyMeans(rows: readonly number[][]): DatedObservation[] {
  return rows.filter((row) => row[3]! >= 0).map((row) => ({ date: `${row[0]}-${String(row[1]).padStart(2, '0')}-01`, value: row[3]! }));
}

/** Annual means dated the first of January of their year; a negative mean is left out. */
export function mapGmlAnnualMeans(rows: readonly number[][]): DatedObservation[] {
  return rows.filter((row) => row[1]! >= 0).map((row) => ({ date: `${row[0]}-01-01`, value: row[1]! }));
}

// Pure: GISTEMP years into a monthly series.

import type { DatedObservation } from '../types.js';
import type { GistempYear } from './parse.js';

const ANOMALY = /^-?\d*\.?\d+$/;

/** Monthly anomalies (degrees C against 1951-1980) dated the first of their month; "***" and empty cells are left out. */
export function mapGistempMonthly(years: readonly GistempYear[]): DatedObservation[] {
  return years
    .flatMap(({ year, months }) => months.map((cell, index) => ({ date: `${year}-${String(index + 1).padStart(2, '0')}-01`, cell: cell.trim() })))
    .filter(({ cell }) => ANOMALY.test(cell))
    .map(({ date, cell }) => ({ date, value: Number(cell) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

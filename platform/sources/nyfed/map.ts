// Pure: GSCPI rows into a monthly series dated the first of each month.

import type { DatedObservation } from '../types.js';
import type { GscpiRow } from './parse.js';

const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };
/** Excel's day 0 in the 1900 date system, as every reader counts it (1899-12-30, after Excel's 1900 leap-year slip). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

/** YYYY-MM of a month-end date cell: "31-Jan-1998" or an Excel day serial; undefined for anything else. */
export function gscpiMonth(date: string | number): string | undefined {
  if (typeof date === 'number') return new Date(EXCEL_EPOCH_MS + Math.round(date) * DAY_MS).toISOString().slice(0, 7);
  const [, monthName, year] = date.split('-');
  const month = MONTHS[monthName ?? ''];
  return month === undefined ? undefined : `${year}-${month}`;
}

/** Monthly values dated the first of their month (the snapshot's convention), in date order. */
export function mapGscpiMonthly(rows: readonly GscpiRow[]): DatedObservation[] {
  return rows
    .map((row) => ({ month: gscpiMonth(row.date), value: row.value }))
    .filter((row): row is { month: string; value: number } => row.month !== undefined)
    .map((row) => ({ date: `${row.month}-01`, value: row.value }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

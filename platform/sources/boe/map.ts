// Pure: IADB observations into a dated series.

import type { DatedObservation } from '../types.js';
import type { BoeObservation } from './parse.js';

const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };
const IADB_DAY = /^(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** "02 Jan 2026" -> "2026-01-02"; undefined for any other form. */
export function isoFromIadbDay(text: string): string | undefined {
  const match = IADB_DAY.exec(text.trim());
  const month = match ? MONTHS[match[2]!] : undefined;
  return match && month ? `${match[3]}-${month}-${match[1]!.padStart(2, '0')}` : undefined;
}

/** Dated values in date order; ".." (no observation) and any other non-number are left out. */
export function mapBoeDaily(observations: readonly BoeObservation[]): DatedObservation[] {
  return observations
    .map((o) => ({ date: isoFromIadbDay(o.date), value: o.value.trim() }))
    .filter((o): o is { date: string; value: string } => o.date !== undefined && NUMBER.test(o.value))
    .map((o) => ({ date: o.date, value: Number(o.value) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

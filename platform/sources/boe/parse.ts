// IADB CSV (DATE, then one column per series code) into raw rows for one series.

import { parse } from 'csv-parse/sync';
import { malformedBody } from '../errors.js';

export interface BoeObservation {
  /** DATE as published: "02 Jan 2026". */
  date: string;
  /** The value as published: a decimal, or ".." when there is none. */
  value: string;
}

/** The rows of `seriesCode`; an HTML error page (the IADB answers 200 with one) is malformed. */
export function parseBoeCsv(text: string, seriesCode: string): BoeObservation[] {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true, trim: true }) as Array<Record<string, string>>;
  } catch (cause) {
    throw malformedBody('boe', 'not CSV', cause);
  }
  const first = rows[0];
  if (first === undefined) throw malformedBody('boe', 'no observation rows');
  if (!('DATE' in first) || !(seriesCode in first)) throw malformedBody('boe', `no DATE and ${seriesCode} columns (${Object.keys(first).join(',').slice(0, 80)})`);
  return rows.map((row) => ({ date: row.DATE ?? '', value: row[seriesCode] ?? '' }));
}

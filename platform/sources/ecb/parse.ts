// SDMX-CSV from the ECB Data Portal into raw rows: the columns are found by their header names
// (KEY, FREQ, the dataflow's dimensions, TIME_PERIOD, OBS_VALUE, then attributes), never by position.

import { parse } from 'csv-parse/sync';
import { malformedBody } from '../errors.js';

export interface EcbObservation {
  /** TIME_PERIOD: YYYY-MM-DD for daily and business-daily series. */
  period: string;
  /** OBS_VALUE as published: a decimal, or empty when there is no observation. */
  value: string;
}

export function parseEcbCsv(text: string): EcbObservation[] {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>;
  } catch (cause) {
    throw malformedBody('ecb', 'not CSV', cause);
  }
  const first = rows[0];
  if (first === undefined) throw malformedBody('ecb', 'no observation rows');
  if (!('TIME_PERIOD' in first) || !('OBS_VALUE' in first)) throw malformedBody('ecb', `no TIME_PERIOD and OBS_VALUE columns (${Object.keys(first).join(',').slice(0, 80)})`);
  return rows.map((row) => ({ period: row.TIME_PERIOD ?? '', value: row.OBS_VALUE ?? '' }));
}

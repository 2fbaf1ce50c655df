// NOAA GML text tables into rows of numbers, columns as the file's own comment header names them.

import { malformedBody } from '../errors.js';

/**
 * Monthly files: year, month, decimal date, monthly mean (ppm), then file-specific columns
 * (co2_mm_mlo: de-seasonalised, days, st.dev, uncertainty; co2_mm_gl: mean uncertainty, trend,
 * trend uncertainty). Annual file: year, mean, uncertainty. Lines starting with '#' are comments.
 */
export function parseGmlTable(text: string, minimumColumns: number): number[][] {
  const rows = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/\s+/).map(Number));
  if (rows.length === 0) throw malformedBody('noaa-gml', 'no data rows');
  const bad = rows.find((row) => row.length < minimumColumns || row.some((value) => !Number.isFinite(value)));
  if (bad !== undefined) throw malformedBody('noaa-gml', `a row is not ${minimumColumns} or more numbers: ${bad.join(' ').slice(0, 80)}`);
  return rows;
}

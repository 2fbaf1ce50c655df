// The GSCPI workbook's "GSCPI Monthly Data" sheet into raw (date cell, value) rows.
// Layout as published: "Date" and "GSCPI" in row 1, a banner, then from row 6 a month-end date
// ("31-Jan-1998", stored as text) in column A and the index in column B.

import { malformedBody } from '../errors.js';
import { type CellValue, readWorksheet, type SheetRow } from '../xlsx.js';

export const GSCPI_SHEET = 'GSCPI Monthly Data';

export interface GscpiRow {
  /** Column A: "31-Jan-1998" as text, or an Excel day serial should the sheet ever store real dates. */
  date: string | number;
  /** Column B: standard deviations from the index's average. */
  value: number;
}

const TEXT_DATE = /^\d{1,2}-[A-Z][a-z]{2}-\d{4}$/;

function isDateCell(cell: CellValue | undefined): cell is string | number {
  return (typeof cell === 'string' && TEXT_DATE.test(cell.trim())) || typeof cell === 'number';
}

export async function parseGscpiWorkbook(bytes: Uint8Array): Promise<GscpiRow[]> {
  let rows: SheetRow[];
  try {
    rows = await readWorksheet(bytes, GSCPI_SHEET);
  } catch (cause) {
    throw malformedBody('nyfed', cause instanceof Error ? cause.message : 'unreadable workbook', cause);
  }
  if (String(rows[0]?.cells.get('B') ?? '').trim() !== 'GSCPI') throw malformedBody('nyfed', 'cell B1 does not read "GSCPI"');
  const data = rows.flatMap(({ cells }) => {
    const date = cells.get('A');
    const value = cells.get('B');
    return isDateCell(date) && typeof value === 'number' ? [{ date: typeof date === 'string' ? date.trim() : date, value }] : [];
  });
  if (data.length === 0) throw malformedBody('nyfed', 'no dated GSCPI rows');
  return data;
}

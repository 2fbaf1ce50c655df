// The Pink Sheet workbook's "Monthly Prices" sheet into named columns of raw cells.
// Layout as published: title rows, a row of commodity names, a row of units such as "($/bbl)",
// then one row per month whose first cell reads "1960M01"; "…" or "..." where there is no price.

import { malformedBody } from '../errors.js';
import { type CellValue, readWorksheet, type SheetRow } from '../xlsx.js';

export const PINK_SHEET_MONTHLY_PRICES = 'Monthly Prices';

const MONTH = /^(\d{4})M(\d{2})$/;
const UNITS = /^\(.*\)$/;

export interface PinkSheetColumn {
  /** The commodity's name as published, whitespace trimmed: "Crude oil, Brent", "Wheat, US HRW". */
  name: string;
  /** "($/bbl)", "($/mt)", ... */
  units: string;
  /** The column's cell in each month, keyed YYYY-MM; absent when the cell is empty. */
  cells: ReadonlyMap<string, CellValue>;
}

export interface PinkSheetMonthly {
  /** Line such as "Updated on June 02, 2026" when the sheet has one. */
  updated: string | undefined;
  columns: PinkSheetColumn[];
}

export async function parsePinkSheetMonthly(bytes: Uint8Array): Promise<PinkSheetMonthly> {
  let rows: SheetRow[];
  try {
    rows = await readWorksheet(bytes, PINK_SHEET_MONTHLY_PRICES);
  } catch (cause) {
    throw malformedBody('worldbank', cause instanceof Error ? cause.message : 'unreadable workbook', cause);
  }
  const firstMonth = rows.findIndex((row) => MONTH.test(String(row.cells.get('A') ?? '')));
  const names = rows[firstMonth - 2];
  const units = rows[firstMonth - 1];
  if (firstMonth < 2 || names === undefined || units === undefined) throw malformedBody('worldbank', 'no month rows under a names row and a units row');
  const months = rows.slice(firstMonth).filter((row) => MONTH.test(String(row.cells.get('A') ?? '')));
  const columns = [...names.cells]
    .filter(([column, name]) => column !== 'A' && typeof name === 'string' && UNITS.test(String(units.cells.get(column) ?? '')))
    .map(([column, name]) => ({ name: String(name).trim(), units: String(units.cells.get(column)), cells: columnCells(months, column) }));
  if (columns.length === 0) throw malformedBody('worldbank', 'no commodity column with its units');
  const updated = rows
    .slice(0, firstMonth)
    .flatMap((row) => [...row.cells.values()])
    .find((cell) => typeof cell === 'string' && cell.startsWith('Updated on'));
  return { updated: updated === undefined ? undefined : String(updated), columns };
}

function columnCells(months: readonly SheetRow[], column: string): Map<string, CellValue> {
  const cells = new Map<string, CellValue>();
  for (const row of months) {
    const [, year, month] = MONTH.exec(String(row.cells.get('A')))!;
    const cell = row.cells.get(column);
    if (cell !== undefined) cells.set(`${year}-${month}`, cell);
  }
  return cells;
}

// One worksheet of an Office Open XML workbook (.xlsx) as rows of cell values, read with exceljs.
// Formulas are read as their cached results, rich text as its runs joined; a cell exceljs reads as a
// Date (a number under a date format) is given back as its Excel day serial, as the workbook stores it.

import type ExcelJS from 'exceljs';

export type CellValue = string | number | boolean;

export interface SheetRow {
  /** The 1-based row number the sheet gives. */
  row: number;
  /** Cell values by column letters ("A", "AB"); empty cells are absent. */
  cells: ReadonlyMap<string, CellValue>;
}

/** A workbook larger than this is refused before it is unzipped: the publishers' workbooks are a few MB. */
export const MAX_WORKBOOK_BYTES = 32 * 1024 * 1024;

const DAY_MS = 86_400_000;
/** Excel's day 0 in the 1900 date system (1899-12-30 UTC); the 1904 system starts 1462 days later. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DATE_1904_OFFSET_DAYS = 1462;

/** The rows of the sheet named `sheetName`; throws an Error saying what is wrong when the bytes are not such a workbook. */
export async function readWorksheet(bytes: Uint8Array, sheetName: string): Promise<SheetRow[]> {
  if (bytes.byteLength > MAX_WORKBOOK_BYTES) throw new Error(`workbook is larger than ${MAX_WORKBOOK_BYTES} bytes`);
  // Loaded on first use: exceljs takes most of a second to import, and only the live workbook feeds need it.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as Parameters<ExcelJS.Xlsx['load']>[0]);
  } catch (cause) {
    throw new Error(`not a readable .xlsx workbook (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
  const sheet = workbook.getWorksheet(sheetName);
  if (sheet === undefined) throw new Error(`workbook has no sheet named "${sheetName}"`);
  const date1904 = workbook.properties.date1904 === true;
  const rows: SheetRow[] = [];
  sheet.eachRow((row, number) => {
    const cells = new Map<string, CellValue>();
    row.eachCell((cell, column) => {
      const value = cellValue(cell.value, date1904);
      if (value !== undefined) cells.set(columnLetters(column - 1), value);
    });
    rows.push({ row: number, cells });
  });
  return rows;
}

/** Column letters of a 0-based column index: 0 -> "A", 27 -> "AB". */
export function columnLetters(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** Excel day serial of a date exceljs read from a date-formatted number (the inverse of its own conversion). */
function excelSerial(date: Date, date1904: boolean): number {
  const serial = (date.getTime() - EXCEL_EPOCH_MS) / DAY_MS - (date1904 ? DATE_1904_OFFSET_DAYS : 0);
  // exceljs rounds the date to the millisecond: undo the float noise that leaves on whole days.
  return Math.round(serial * 1e9) / 1e9;
}

function cellValue(value: ExcelJS.CellValue, date1904: boolean): CellValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`numeric cell holds ${String(value)}`);
    return value;
  }
  if (value instanceof Date) return excelSerial(value, date1904);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('error' in value) return value.error;
  if ('formula' in value || 'sharedFormula' in value) return value.result === undefined ? undefined : cellValue(value.result, date1904);
  if ('hyperlink' in value) return value.text;
  return undefined;
}

// GISTEMP's wide table (a year per row, a month per column) into raw rows, cells as published.

import { malformedBody } from '../errors.js';

export const GISTEMP_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export interface GistempYear {
  year: number;
  /** The twelve monthly anomaly cells, January first, as text: ".88", "-.19", "***" or "" when not yet published. */
  months: string[];
}

export function parseGistempTable(text: string): GistempYear[] {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const header = lines.findIndex((line) => line.startsWith('Year,'));
  if (header === -1) throw malformedBody('gistemp', 'no "Year," header line');
  const columns = lines[header]!.split(',');
  const monthColumns = GISTEMP_MONTHS.map((month) => columns.indexOf(month));
  if (monthColumns.some((index) => index === -1)) throw malformedBody('gistemp', `header lacks a month column: ${lines[header]!.slice(0, 80)}`);
  const years = lines
    .slice(header + 1)
    .map((line) => line.split(','))
    .filter((cells) => /^\d{4}$/.test(cells[0] ?? ''))
    .map((cells) => ({ year: Number(cells[0]), months: monthColumns.map((index) => cells[index] ?? '') }));
  if (years.length === 0) throw malformedBody('gistemp', 'no year rows');
  return years;
}

// Pure: one Pink Sheet column into a monthly series.

import type { DatedObservation } from '../types.js';
import type { PinkSheetMonthly } from './parse.js';

/**
 * The monthly prices of the commodity named `name` (as the sheet spells it, trimmed), dated the
 * first of their month; text cells ("…", "...": no price that month) are left out. Undefined when
 * the sheet has no such column.
 */
export function mapPinkSheetColumn(sheet: PinkSheetMonthly, name: string): DatedObservation[] | undefined {
  const column = sheet.columns.find((candidate) => candidate.name === name);
  if (column === undefined) return undefined;
  return [...column.cells]
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([month, value]) => ({ date: `${month}-01`, value }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

// A shipped series file (date,value CSV, ascending) into raw rows, the columns as the file names them.

/** One line of a series file: the date and the value as written ("" or "." when not published). */
export interface SeriesCsvRow {
  /** date: YYYY-MM-DD, the start of the observation period (the first of the month for monthly series). */
  date: string;
  /** value: a decimal number as written; "" or "." marks a period without a published value. */
  value: string;
}

/**
 * A series file that breaks the format. Not a SourceUnavailableError: a shipped file does not go
 * down and come back, so there is nothing to fall back to; it is a packaging fault to fail loudly on.
 */
export class SeriesFileError extends Error {
  override readonly name = 'SeriesFileError';
}

const HEADER = 'date,value';
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const VALUE = /^(-?\d+(\.\d+)?([eE][-+]?\d+)?|\.?)$/;

/** Every row in file order; throws SeriesFileError naming the file and line of the first fault. */
export function parseSeriesCsv(text: string, file: string): SeriesCsvRow[] {
  const lines = text.split(/\r?\n/).filter((line) => line !== '');
  if (lines[0] !== HEADER) throw new SeriesFileError(`${file}: the header must be "${HEADER}", found "${lines[0] ?? ''}"`);
  const rows: SeriesCsvRow[] = [];
  lines.slice(1).forEach((line, index) => {
    const lineNumber = index + 2;
    const [date = '', value = '', ...rest] = line.split(',');
    if (rest.length > 0 || !DATE.test(date) || !VALUE.test(value)) throw new SeriesFileError(`${file}:${lineNumber}: expected YYYY-MM-DD,number, found "${line}"`);
    const previous = rows.at(-1);
    if (previous !== undefined && date <= previous.date) throw new SeriesFileError(`${file}:${lineNumber}: ${date} does not follow ${previous.date}; dates must ascend without repeats`);
    rows.push({ date, value });
  });
  return rows;
}

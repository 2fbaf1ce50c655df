import type { Figures } from './load.js';

/** Requests per second as a whole number with thousands separators. */
export const rate = (figures: Figures) => Math.round(figures.requestsPerSecond).toLocaleString('en-US');
export const times = (value: number) => `${value.toFixed(2)}x`;
export const count = (value: number) => value.toLocaleString('en-US');

/** A markdown table; each row a list of cells. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

/** A section: its heading, what it compares, then its tables and notes. */
export function section(title: string, intro: readonly string[], body: readonly string[]): string[] {
  return [`## ${title}`, '', ...intro, '', ...body, ''];
}

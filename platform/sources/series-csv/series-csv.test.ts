import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mapSeriesCsv, monthlyAverages } from './map.js';
import { parseSeriesCsv, SeriesFileError } from './parse.js';

const WTI_FIXTURE = 'wti-daily-eia-2026-06-29_2026-08-04.csv';
const readFixture = (file: string): string => readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');

describe('parseSeriesCsv', () => {
  it('reads the rows of a shipped series file in order, values as written', () => {
    const rows = parseSeriesCsv(readFixture(WTI_FIXTURE), WTI_FIXTURE);
    expect(rows).toHaveLength(26);
    expect(rows[0]).toEqual({ date: '2026-06-29', value: '71.87' });
    expect(rows.at(-1)).toEqual({ date: '2026-08-04', value: '77.33' });
  });

  it('accepts CRLF line ends, a trailing newline and periods without a value', () => {
    expect(parseSeriesCsv('date,value\r\n2025-01-01,2\r\n2025-02-01,.\r\n2025-03-01,\r\n', 'x.csv')).toEqual([
      { date: '2025-01-01', value: '2' },
      { date: '2025-02-01', value: '.' },
      { date: '2025-03-01', value: '' },
    ]);
  });

  it.each([
    { name: 'another header', text: 'observation_date,WPU081\n2025-01-01,1\n', message: /x\.csv: the header must be "date,value"/ },
    { name: 'a third column', text: 'date,value\n2025-01-01,1,2\n', message: /x\.csv:2: expected YYYY-MM-DD,number/ },
    { name: 'a date that is not ISO', text: 'date,value\n01/02/2025,1\n', message: /x\.csv:2: expected/ },
    { name: 'a value that is not a number', text: 'date,value\n2025-01-01,1\n2025-02-01,n/a\n', message: /x\.csv:3: expected/ },
    { name: 'dates out of order', text: 'date,value\n2025-02-01,1\n2025-01-01,2\n', message: /x\.csv:3: 2025-01-01 does not follow 2025-02-01/ },
    { name: 'a repeated date', text: 'date,value\n2025-01-01,1\n2025-01-01,2\n', message: /does not follow/ },
  ])('rejects $name, naming the file and line', ({ text, message }) => {
    expect(() => parseSeriesCsv(text, 'x.csv')).toThrow(SeriesFileError);
    expect(() => parseSeriesCsv(text, 'x.csv')).toThrow(message);
  });
});

describe('mapSeriesCsv', () => {
  it('turns the written values into numbers and leaves out periods without one', () => {
    const rows = [
      { date: '2025-01-01', value: '-1.5' },
      { date: '2025-02-01', value: '.' },
      { date: '2025-03-01', value: '' },
      { date: '2025-04-01', value: '2e3' },
    ];
    expect(mapSeriesCsv(rows)).toEqual([
      { date: '2025-01-01', value: -1.5 },
      { date: '2025-04-01', value: 2000 },
    ]);
  });
});

describe('monthlyAverages', () => {
  it('averages each complete month of the recorded WTI days and leaves out the month still filling', () => {
    const averages = monthlyAverages(mapSeriesCsv(parseSeriesCsv(readFixture(WTI_FIXTURE), WTI_FIXTURE)));
    expect(averages.map((a) => a.date)).toEqual(['2026-06-01', '2026-07-01']);
    // June in the fixture: (71.87 + 70.56) / 2 = 71.215
    expect(averages[0]?.value).toBeCloseTo(71.215, 10);
    // July: 22 trading days summing to 1,770.04 → 80.456364; August (3rd and 4th only) is not complete
    expect(averages[1]?.value).toBeCloseTo(80.456364, 6);
  });

  it('has nothing to give for a series inside one month, or an empty one', () => {
    expect(monthlyAverages([{ date: '2026-08-03', value: 1 }])).toEqual([]);
    expect(monthlyAverages([])).toEqual([]);
  });
});

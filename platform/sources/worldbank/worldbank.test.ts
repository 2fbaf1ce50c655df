import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, testOptions } from '../testing/fixture-fetch.js';
import { workbookFixture } from '../testing/workbook-fixture.js';
import { fetchPinkSheetMonthly } from './fetch.js';
import { mapPinkSheetColumn } from './map.js';
import { parsePinkSheetMonthly } from './parse.js';

const workbook = workbookFixture('worldbank', 'pink-sheet-monthly-excerpt');
const sheet = await parsePinkSheetMonthly(workbook);

describe('fetchPinkSheetMonthly', () => {
  it('downloads the configured workbook as bytes', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: (url) => url.pathname.endsWith('/CMO-Historical-Data-Monthly.xlsx'), body: workbook }]);
    const bytes = await fetchPinkSheetMonthly(testOptions(fetch));
    expect(requests[0]?.host).toBe('thedocs.worldbank.org');
    expect(bytes).toEqual(workbook);
  });
});

describe('parsePinkSheetMonthly', () => {
  it('finds the names row and the units row above the first month, names trimmed', () => {
    expect(sheet.updated).toBe('Updated on June 02, 2026');
    expect(sheet.columns.map((column) => column.name)).toContain('Rice, Thai 5%');
    expect(sheet.columns.find((column) => column.name === 'Iron ore, cfr spot')?.units).toBe('($/dmtu)');
  });

  it.each([
    { name: 'bytes that are not a workbook', bytes: new TextEncoder().encode('<html>moved</html>') },
    { name: 'a workbook without the Monthly Prices sheet', bytes: workbookFixture('nyfed', 'gscpi-data-excerpt') },
  ])('refuses $name as malformed', async ({ bytes }) => {
    const error = await failureOf(Promise.resolve().then(() => parsePinkSheetMonthly(bytes)));
    expect(error).toMatchObject({ source: 'worldbank', kind: 'malformed-body' });
  });
});

describe('mapPinkSheetColumn', () => {
  it('dates each monthly price the first of its month ("2026M05" -> 2026-05-01)', () => {
    // Row 7 is 1960M01 (Brent 1.63), rows 799-803 are 2026M01-2026M05.
    expect(mapPinkSheetColumn(sheet, 'Crude oil, Brent')).toEqual([
      { date: '1960-01-01', value: 1.63 },
      { date: '2026-01-01', value: 66.77 },
      { date: '2026-02-01', value: 71.11 },
      { date: '2026-03-01', value: 103.69 },
      { date: '2026-04-01', value: 120.42 },
      { date: '2026-05-01', value: 107.54 },
    ]);
  });

  it('drops the "…" of a month with no price (WTI starts in 1982) and "..." (Barley, 2026)', () => {
    expect(mapPinkSheetColumn(sheet, 'Crude oil, WTI')?.map((o) => o.date)).toEqual(['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01']);
    expect(mapPinkSheetColumn(sheet, 'Barley')).toEqual([{ date: '1960-01-01', value: 20.36 }]);
  });

  it('reads the shortest decimal of a binary float as written (136.86000000000001 -> 136.86)', () => {
    expect(mapPinkSheetColumn(sheet, 'Coal, Australian')?.at(-1)).toEqual({ date: '2026-05-01', value: 136.86 });
  });

  it('answers undefined for a column the sheet does not have', () => {
    expect(mapPinkSheetColumn(sheet, 'Unobtainium')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, testOptions } from '../testing/fixture-fetch.js';
import { workbookFixture } from '../testing/workbook-fixture.js';
import { fetchGscpiWorkbook } from './fetch.js';
import { gscpiMonth, mapGscpiMonthly } from './map.js';
import { parseGscpiWorkbook } from './parse.js';

const workbook = workbookFixture('nyfed', 'gscpi-data-excerpt');

describe('fetchGscpiWorkbook', () => {
  it('downloads the configured workbook from the New York Fed', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: (url) => url.pathname.endsWith('/gscpi_data.xlsx'), body: workbook }]);
    await fetchGscpiWorkbook(testOptions(fetch));
    expect(String(requests[0])).toBe('https://www.newyorkfed.org/medialibrary/research/interactives/gscpi/downloads/gscpi_data.xlsx');
  });
});

describe('mapGscpiMonthly', () => {
  it('dates each month-end row the first of its month and keeps the full-precision index', async () => {
    // Rows 6-9: Jan-Apr 1998; rows 328-331: Nov 2024-Feb 2025 (the shipped vintage rounds these to 6 decimals).
    expect(mapGscpiMonthly(await parseGscpiWorkbook(workbook))).toEqual([
      { date: '1998-01-01', value: -1.0828779186089943 },
      { date: '1998-02-01', value: -0.45547077930134533 },
      { date: '1998-03-01', value: -0.078439517550171658 },
      { date: '1998-04-01', value: -0.13727907590350433 },
      { date: '2024-11-01', value: -0.27209558319353438 },
      { date: '2024-12-01', value: -0.26377402244415432 },
      { date: '2025-01-01', value: -0.19299453678795189 },
      { date: '2025-02-01', value: -0.071717317145561926 },
    ]);
  });

  it.each([
    ['31-Jan-1998', '1998-01'],
    ['28-Feb-2025', '2025-02'],
    // An Excel day serial, should the sheet ever store dates as dates: 45716 is 2025-02-28.
    [45716, '2025-02'],
  ])('reads the month of %s as %s', (cell, month) => {
    expect(gscpiMonth(cell)).toBe(month);
  });
});

describe('parseGscpiWorkbook', () => {
  it('refuses a workbook whose sheet does not head its column GSCPI', async () => {
    const error = await failureOf(Promise.resolve().then(() => parseGscpiWorkbook(workbookFixture('worldbank', 'pink-sheet-monthly-excerpt'))));
    expect(error).toMatchObject({ source: 'nyfed', kind: 'malformed-body' });
  });
});

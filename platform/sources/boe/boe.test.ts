import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { fetchBoeSeries, iadbDay, SONIA_SERIES_CODE } from './fetch.js';
import { isoFromIadbDay, mapBoeDaily } from './map.js';
import { parseBoeCsv } from './parse.js';

describe('fetchBoeSeries', () => {
  it('asks the IADB for one series code as tabular CSV from the given day, with the User-Agent it requires', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: pathIs('www.bankofengland.co.uk', '/boeapps/database/_iadb-fromshowcolumns.asp'), body: readFixture('boe', 'iudsoia.csv') }]);
    let userAgent: string | null = null;
    const spying: typeof globalThis.fetch = (input, init) => {
      userAgent = new Headers(init?.headers).get('user-agent');
      return fetch(input, init);
    };
    await fetchBoeSeries(testOptions(spying, { userAgent: 'rail test' }), SONIA_SERIES_CODE, new Date('2026-07-31T00:00:00Z'));
    expect([...(requests[0]?.searchParams ?? [])]).toEqual([
      ['csv.x', 'yes'],
      ['Datefrom', '31/Jul/2026'],
      ['Dateto', 'now'],
      ['SeriesCodes', 'IUDSOIA'],
      ['CSVF', 'TN'],
      ['UsingCodes', 'Y'],
      ['VPD', 'Y'],
      ['VFD', 'N'],
    ]);
    expect(userAgent).toBe('rail test');
  });

  it('writes the day as DD/Mon/YYYY', () => {
    expect(iadbDay(new Date('2026-01-02T23:00:00Z'))).toBe('02/Jan/2026');
  });
});

describe('mapBoeDaily', () => {
  it('reads "DD Mon YYYY" days and drops ".." (no observation)', () => {
    expect(mapBoeDaily(parseBoeCsv(readFixture('boe', 'iudsoia.csv'), SONIA_SERIES_CODE))).toEqual([
      { date: '2026-07-31', value: 3.7313 },
      { date: '2026-08-03', value: 3.7321 },
      { date: '2026-08-04', value: 3.7318 },
      { date: '2026-08-05', value: 3.7313 },
    ]);
  });

  it.each([
    ['02 Jan 2026', '2026-01-02'],
    ['2 Jan 2026', '2026-01-02'],
    ['31 Dec 2025', '2025-12-31'],
    ['2026-01-02', undefined],
    ['02 Foo 2026', undefined],
  ])('reads %s as %s', (text, iso) => {
    expect(isoFromIadbDay(text)).toBe(iso);
  });
});

describe('parseBoeCsv', () => {
  it('refuses the HTML page the database answers with status 200 when it refuses a request', async () => {
    const error = await failureOf(Promise.resolve().then(() => parseBoeCsv(readFixture('boe', 'error-page.html'), SONIA_SERIES_CODE)));
    expect(error).toMatchObject({ source: 'boe', kind: 'malformed-body' });
  });

  it('refuses a CSV without the asked series column', async () => {
    const error = await failureOf(Promise.resolve().then(() => parseBoeCsv('DATE,IUDBEDR\n02 Jan 2026,3.75\n', SONIA_SERIES_CODE)));
    expect(error.detail).toContain('IUDSOIA');
  });
});

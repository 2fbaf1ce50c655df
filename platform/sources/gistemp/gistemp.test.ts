import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { fetchGistempGlobal } from './fetch.js';
import { mapGistempMonthly } from './map.js';
import { parseGistempTable } from './parse.js';

const FIXTURE = 'GLB.Ts+dSST-excerpt.csv';

describe('fetchGistempGlobal', () => {
  it('asks GISS for GLB.Ts+dSST.csv in the v4 table folder', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: pathIs('data.giss.nasa.gov', '/gistemp/tabledata_v4/GLB.Ts+dSST.csv'), body: readFixture('gistemp', FIXTURE) }]);
    await fetchGistempGlobal(testOptions(fetch));
    expect(requests.map(String)).toEqual(['https://data.giss.nasa.gov/gistemp/tabledata_v4/GLB.Ts+dSST.csv']);
  });
});

describe('mapGistempMonthly', () => {
  const series = mapGistempMonthly(parseGistempTable(readFixture('gistemp', FIXTURE)));

  it('reads one anomaly per month, leading-dot decimals and signs as published', () => {
    // 1880: -.19 -.25 -.09 ...; 1881 Mar .03 and Jul .00; 2024 Dec 1.27.
    expect(series.slice(0, 3)).toEqual([
      { date: '1880-01-01', value: -0.19 },
      { date: '1880-02-01', value: -0.25 },
      { date: '1880-03-01', value: -0.09 },
    ]);
    expect(series.find((o) => o.date === '1881-03-01')?.value).toBe(0.03);
    expect(series.find((o) => o.date === '1881-07-01')?.value).toBe(0);
    expect(series.find((o) => o.date === '2024-12-01')?.value).toBe(1.27);
  });

  it('drops the months marked *** (not yet published) and ignores the seasonal columns', () => {
    // 4 years x 12 months, less 2025 Jul-Dec: 42 monthly values; the newest is 2025-06 (1.03).
    expect(series).toHaveLength(42);
    expect(series.at(-1)).toEqual({ date: '2025-06-01', value: 1.03 });
  });
});

describe('parseGistempTable', () => {
  it.each([
    { name: 'no header line', text: 'Land-Ocean: Global Means\n1880,-.19\n' },
    { name: 'a header without months', text: 'Year,J-D\n1880,-.17\n' },
    { name: 'no year rows', text: 'Year,Jan,Feb,Mar,Apr,May,Jun,Jul,Aug,Sep,Oct,Nov,Dec\n' },
  ])('refuses $name as malformed', async ({ text }) => {
    const error = await failureOf(Promise.resolve().then(() => parseGistempTable(text)));
    expect(error).toMatchObject({ source: 'gistemp', kind: 'malformed-body' });
  });
});

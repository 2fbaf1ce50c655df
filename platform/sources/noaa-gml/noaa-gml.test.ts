import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { fetchGmlCo2 } from './fetch.js';
import { mapGmlAnnualMeans, mapGmlMonthlyMeans } from './map.js';
import { parseGmlTable } from './parse.js';

describe('fetchGmlCo2', () => {
  it('asks NOAA GML for the named trend file under its CO2 data folder', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: pathIs('gml.noaa.gov', '/webdata/ccgg/trends/co2/co2_mm_mlo.txt'), body: readFixture('noaa-gml', 'co2_mm_mlo-excerpt.txt') }]);
    const text = await fetchGmlCo2(testOptions(fetch), 'co2_mm_mlo.txt');
    expect(requests.map(String)).toEqual(['https://gml.noaa.gov/webdata/ccgg/trends/co2/co2_mm_mlo.txt']);
    expect(text).toContain('2026    6');
  });
});

describe('mapGmlMonthlyMeans', () => {
  it('dates the Mauna Loa monthly means the first of their month and keeps the mean column', () => {
    // co2_mm_mlo-excerpt.txt: 1958-03..05 (Scripps, -1 days, -9.99 st.dev) and 2026-03..06.
    expect(mapGmlMonthlyMeans(parseGmlTable(readFixture('noaa-gml', 'co2_mm_mlo-excerpt.txt'), 4))).toEqual([
      { date: '1958-03-01', value: 315.71 },
      { date: '1958-04-01', value: 317.45 },
      { date: '1958-05-01', value: 317.51 },
      { date: '2026-03-01', value: 430.15 },
      { date: '2026-04-01', value: 431.12 },
      { date: '2026-05-01', value: 432.34 },
      { date: '2026-06-01', value: 431.44 },
    ]);
  });

  it('drops a month whose mean is the -99.99 missing marker of the older layout', () => {
    // co2_mm_mlo-2019-layout-excerpt.txt: 1958-06 is -99.99 (its interpolated 317.10 is not a measurement).
    const dates = mapGmlMonthlyMeans(parseGmlTable(readFixture('noaa-gml', 'co2_mm_mlo-2019-layout-excerpt.txt'), 4)).map((o) => o.date);
    expect(dates).toEqual(['1958-03-01', '1958-04-01', '1958-05-01', '1958-07-01']);
  });

  it('reads the global marine average from its own layout (mean in the fourth column too)', () => {
    expect(mapGmlMonthlyMeans(parseGmlTable(readFixture('noaa-gml', 'co2_mm_gl-excerpt.txt'), 4)).slice(-2)).toEqual([
      { date: '2026-03-01', value: 428.43 },
      { date: '2026-04-01', value: 428.55 },
    ]);
  });
});

describe('mapGmlAnnualMeans', () => {
  it('dates each annual mean the first of January', () => {
    expect(mapGmlAnnualMeans(parseGmlTable(readFixture('noaa-gml', 'co2_annmean_mlo-excerpt.txt'), 2))).toEqual([
      { date: '1959-01-01', value: 315.98 },
      { date: '1960-01-01', value: 316.91 },
      { date: '2023-01-01', value: 421.08 },
      { date: '2024-01-01', value: 424.61 },
      { date: '2025-01-01', value: 427.35 },
    ]);
  });
});

describe('parseGmlTable', () => {
  it.each([
    { name: 'an HTML page', text: '<html><body>Service unavailable</body></html>' },
    { name: 'comments only', text: '# nothing yet\n#\n' },
    { name: 'a row too short', text: '1958 3 1958.2\n' },
  ])('refuses $name as malformed', async ({ text }) => {
    const error = await failureOf(Promise.resolve().then(() => parseGmlTable(text, 4)));
    expect(error).toMatchObject({ source: 'noaa-gml', kind: 'malformed-body' });
  });
});

import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { fetchUsdmStateAreas } from './fetch.js';
import { isoDate, mapDroughtIndex } from './map.js';
import { parseUsdmRows, type UsdmRow } from './parse.js';

const NOW = new Date('2025-07-20T12:00:00Z');
const FIXTURE = readFixture('usdm', 'state-area-categorical-ia-il.json');
const BY_AREA = pathIs('usdmdataservices.unl.edu', '/api/StateStatistics/GetDroughtSeverityStatisticsByArea');

function row(mapDate: string, none: number, d: [number, number, number, number, number]): UsdmRow {
  return {
    MapDate: mapDate,
    None: none,
    D0: d[0],
    D1: d[1],
    D2: d[2],
    D3: d[3],
    D4: d[4],
    ValidStart: mapDate,
    ValidEnd: mapDate,
    StatisticFormatID: 2,
  };
}

describe('fetchUsdmStateAreas', () => {
  it('asks for categorical areas of the states over the last two weeks', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: BY_AREA, body: FIXTURE }]);
    await fetchUsdmStateAreas(testOptions(fetch), ['19', '17'], NOW);
    expect(Object.fromEntries(requests[0]?.searchParams ?? [])).toEqual({
      aoi: '19,17',
      startdate: '7/6/2025', // 2025-07-20 - 14 d
      enddate: '7/20/2025',
      statisticsType: '2',
    });
  });
});

describe('fixture through parse and map', () => {
  it('weighs the latest map of Iowa and Illinois by area', async () => {
    const { fetch } = fixtureFetch([{ matches: BY_AREA, body: FIXTURE }]);
    const rows = parseUsdmRows(await fetchUsdmStateAreas(testOptions(fetch), ['19', '17'], NOW));
    // Latest map 2025-07-15 (the all-None 2025-07-08 rows are ignored). Summed areas (sq mi):
    // D0 11400 + 17100 = 28500, D1 5700 + 11400 = 17100, D2 2850 + 3750 = 6600, D3 0 + 750 = 750,
    // None 36050 + 25000 = 61050; total 114000.
    // Index = (28500 x 1 + 17100 x 2 + 6600 x 3 + 750 x 4) / 114000 = 85500 / 114000 = 0.75
    // (the same as sum of pct_k x (k + 1) / 100 with pct_k = 100 x area_k / 114000)
    const drought = mapDroughtIndex(rows);
    expect(drought?.mapDate).toBe('2025-07-15');
    expect(drought?.droughtIndex).toBeCloseTo(0.75, 10);
  });
});

describe('mapDroughtIndex', () => {
  it.each([
    // all in D4: 100 x 5 / 100 = 5
    { name: 'all D4', rows: [row('20250715', 0, [0, 0, 0, 0, 100])], expected: 5 },
    // no drought: 0
    { name: 'no drought', rows: [row('20250715', 100, [0, 0, 0, 0, 0])], expected: 0 },
    // 50 % D0, 25 % D2: 50 x 1 / 100 + 25 x 3 / 100 = 0.5 + 0.75 = 1.25
    { name: 'a mix', rows: [row('20250715', 25, [50, 0, 25, 0, 0])], expected: 1.25 },
  ])('gives $expected for $name', ({ rows, expected }) => {
    expect(mapDroughtIndex(rows)?.droughtIndex).toBeCloseTo(expected, 10);
  });

  it('ignores traditional (cumulative) rows', () => {
    expect(mapDroughtIndex([{ ...row('20250715', 0, [100, 100, 0, 0, 0]), StatisticFormatID: 1 }])).toBeUndefined();
  });

  it('is undefined without rows', () => {
    expect(mapDroughtIndex([])).toBeUndefined();
  });

  it.each([
    ['20250715', '2025-07-15'],
    ['2025-07-15T00:00:00', '2025-07-15'],
  ])('reads the map date %s as %s', (input, expected) => {
    expect(isoDate(input)).toBe(expected);
  });
});

describe('parseUsdmRows', () => {
  it('accepts camelCase keys and numeric figures as well', () => {
    const camel = [
      {
        mapDate: '2025-07-15T00:00:00',
        stateAbbreviation: 'IA',
        none: 36050,
        d0: 11400,
        d1: 5700,
        d2: 2850,
        d3: 0,
        d4: 0,
        validStart: '2025-07-15T00:00:00',
        validEnd: '2025-07-21T23:59:59',
        statisticFormatID: 2,
      },
    ];
    expect(parseUsdmRows(camel)[0]).toMatchObject({ MapDate: '2025-07-15T00:00:00', D1: 5700, StatisticFormatID: 2 });
  });

  it.each([
    { name: 'an object instead of a list', body: { Message: 'An error has occurred.' } },
    { name: 'a figure that is not a number', body: [{ ...JSON.parse(FIXTURE)[0], D2: 'n/a' }] },
  ])('rejects $name as malformed', async ({ body }) => {
    const error = await failureOf(Promise.resolve().then(() => parseUsdmRows(body)));
    expect(error.kind).toBe('malformed-body');
    expect(error.source).toBe('usdm');
  });
});

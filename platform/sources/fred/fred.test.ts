import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { fetchFredObservations } from './fetch.js';
import { mapFredObservations } from './map.js';
import { parseFredObservations } from './parse.js';

const OBSERVATIONS = pathIs('api.stlouisfed.org', '/fred/series/observations');

describe('fetchFredObservations asks FRED for one series', () => {
  it('from the given day, in JSON, oldest first, the key in the query', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: OBSERVATIONS, body: readFixture('fred', 't10y2y.json') }]);
    await fetchFredObservations(testOptions(fetch), 'test-key', 'T10Y2Y', '2023-01-01');
    expect(`${requests[0]?.origin}${requests[0]?.pathname}`).toBe('https://api.stlouisfed.org/fred/series/observations');
    expect([...(requests[0]?.searchParams ?? [])]).toEqual([
      ['series_id', 'T10Y2Y'],
      ['api_key', 'test-key'],
      ['file_type', 'json'],
      ['observation_start', '2023-01-01'],
      ['sort_order', 'asc'],
    ]);
  });

  it('appends its path to a base that has one of its own', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: () => true, body: readFixture('fred', 't10y2y.json') }]);
    await fetchFredObservations({ ...testOptions(fetch), baseUrls: { fred: 'http://127.0.0.1:9/fred/' } }, 'k', 'T10Y2Y', '2023-01-01');
    expect(requests[0]?.pathname).toBe('/fred/series/observations');
  });
});

describe('mapFredObservations', () => {
  it.each([
    // t10y2y.json: 2026-10-05 0.52, 2026-10-06 "." (missing), 2026-10-07 0.51
    {
      name: 'the recorded T10Y2Y answer',
      fixture: 't10y2y.json',
      expected: [
        { date: '2026-10-05', value: 0.52 },
        { date: '2026-10-07', value: 0.51 },
      ],
    },
    // pwheamtusdm.json: 6 monthly prices, 2025-03-01 is "."
    {
      name: 'the recorded PWHEAMTUSDM answer',
      fixture: 'pwheamtusdm.json',
      expected: [
        { date: '2025-01-01', value: 232.4 },
        { date: '2025-02-01', value: 241.15 },
        { date: '2025-04-01', value: 226.9 },
        { date: '2025-05-01', value: 219.05 },
        { date: '2025-06-01', value: 214.7 },
      ],
    },
  ])('keeps the dated values of $name and drops the missing "."', ({ fixture, expected }) => {
    expect(mapFredObservations(parseFredObservations(JSON.parse(readFixture('fred', fixture))).observations)).toEqual(expected);
  });

  it('sorts by date and leaves out what is not a decimal number', () => {
    const observations = [
      { date: '2025-02-01', value: '-1.5' },
      { date: '2025-01-01', value: '2' },
      { date: '2025-03-01', value: 'n/a' },
    ];
    expect(mapFredObservations(observations)).toEqual([
      { date: '2025-01-01', value: 2 },
      { date: '2025-02-01', value: -1.5 },
    ]);
  });
});

describe('parseFredObservations', () => {
  it.each([
    { name: 'the FRED error object', body: { error_code: 400, error_message: 'Bad Request.' } },
    { name: 'a transformed series', body: { units: 'pch', observations: [] } },
    { name: 'a value that is not a string', body: { units: 'lin', observations: [{ date: '2025-01-01', value: 1 }] } },
  ])('rejects $name as malformed', async ({ body }) => {
    const error = await failureOf(Promise.resolve().then(() => parseFredObservations(body)));
    expect(error.kind).toBe('malformed-body');
    expect(error.source).toBe('fred');
  });
});

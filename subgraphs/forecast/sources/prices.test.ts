import { describe, expect, it } from 'vitest';
import { fetchFredObservations } from '../../../platform/sources/fred/fetch.js';
import { parseFredObservations } from '../../../platform/sources/fred/parse.js';
import { fixtureFetch, pathIs, readFixture, testOptions } from '../../../platform/sources/testing/fixture-fetch.js';
import { mapPricePoints, priceHistoryStart } from './prices.js';

const NOW = new Date('2025-07-20T12:00:00Z');
const FIXTURE = readFixture('fred', 'pwheamtusdm.json');
const OBSERVATIONS = pathIs('api.stlouisfed.org', '/fred/series/observations');

describe('fetchFredObservations', () => {
  it('asks for two years of the series in JSON, oldest first', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: OBSERVATIONS, body: FIXTURE }]);
    await fetchFredObservations(testOptions(fetch), 'test-key', 'PWHEAMTUSDM', priceHistoryStart(NOW));
    expect(Object.fromEntries(requests[0]?.searchParams ?? [])).toEqual({
      series_id: 'PWHEAMTUSDM',
      api_key: 'test-key',
      file_type: 'json',
      observation_start: '2023-07-20', // 24 months before 2025-07-20
      sort_order: 'asc',
    });
  });
});

describe('fixture through parse and map', () => {
  it('keeps dated prices and skips the missing "." value', async () => {
    const { fetch } = fixtureFetch([{ matches: OBSERVATIONS, body: FIXTURE }]);
    const { observations } = parseFredObservations(await fetchFredObservations(testOptions(fetch), 'test-key', 'PWHEAMTUSDM', priceHistoryStart(NOW)));
    // 6 observations, 2025-03-01 is "." -> 5 points
    expect(mapPricePoints(observations)).toEqual([
      { date: '2025-01-01', price: 232.4 },
      { date: '2025-02-01', price: 241.15 },
      { date: '2025-04-01', price: 226.9 },
      { date: '2025-05-01', price: 219.05 },
      { date: '2025-06-01', price: 214.7 },
    ]);
  });
});

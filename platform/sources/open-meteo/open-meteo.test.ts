import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, present, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { fetchOpenMeteoDaily, NORMAL_PERIOD, recentWindow } from './fetch.js';
import { mapDailyNormals, mapPointAnomaly, mapTemperatureAnomaly, MIN_VALID_DAYS } from './map.js';
import { type OpenMeteoLocation, parseOpenMeteoDaily } from './parse.js';

const NOW = new Date('2025-07-20T12:00:00Z');
const POINTS = [
  { lat: 41.6, lon: -93.6 },
  { lat: 40.5, lon: -88.9 },
];
const RECENT = readFixture('open-meteo', 'era5-recent-2025-06-15_2025-07-14.json');
const NORMALS = readFixture('open-meteo', 'era5-normal-excerpt-1991-1992.json');

function archiveFetch() {
  return fixtureFetch([
    { matches: (u) => u.searchParams.get('start_date') === NORMAL_PERIOD.start, body: NORMALS },
    { matches: (u) => u.searchParams.get('start_date') === '2025-06-15', body: RECENT },
  ]);
}

function location(time: string[], temperature_2m_mean: (number | null)[]): OpenMeteoLocation {
  return { latitude: 0, longitude: 0, daily_units: { temperature_2m_mean: '°C' }, daily: { time, temperature_2m_mean } };
}

describe('recentWindow', () => {
  it('ends 6 days before now (ERA5 delay) and spans 30 days', () => {
    // 2025-07-20 - 6 d = 2025-07-14; 2025-07-14 - 29 d = 2025-06-15
    expect(recentWindow(NOW)).toEqual({ start: '2025-06-15', end: '2025-07-14' });
  });
});

describe('fetchOpenMeteoDaily', () => {
  it('asks for every point in one ERA5 request', async () => {
    const { fetch, requests } = archiveFetch();
    await fetchOpenMeteoDaily(testOptions(fetch), POINTS, recentWindow(NOW));
    const params = Object.fromEntries(requests[0]?.searchParams ?? []);
    expect(requests[0]?.origin + (requests[0]?.pathname ?? '')).toBe('https://archive-api.open-meteo.com/v1/archive');
    expect(params).toEqual({
      latitude: '41.6,40.5',
      longitude: '-93.6,-88.9',
      start_date: '2025-06-15',
      end_date: '2025-07-14',
      daily: 'temperature_2m_mean',
      models: 'era5',
      timezone: 'GMT',
    });
  });

  it('sends at most 5 points', async () => {
    const { fetch, requests } = archiveFetch();
    const many = Array.from({ length: 7 }, (_, i) => ({ lat: i, lon: i }));
    await fetchOpenMeteoDaily(testOptions(fetch), many, NORMAL_PERIOD);
    expect(requests[0]?.searchParams.get('latitude')).toBe('0,1,2,3,4');
  });
});

describe('fixtures through parse and map', () => {
  it('computes the region anomaly against the same calendar days of the normal', async () => {
    const { fetch } = archiveFetch();
    const options = testOptions(fetch);
    const normals = parseOpenMeteoDaily(await fetchOpenMeteoDaily(options, POINTS, NORMAL_PERIOD)).map(mapDailyNormals);
    const recent = parseOpenMeteoDaily(await fetchOpenMeteoDaily(options, POINTS, recentWindow(NOW)));
    // Point A normals: June (21.0 + 23.0) / 2 = 22.0, July (23.0 + 25.0) / 2 = 24.0; the 35.0 of
    // 06-14 and 07-15 lie outside the window. Recent A: 16 June days at 23.0 (+1.0), 12 July days
    // at 26.75 (+2.75), 07-13 and 07-14 null: (16 x 1.0 + 12 x 2.75) / 28 = 49 / 28 = 1.75.
    // Point B normals: June (20.0 + 21.0) / 2 = 20.5, July (22.0 + 23.0) / 2 = 22.5. Recent B:
    // 16 June days at 20.0 (-0.5), 14 July days at 23.5 (+1.0): (-8 + 14) / 30 = 0.2.
    expect(normals[0]?.get('06-20')).toBe(22);
    expect(normals[1]?.get('07-02')).toBe(22.5);
    expect(mapPointAnomaly(present(recent[0]), present(normals[0]))).toBeCloseTo(1.75, 10);
    expect(mapPointAnomaly(present(recent[1]), present(normals[1]))).toBeCloseTo(0.2, 10);
    // Region: (1.75 + 0.2) / 2 = 0.975
    expect(mapTemperatureAnomaly(recent, normals)).toBeCloseTo(0.975, 10);
  });
});

describe('mapPointAnomaly', () => {
  const days = Array.from({ length: MIN_VALID_DAYS }, (_, i) => `2025-01-${String(i + 1).padStart(2, '0')}`);
  const normals = new Map(days.map((d) => [d.slice(5), 0.5]));

  it.each([
    // 15 days at 2.0 against 0.5: 1.5
    { name: 'all days valid', values: days.map(() => 2), expected: 1.5 },
    // one null leaves 14 valid days < MIN_VALID_DAYS (15)
    { name: 'too few valid days', values: [null, ...days.slice(1).map(() => 2)], expected: undefined },
  ])('$name', ({ values, expected }) => {
    expect(mapPointAnomaly(location(days, values), normals)).toBe(expected);
  });

  it('skips a day that has no normal', () => {
    const withExtra = [...days, '2025-02-01'];
    // 15 matched days at 2.0 - 0.5 = 1.5; 02-01 (40.0) has no normal and is ignored
    expect(mapPointAnomaly(location(withExtra, [...days.map(() => 2), 40]), normals)).toBe(1.5);
  });
});

describe('mapTemperatureAnomaly', () => {
  it('is undefined when no point is usable', () => {
    expect(mapTemperatureAnomaly([location(['2025-01-01'], [3])], [new Map([['01-01', 1]])])).toBeUndefined();
  });
});

describe('parseOpenMeteoDaily', () => {
  const one = present(parseOpenMeteoDaily(JSON.parse(RECENT))[0]);

  it('accepts the single-location object form', () => {
    expect(parseOpenMeteoDaily(one)).toHaveLength(1);
  });

  it.each([
    { name: 'another unit', body: { ...one, daily_units: { time: 'iso8601', temperature_2m_mean: '°F' } } },
    { name: 'columns of different length', body: { ...one, daily: { ...one.daily, time: ['2025-06-15'] } } },
    { name: 'the API error object', body: { error: true, reason: 'Parameter start_date is out of range' } },
    { name: 'an empty list', body: [] },
  ])('rejects $name as malformed', async ({ body }) => {
    const error = await failureOf(Promise.resolve().then(() => parseOpenMeteoDaily(body)));
    expect(error.kind).toBe('malformed-body');
    expect(error.source).toBe('open-meteo');
  });
});

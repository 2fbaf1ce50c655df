import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import { ESTR_SERIES, fetchEcbSeries } from './fetch.js';
import { mapEcbDaily } from './map.js';
import { parseEcbCsv } from './parse.js';

const FIXTURE = 'est-b-eu000a2x2a25-wt.csv';

describe('fetchEcbSeries', () => {
  it('asks the ECB Data Portal for the €STR series as SDMX-CSV from the given day', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: pathIs('data-api.ecb.europa.eu', '/service/data/EST/B.EU000A2X2A25.WT'), body: readFixture('ecb', FIXTURE) }]);
    await fetchEcbSeries(testOptions(fetch), ESTR_SERIES, '2026-07-31');
    expect(requests.map(String)).toEqual(['https://data-api.ecb.europa.eu/service/data/EST/B.EU000A2X2A25.WT?format=csvdata&startPeriod=2026-07-31']);
  });
});

describe('mapEcbDaily', () => {
  it('reads TIME_PERIOD and OBS_VALUE by their header names and drops the empty value', () => {
    expect(mapEcbDaily(parseEcbCsv(readFixture('ecb', FIXTURE)))).toEqual([
      { date: '2026-07-31', value: 2.184 },
      { date: '2026-08-03', value: 2.185 },
      { date: '2026-08-04', value: 2.185 },
      { date: '2026-08-05', value: 2.185 },
    ]);
  });

  it('finds the columns wherever the dataflow puts them', () => {
    const text = 'OBS_VALUE,KEY,TIME_PERIOD\n1.9,EST.B.EU000A2X2A25.WT,2026-06-22\n';
    expect(mapEcbDaily(parseEcbCsv(text))).toEqual([{ date: '2026-06-22', value: 1.9 }]);
  });
});

describe('parseEcbCsv', () => {
  it.each([
    { name: 'an empty answer', text: '' },
    { name: 'CSV without TIME_PERIOD', text: 'KEY,OBS_VALUE\nX,1\n' },
    { name: 'an XML error', text: '<?xml version="1.0"?><message:Error>No results found</message:Error>\n<a>"b</a>' },
  ])('refuses $name as malformed', async ({ text }) => {
    const error = await failureOf(Promise.resolve().then(() => parseEcbCsv(text)));
    expect(error).toMatchObject({ source: 'ecb', kind: 'malformed-body' });
  });
});

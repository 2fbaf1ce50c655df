import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import type { Bbox } from '../types.js';
import { fetchGdacsAlerts } from './fetch.js';
import { alertKind, mapRegionAlerts } from './map.js';
import { type GdacsFeature, parseGdacsEvents } from './parse.js';

const NOW = new Date('2025-07-20T12:00:00Z');
const CORN_BELT: Bbox = [-97.5, 36.0, -80.5, 49.5];
const MATO_GROSSO: Bbox = [-61.0, -18.0, -45.0, -7.0];
const FIXTURE = readFixture('gdacs', 'search-orange-red.json');
const SEARCH = pathIs('www.gdacs.org', '/gdacsapi/api/events/geteventlist/SEARCH');

function feature(properties: Partial<GdacsFeature['properties']>, bbox?: Bbox): GdacsFeature {
  const base: GdacsFeature = {
    geometry: { type: 'Point', coordinates: [-90, 40] },
    properties: {
      eventtype: 'FL',
      eventid: 1,
      episodeid: 1,
      name: 'Flood',
      alertlevel: 'Orange',
      iscurrent: 'true',
      fromdate: '2025-07-01T00:00:00',
      todate: '2025-07-19T00:00:00',
      ...properties,
    },
  };
  return bbox ? { ...base, bbox } : base;
}

describe('fetchGdacsAlerts', () => {
  it('asks for Orange and Red alerts of every type over the last 120 days', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: SEARCH, body: FIXTURE }]);
    await fetchGdacsAlerts(testOptions(fetch), NOW);
    expect(Object.fromEntries(requests[0]?.searchParams ?? [])).toEqual({
      eventlist: 'FL;TC;DR;EQ;WF;VO',
      alertlevel: 'Orange;Red',
      fromDate: '2025-03-22', // 2025-07-20 - 120 d
      toDate: '2025-07-20',
    });
  });

  it('reads 204 No Content as no alerts', async () => {
    const { fetch } = fixtureFetch([{ matches: SEARCH, status: 204, body: '' }]);
    const body = await fetchGdacsAlerts(testOptions(fetch), NOW);
    expect(parseGdacsEvents(body)).toEqual([]);
  });
});

describe('fixture through parse and map', () => {
  it('counts current Orange and Red alerts by kind in each box', async () => {
    const { fetch } = fixtureFetch([{ matches: SEARCH, body: FIXTURE }]);
    const features = parseGdacsEvents(await fetchGdacsAlerts(testOptions(fetch), NOW));
    expect(features).toHaveLength(5);
    // Corn Belt: FL Orange (bbox inside) -> flood 1; TC Red (bbox reaches lat 37.2 >= 36.0) -> storm 1;
    // EQ Orange (no bbox, centroid -89.52, 36.58 inside) -> other 1; WF not current -> 0; DR in Brazil -> 0
    expect(mapRegionAlerts(features, CORN_BELT)).toEqual({ flood: 1, storm: 1, drought: 0, other: 1 });
    // Mato Grosso: only the Brazil DR Orange (bbox -57.8..-44.2, -19.6..-8.9 overlaps) -> drought 1
    expect(mapRegionAlerts(features, MATO_GROSSO)).toEqual({ flood: 0, storm: 0, drought: 1, other: 0 });
  });
});

describe('mapRegionAlerts', () => {
  it.each([
    { name: 'a Green alert', f: feature({ alertlevel: 'Green' }), expected: 0 },
    { name: 'a Red alert', f: feature({ alertlevel: 'Red' }), expected: 1 },
    { name: 'an ended event', f: feature({ iscurrent: 'false' }), expected: 0 },
    { name: 'an event outside the box', f: feature({}, [10, 10, 11, 11]), expected: 0 },
  ])('counts $name as $expected', ({ f, expected }) => {
    expect(mapRegionAlerts([f], CORN_BELT).flood).toBe(expected);
  });

  it('counts an event listed twice once', () => {
    const twice = [feature({ episodeid: 1 }), feature({ episodeid: 2 })];
    expect(mapRegionAlerts(twice, CORN_BELT).flood).toBe(1);
  });

  it.each([
    ['FL', 'flood'],
    ['TC', 'storm'],
    ['DR', 'drought'],
    ['EQ', 'other'],
    ['WF', 'other'],
    ['VO', 'other'],
  ])('files %s under %s', (eventtype, kind) => {
    expect(alertKind(eventtype)).toBe(kind);
  });
});

describe('parseGdacsEvents', () => {
  it.each([
    { name: 'a body that is not a FeatureCollection', body: { type: 'Feature' } },
    { name: 'a feature without properties', body: { type: 'FeatureCollection', features: [{ geometry: { type: 'Point' } }] } },
  ])('rejects $name as malformed', async ({ body }) => {
    const error = await failureOf(Promise.resolve().then(() => parseGdacsEvents(body)));
    expect(error.kind).toBe('malformed-body');
    expect(error.source).toBe('gdacs');
  });
});

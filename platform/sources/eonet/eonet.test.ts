import { describe, expect, it } from 'vitest';
import { failureOf, fixtureFetch, pathIs, readFixture, testOptions } from '../testing/fixture-fetch.js';
import type { Bbox } from '../types.js';
import { fetchEonetWildfires } from './fetch.js';
import { mapActiveWildfires } from './map.js';
import { type EonetEvent, parseEonetEvents } from './parse.js';

const CORN_BELT: Bbox = [-97.5, 36.0, -80.5, 49.5];
const FIXTURE = readFixture('eonet', 'wildfires-open-corn-belt.json');

function eonetFetch() {
  return fixtureFetch([{ matches: pathIs('eonet.gsfc.nasa.gov', '/api/v3/events'), body: FIXTURE }]);
}

function fire(overrides: Partial<EonetEvent>): EonetEvent {
  return {
    id: 'EONET_1',
    title: 'Wildfire',
    closed: null,
    categories: [{ id: 'wildfires', title: 'Wildfires' }],
    geometry: [{ date: '2025-07-18T00:00:00Z', type: 'Point', coordinates: [-90, 40] }],
    ...overrides,
  };
}

describe('fetchEonetWildfires', () => {
  it('asks for open wildfires with the box as upper-left then lower-right corner', async () => {
    const { fetch, requests } = eonetFetch();
    await fetchEonetWildfires(testOptions(fetch), CORN_BELT);
    expect(Object.fromEntries(requests[0]?.searchParams ?? [])).toEqual({
      category: 'wildfires',
      status: 'open',
      bbox: '-97.5,49.5,-80.5,36',
    });
  });
});

describe('fixture through parse and map', () => {
  it('counts open fires whose latest position is in the box', async () => {
    const { fetch } = eonetFetch();
    const events = parseEonetEvents(await fetchEonetWildfires(testOptions(fetch), CORN_BELT));
    // 4 events: Pine Bend (MN, point inside) 1 + Cottonwood Draw (latest point -99.55, west of
    // -97.5, moved out) 0 + Shawnee Hills (polygon inside) 1 + Big Muddy (IL, inside) 1 = 3
    expect(events).toHaveLength(4);
    expect(mapActiveWildfires(events, CORN_BELT)).toBe(3);
  });
});

describe('mapActiveWildfires', () => {
  it.each([
    { name: 'an open wildfire inside', event: fire({}), expected: 1 },
    { name: 'a closed one', event: fire({ closed: '2025-07-19T00:00:00Z' }), expected: 0 },
    { name: 'another category', event: fire({ categories: [{ id: 'volcanoes', title: 'Volcanoes' }] }), expected: 0 },
    { name: 'one with no position', event: fire({ geometry: [] }), expected: 0 },
    {
      name: 'a polygon straddling the edge',
      event: fire({
        geometry: [
          {
            date: '2025-07-18T00:00:00Z',
            type: 'Polygon',
            coordinates: [
              [
                [-98, 40],
                [-97, 40],
                [-97, 41],
                [-98, 40],
              ],
            ],
          },
        ],
      }),
      expected: 1,
    },
  ])('counts $name as $expected', ({ event, expected }) => {
    expect(mapActiveWildfires([event], CORN_BELT)).toBe(expected);
  });
});

describe('parseEonetEvents', () => {
  it.each([
    { name: 'a body without events', body: { title: 'EONET Events' } },
    { name: 'an event with an unknown geometry type', body: { events: [{ ...fire({}), geometry: [{ date: 'x', type: 'Line', coordinates: [] }] }] } },
  ])('rejects $name as malformed', async ({ body }) => {
    const error = await failureOf(Promise.resolve().then(() => parseEonetEvents(body)));
    expect(error.kind).toBe('malformed-body');
    expect(error.source).toBe('eonet');
  });
});

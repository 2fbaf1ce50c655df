import { describe, expect, it } from 'vitest';
import { fetchFredObservations } from './fred/fetch.js';
import { buildUrl, getJson } from './http.js';
import { failureOf, fixtureFetch, hangingFetch, testOptions } from './testing/fixture-fetch.js';

const url = buildUrl('https://feed.example/api', '/events', { status: 'open' });

describe('getJson', () => {
  it('returns the parsed body of a 2xx answer', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: () => true, body: '{"events":[]}' }]);
    await expect(getJson('eonet', url, testOptions(fetch))).resolves.toEqual({ events: [] });
    expect(requests[0]?.href).toBe('https://feed.example/api/events?status=open');
  });

  it('gives up with a timeout error when the source never answers', async () => {
    const error = await failureOf(getJson('eonet', url, testOptions(hangingFetch, { timeoutMs: 20 })));
    expect(error.kind).toBe('timeout');
    expect(error.source).toBe('eonet');
    expect(error.message).toBe('eonet: no answer within 20 ms from feed.example/api/events');
  });

  it('reports a network error with its cause', async () => {
    const cause = new TypeError('fetch failed');
    const fetch: typeof globalThis.fetch = () => Promise.reject(cause);
    const error = await failureOf(getJson('gdacs', url, testOptions(fetch)));
    expect(error.kind).toBe('network');
    expect(error.cause).toBe(cause);
  });

  it.each([404, 429, 500, 503])('reports HTTP %i as unavailable with the status', async (status) => {
    const { fetch } = fixtureFetch([{ matches: () => true, status, body: '{"error":"busy"}' }]);
    const error = await failureOf(getJson('usdm', url, testOptions(fetch)));
    expect(error.kind).toBe('http-status');
    expect(error.status).toBe(status);
    expect(error.message).toBe(`usdm: HTTP ${status} from feed.example/api/events`);
  });

  it('reports a body that is not JSON as malformed', async () => {
    const { fetch } = fixtureFetch([{ matches: () => true, body: '<html>maintenance</html>' }]);
    const error = await failureOf(getJson('open-meteo', url, testOptions(fetch)));
    expect(error.kind).toBe('malformed-body');
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('secrets in errors', () => {
  it('never puts the FRED api key in an error message', async () => {
    const { fetch, requests } = fixtureFetch([{ matches: () => true, status: 400, body: '{}' }]);
    const error = await failureOf(fetchFredObservations(testOptions(fetch), 'k3y-s3cr3t', 'PWHEAMTUSDM', '2023-07-20'));
    expect(requests[0]?.searchParams.get('api_key')).toBe('k3y-s3cr3t');
    expect(error.message).toBe('fred: HTTP 400 from api.stlouisfed.org/fred/series/observations');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers.js';
import { catalogEntry, SIGNAL_CATALOG } from './catalog.js';
import { callSignal, exampleGraphQLArguments, getSignal, listedSignalEndpoints, querySignal, startSignalServer } from './testing.js';

const ENVELOPE = ['asOf', 'cacheHit', 'dataQuality', 'generatedAt', 'inputs', 'missingInputs', 'stale'];

let server: TestServer;
let key: string;
beforeAll(async () => {
  // esg/:address reads the compliance oracle's public interface: the server serves it too.
  ({ server, key } = await startSignalServer({ subgraphs: ['intelligence', 'compliance'] }));
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** A concrete URL of an endpoint: path parameters filled from its example. */
const EXAMPLE_PARAMETERS: Record<string, string> = { address: '0x000000000000000000000000000000000000dEaD' };
const urlOf = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => EXAMPLE_PARAMETERS[name]!);

describe.each(listedSignalEndpoints().map((endpoint) => ({ endpoint, entry: catalogEntry(endpoint.id, endpoint.summary) })))('$entry.path', ({ endpoint, entry }) => {
  it('answers 402 without payment, with the price of the endpoint table in token base units', async () => {
    const unpaid = await callSignal(server, endpoint, urlOf(entry.path));
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.accepts[0]).toMatchObject({ scheme: 'exact', network: 'base', maxAmountRequired: String(Math.round(Number(entry.priceUsd) * 1_000_000)) });
  });

  it('answers 200 with an API key: the rate-limit headers, X-Rail-Cache-Hit, X-Rail-Generated and the envelope fields', async () => {
    const paid = await callSignal(server, endpoint, urlOf(entry.path), key);
    expect(paid.status).toBe(200);
    expect(paid.headers['x-ratelimit-limit']).toBe('10000');
    expect(paid.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(paid.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect(paid.headers['x-rail-generated']).toBe(paid.body.generatedAt);
    expect(paid.headers['x-rail-cache-hit']).toBe(String(paid.body.cacheHit));
    expect(Object.keys(paid.body)).toEqual(expect.arrayContaining(ENVELOPE));
    for (const input of paid.body.inputs as Array<Record<string, unknown>>) {
      expect(input).toEqual({
        id: expect.any(String),
        title: expect.any(String),
        publisher: expect.any(String),
        url: expect.stringMatching(/^https:\/\//),
        licence: expect.any(String),
        asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        live: false,
        stale: expect.any(Boolean),
      });
    }
  });

  it.runIf(entry.cacheMs !== null)('serves the same answer from the cache inside its catalog time, and computes afresh after it', async () => {
    const first = await getSignal(server, urlOf(entry.path), key);
    const second = await getSignal(server, urlOf(entry.path), key);
    expect(second.body.cacheHit).toBe(true);
    expect(second.headers['x-rail-cache-hit']).toBe('true');
    expect(second.body.generatedAt).toBe(first.body.generatedAt);
    server.clock.advance(entry.cacheMs!);
    const after = await getSignal(server, urlOf(entry.path), key);
    expect(after.body.cacheHit).toBe(false);
    expect(after.headers['x-rail-cache-hit']).toBe('false');
    expect(after.body.generatedAt).toBe(server.clock.now().toISOString());
  });

  it('answers the GraphQL field with the same envelope, and null with GEN_ERR_PAYMENT_REQUIRED unpaid', async () => {
    const field = endpoint.graphql.field;
    const args = entry.path.includes(':address') ? `(address: "${EXAMPLE_PARAMETERS.address}")` : exampleGraphQLArguments(endpoint);
    const query = `{ ${field}${args} { generatedAt cacheHit dataQuality stale missingInputs inputs { id url licence asOf } } }`;
    const unpaid = await querySignal(server, query);
    expect(unpaid.data?.[field]).toBeNull();
    expect(unpaid.errors?.[0]?.extensions?.code).toBe('GEN_ERR_PAYMENT_REQUIRED');
    const paid = await querySignal(server, query, key);
    expect(paid.errors).toBeUndefined();
    expect(paid.data?.[field]).toMatchObject({ generatedAt: expect.any(String), dataQuality: expect.stringMatching(/^(LIVE|PARTIAL|ESTIMATED)$/) });
  });
});

describe('GET /.well-known/x402 at the service root', () => {
  it('lists every priced path of this issue with its price from the endpoint table', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/.well-known/x402' });
    expect(response.statusCode).toBe(200);
    const endpoints = response.json().endpoints as Record<string, { price: { amount: string; currency: string; decimals: number } }>;
    const served = listedSignalEndpoints().map((endpoint) => SIGNAL_CATALOG[endpoint.id]!);
    expect(Object.keys(endpoints).sort()).toEqual(served.map((entry) => `${entry.method} ${entry.path}`).sort());
    for (const entry of served) expect(endpoints[`${entry.method} ${entry.path}`]!.price).toEqual({ amount: String(Math.round(Number(entry.priceUsd) * 1e6)), currency: 'USDC', decimals: 6 });
  });
});

describe('refusals under /v1/intelligence: {error, code} (decision 0062)', () => {
  it('an unknown API key is 401 GEN_ERR_UNAUTHORIZED, never the answer', async () => {
    const refused = await getSignal(server, '/v1/intelligence/macro-stress', 'srk_not_a_key');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'GEN_ERR_UNAUTHORIZED' });
  });

  it('a key over its per-minute limit is 429 GEN_ERR_RATE_LIMITED with Retry-After and the rate-limit headers', async () => {
    const { key: small } = await server.platform!.access.keys.create('api', 'one call a minute', 1);
    expect((await getSignal(server, '/v1/intelligence/macro-stress', small)).status).toBe(200);
    const over = await getSignal(server, '/v1/intelligence/macro-stress', small);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: expect.any(String), code: 'GEN_ERR_RATE_LIMITED' });
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('an unknown path under the prefix is 404 in the same shape', async () => {
    const missing = await getSignal(server, '/v1/intelligence/no-such-signal', key);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.any(String), code: 'GEN_ERR_NOT_FOUND' });
  });
});

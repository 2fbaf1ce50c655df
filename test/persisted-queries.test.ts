import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

/** Automatic persisted queries, the Apollo protocol: a dashboard sends the hash, the text only once. */
describe('automatic persisted queries at /graphql', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const query = '{ heatCheck { commodities { symbol status } } }';
  const sha256Hash = createHash('sha256').update(query).digest('hex');
  const persisted = { persistedQuery: { version: 1, sha256Hash } };
  const post = (payload: Record<string, unknown>) => server.app.inject({ method: 'POST', url: '/graphql', payload });

  it('asks for the text of an unknown hash, registers it with the text, then runs it from the hash alone', async () => {
    const unknown = await post({ extensions: persisted });
    expect(unknown.json()).toMatchObject({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });

    const registered = await post({ query, extensions: persisted });
    expect(registered.statusCode).toBe(200);
    const byHash = await post({ extensions: persisted });
    expect(byHash.statusCode).toBe(200);
    expect(byHash.json()).toEqual(registered.json());
    expect(byHash.json().data.heatCheck.commodities.length).toBeGreaterThan(0);
  });

  it('runs a registered hash over GET with the preflight header, as a cacheable dashboard request', async () => {
    await post({ query, extensions: persisted });
    const response = await server.app.inject({
      method: 'GET',
      url: `/graphql?extensions=${encodeURIComponent(JSON.stringify(persisted))}`,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.heatCheck.commodities.length).toBeGreaterThan(0);
  });

  it('refuses a text whose hash does not match', async () => {
    const response = await post({ query: '{ heatCheck { asOf } }', extensions: persisted });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(/provided sha does not match query/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../platform/db.js';
import { injectJson, openTestPglite, startTestServer, TEST_NOW, type TestServer } from './helpers.js';

/** Every REST prefix answers its own GET <prefix>/health (decision 0059; issue 22 item 6). */
describe('each service prefix answers its own /health', () => {
  let database: DatabaseHandle;
  let server: TestServer;
  let bearer: string;
  beforeAll(async () => {
    database = await openTestPglite();
    // The oracles' first runs are made at start, so the stability and ESG bodies are their documented ones.
    server = await startTestServer({ database, environment: { ORACLE_SCHEDULER: 'true' } });
    bearer = (await server.platform!.access.keys.create('bearer', 'Health Check Bank')).key;
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('every prefix of every subgraph answers GET <prefix>/health: none is 404', async () => {
    const prefixes = server.subgraphs.flatMap((subgraph) => subgraph.restPrefixes);
    expect(prefixes.sort()).toEqual(['/agent', '/compliance', '/esg', '/forecast', '/integration', '/intelligence', '/reports', '/stability', '/v1/intelligence']);
    for (const prefix of prefixes) {
      const { status } = await injectJson(server, 'GET', `${prefix}/health`, { headers: { authorization: `Bearer ${bearer}` } });
      expect({ prefix, status }).toEqual({ prefix, status: 200 });
    }
  });

  it('the spec documents four bodies, answered as documented: stability, ESG, reports and integration', async () => {
    const stability = await injectJson(server, 'GET', '/stability/health');
    // Document 1 "Health (stability)": status healthy, oracle SUCCESS, uptimeSeconds, uptimeHuman, network, chainId, timestamp.
    expect(stability.body).toMatchObject({
      status: 'healthy',
      oracle: 'SUCCESS',
      uptimeSeconds: expect.any(Number),
      uptimeHuman: expect.any(String),
      network: expect.any(String),
      chainId: 8453,
      timestamp: expect.any(String),
    });
    // Document 1 ESG oracle: status (healthy) and esgOracle (SUCCESS).
    expect((await injectJson(server, 'GET', '/esg/health')).body).toMatchObject({ status: 'healthy', esgOracle: 'SUCCESS' });
    // Document 1 reports service: status (ok), service, version.
    expect((await injectJson(server, 'GET', '/reports/health')).body).toEqual({ status: 'ok', service: 'reports', version: expect.any(String) });
    // Document 2 "Integration health": {status, complianceOracle, stabilityOracle, db}, each ok; with an institution key (decision 0056).
    expect((await injectJson(server, 'GET', '/integration/health')).status).toBe(401);
    const integration = await injectJson(server, 'GET', '/integration/health', { headers: { authorization: `Bearer ${bearer}` } });
    expect(integration.body).toEqual({ status: 'ok', complianceOracle: 'ok', stabilityOracle: 'ok', db: 'ok' });
  });

  it('finding: /forecast/health, /compliance/health and /agent/health were 404; each answers the generic body from the process checks, open', async () => {
    for (const [prefix, subgraph] of [
      ['forecast', 'forecast'],
      ['compliance', 'compliance'],
      ['agent', 'payments'],
    ] as const) {
      const answer = await injectJson(server, 'GET', `/${prefix}/health`);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body).toEqual({ status: 'ok', service: prefix, subgraph, timestamp: TEST_NOW, down: [] });
    }
  });

  it("the generic health routes stay out of the services' OpenAPI documents", async () => {
    for (const [document, path] of [
      ['/compliance/openapi.json', '/health'],
      ['/agent/openapi.json', '/health'],
      ['/forecast/openapi.json', '/forecast/health'],
    ] as const) {
      const response = await server.app.inject({ method: 'GET', url: document });
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json<{ paths: Record<string, unknown> }>().paths)).not.toContain(path);
    }
  });

  it('a part down makes the generic bodies degraded, 503, naming it as GET /health does', async () => {
    server.base.health.register({ name: 'planted part', check: () => Promise.reject(new Error('planted failure')) });
    for (const prefix of ['forecast', 'compliance', 'agent']) {
      const answer = await injectJson(server, 'GET', `/${prefix}/health`);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ status: 'degraded', service: prefix, down: ['planted part'] });
    }
    expect((await injectJson(server, 'GET', '/health')).body.down).toEqual(['planted part']);
  });
});

describe("a subgraph served alone answers its prefixes' health too", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['forecast'], gateway: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serve forecast: /forecast/health answers; a prefix it does not serve stays 404', async () => {
    expect((await injectJson(server, 'GET', '/forecast/health')).body).toMatchObject({ status: 'ok', service: 'forecast', subgraph: 'forecast' });
    expect((await injectJson(server, 'GET', '/compliance/health')).status).toBe(404);
  });
});

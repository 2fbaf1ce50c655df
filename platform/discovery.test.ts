import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestPglite, startTestServer, type TestServer } from '../test/helpers.js';
import type { DatabaseHandle } from './db.js';
import { endpointMap, type OpenApiDocument, registerDiscoveryDocuments } from './discovery.js';
import { createHttpServer, httpRoutes, type HttpServer } from './http.js';
import { createLogger } from './log.js';
import { registerOpenApi } from './openapi.js';

const info = { prefix: '/svc', nameForHuman: 'Test service', nameForModel: 'test_service', descriptionForHuman: 'For humans.', descriptionForModel: 'For models.', fullText: true };

/** A service with the routes given, its OpenAPI document and its discovery documents. */
async function service(routes: string[]): Promise<HttpServer> {
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), handlerTimeoutMs: 1000 });
  await app.register(
    httpRoutes(async (scoped) => {
      await registerOpenApi(scoped, { prefix: '/svc', title: 'Test', version: '9.9.9', description: 'd' });
      for (const route of routes) {
        scoped.get(
          `/svc${route}`,
          {
            schema: {
              summary: `Summary of ${route}`,
              querystring: z.object({ amount: z.coerce.number().describe('an amount') }),
              response: { 200: z.object({ value: z.number().describe('the value') }) },
            },
          },
          async () => ({ value: 1 }),
        );
      }
      registerDiscoveryDocuments(scoped, info, 'https://rail.example');
    }),
  );
  await app.ready();
  return app;
}

describe('discovery documents generated from the routes (decision 0033)', () => {
  it('every route appears in llms.txt, llms-full.txt and the endpoint map; one added appears without touching the generator', async () => {
    for (const routes of [['/alpha'], ['/alpha', '/beta-gamma']]) {
      const app = await service(routes);
      const llms = (await app.inject({ method: 'GET', url: '/svc/llms.txt' })).body;
      const full = (await app.inject({ method: 'GET', url: '/svc/llms-full.txt' })).body;
      const document = (await app.inject({ method: 'GET', url: '/svc/openapi.json' })).json<OpenApiDocument>();
      for (const route of routes) {
        expect(llms).toContain(`- [GET ${route}](https://rail.example/svc${route}): Summary of ${route}`);
        expect(full).toContain(`## GET ${route}`);
      }
      expect(llms.startsWith('# Test service\n\n> For humans.\n')).toBe(true);
      expect(llms).toContain('\n## MCP\n\n- [POST /mcp](https://rail.example/mcp): one MCP server (Streamable HTTP) over the whole rail');
      expect(llms).toContain('server card: https://rail.example/mcp/server-card');
      expect(full).toContain('- amount (query, number, required)');
      expect(full).toContain('- value (number): the value');
      expect(
        Object.values(endpointMap(document, info))
          .filter((entry) => !/openapi|ai-plugin|llms/.test(entry))
          .sort(),
      ).toEqual(routes.map((route) => `GET ${route}`).sort());
      if (routes.length === 2) expect(endpointMap(document, info).betaGamma).toBe('GET /beta-gamma');
      await app.close();
    }
  });

  it('ai-plugin.json points at the OpenAPI document and needs no auth', async () => {
    const app = await service(['/alpha']);
    expect((await app.inject({ method: 'GET', url: '/svc/.well-known/ai-plugin.json' })).json()).toMatchObject({
      schema_version: 'v1',
      name_for_model: 'test_service',
      auth: { type: 'none' },
      api: { type: 'openapi', url: 'https://rail.example/svc/openapi.json' },
    });
    await app.close();
  });
});

describe("the stability and ESG oracles' discovery documents", () => {
  let database: DatabaseHandle;
  let server: TestServer;
  beforeAll(async () => {
    database = await openTestPglite();
    server = await startTestServer({ database, subgraphs: ['fees'], gateway: false, environment: { PUBLIC_BASE_URL: 'https://rail.example' } });
  });
  afterAll(async () => {
    await server.close();
    await database.close();
  });
  const text = async (url: string) => (await server.app.inject({ method: 'GET', url })).body;

  it('list every documented path of /stability/openapi.json, OpenAPI 3.0, version 2.1.0', async () => {
    const document = JSON.parse(await text('/stability/openapi.json')) as OpenApiDocument & { openapi: string };
    expect(document.openapi).toMatch(/^3\.0\./);
    expect(document.info.version).toBe('2.1.0');
    const llms = await text('/stability/llms.txt');
    for (const path of ['/manifest', '/fee-schedule', '/quote', '/verify-fees', '/reliability', '/health', '/api/status', '/api/history'])
      expect(llms).toContain(`https://rail.example/stability${path})`);
    expect(await text('/stability/llms-full.txt')).toContain('## GET /reliability');
    expect(JSON.parse(await text('/stability/.well-known/ai-plugin.json'))).toMatchObject({ api: { url: 'https://rail.example/stability/openapi.json' } });
    expect(JSON.parse(await text('/esg/.well-known/ai-plugin.json'))).toMatchObject({ api: { url: 'https://rail.example/esg/openapi.json' } });
    expect(await text('/esg/llms.txt')).toContain('https://rail.example/esg/esg-score)');
    // Each service's llms.txt names the one MCP server, which this server serves.
    for (const url of ['/stability/llms.txt', '/esg/llms.txt']) expect(await text(url)).toContain('- [POST /mcp](https://rail.example/mcp)');
    expect(server.app.hasRoute({ method: 'POST', url: '/mcp' })).toBe(true);
  });

  it("GET /esg/manifest: the stability manifest's conventions, endpoints from the routes", async () => {
    const manifest = JSON.parse(await text('/esg/manifest'));
    expect(manifest).toMatchObject({
      schema: 'srg-esg-manifest/1.0',
      version: '2.1.0',
      network: 'base',
      chainId: 8453,
      fee: { esgMaxBps: 50, esgFormula: '(100 - esgScore) / 200' },
      onboarding: { humanRequired: false },
    });
    expect(manifest.endpoints).toMatchObject({
      esgScore: 'GET /esg-score',
      feeSchedule: 'GET /fee-schedule',
      quote: 'GET /quote',
      quotePost: 'POST /quote',
      reliability: 'GET /reliability',
      health: 'GET /health',
      manifest: 'GET /manifest',
      llms: 'GET /llms.txt',
    });
  });
});

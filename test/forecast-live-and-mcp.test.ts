import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.js';
import { createHttpServer } from '../platform/http.js';
import { createLogger } from '../platform/log.js';
import { createRuleBasedSynthesiser } from '../platform/synthesis.js';
import { createLiveSource } from '../subgraphs/forecast/data-source.js';
import { forecastRoutes } from '../subgraphs/forecast/routes.js';
import { createForecastService } from '../subgraphs/forecast/service.js';
import { DEFAULT_LIVE_BASE_URLS } from '../subgraphs/forecast/sources/index.js';
import { graphql, startTestServer, TEST_NOW, type TestServer } from './helpers.js';

describe('forecast with live sources down', () => {
  it('answers 503 with a message and Retry-After 60 when no live climate value can be had', async () => {
    const clock = new ManualClock(TEST_NOW);
    const logger = createLogger({ logLevel: 'silent' });
    let calls = 0;
    // Every third-party source refuses: the network is down.
    const failingFetch: typeof fetch = async () => {
      calls += 1;
      throw new TypeError('fetch failed: connect ECONNREFUSED');
    };
    const source = createLiveSource({ enabled: true, timeoutMs: 50, baseUrls: DEFAULT_LIVE_BASE_URLS, fetch: failingFetch }, logger);
    const service = createForecastService({ clock, synthesiser: createRuleBasedSynthesiser(clock), source });
    const app = createHttpServer({ logger });
    await app.register(forecastRoutes(service, { mcpHostnames: ['localhost'] }));
    for (const request of [
      { method: 'GET' as const, url: '/forecast/heat-check' },
      { method: 'GET' as const, url: '/forecast/commodity/WHEAT' },
      { method: 'POST' as const, url: '/forecast/portfolio', payload: { positions: [{ symbol: 'WTI', notionalUsd: 100 }] } },
    ]) {
      const response = await app.inject(request);
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('60');
      expect(response.json()).toEqual({
        message: 'The upstream climate data source is temporarily unavailable; retry after 60 seconds.',
        code: 'FCT_ERR_UPSTREAM_UNAVAILABLE',
      });
    }
    expect(calls).toBeGreaterThan(0);
    await app.close();
  });
});

describe('gateway across two subgraphs and the MCP tools', () => {
  let server: TestServer;
  let baseUrl: string;
  beforeAll(async () => {
    server = await startTestServer();
    baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('one gateway query returns a commodity outlook next to a fee quote', async () => {
    const result = await graphql<Record<string, any>>(
      server,
      `
        {
          commodity(symbol: "COFFEE") {
            symbol
            outlook {
              status
              climateRiskScore
              dataQuality
            }
            calendar {
              month
            }
          }
          heatCheck {
            commodities {
              symbol
              status
            }
          }
          feeQuote(input: { amountUsd: 10000, hasFx: true, esgScore: 75 }) {
            fees {
              total {
                bps
              }
            }
            settlement {
              netUsd
            }
          }
        }
      `,
    );
    expect(result.errors).toBeUndefined();
    const rest = (await server.app.inject({ method: 'GET', url: '/forecast/commodity/COFFEE' })).json();
    expect(result.data!.commodity.outlook).toEqual({ status: rest.status, climateRiskScore: rest.climateRiskScore, dataQuality: 'ESTIMATED' });
    expect(result.data!.heatCheck.commodities).toHaveLength(11);
    expect(result.data!.feeQuote).toEqual({ fees: { total: { bps: 138.5 } }, settlement: { netUsd: '9861.5' } });
  });

  it('refuses an unsupported symbol with the catalog code', async () => {
    const result = await graphql(server, '{ commodity(symbol: "GOLD") { symbol } }');
    expect(result.errors?.[0]?.extensions?.code).toBe('FCT_ERR_UNSUPPORTED_SYMBOL');
  });

  it('the MCP SDK client lists the five tools and calls each', async () => {
    const client = new Client({ name: 'forecast-test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/forecast/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['commodity.forecast', 'commodity.heat_check', 'commodity.portfolio', 'commodity.scenario', 'commodity.tcfd']);
    const positions = [{ symbol: 'WHEAT', notionalUsd: 1_000_000 }];
    const calls = [
      { name: 'commodity.heat_check', arguments: {}, check: (value: any) => expect(value.commodities).toHaveLength(11) },
      { name: 'commodity.forecast', arguments: { symbol: 'CORN' }, check: (value: any) => expect(value.symbol).toBe('CORN') },
      { name: 'commodity.portfolio', arguments: { positions }, check: (value: any) => expect(value.exposureByTier).toBeDefined() },
      { name: 'commodity.scenario', arguments: { scenario: 'us_midwest_drought', positions }, check: (value: any) => expect(value.scenario).toBe('us_midwest_drought') },
      { name: 'commodity.tcfd', arguments: { positions, entityName: 'Acme' }, check: (value: any) => expect(value.metrics.portfolioRiskScore).toBeTypeOf('number') },
    ];
    for (const call of calls) {
      const result = await client.callTool({ name: call.name, arguments: call.arguments });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      call.check(result.structuredContent);
      const rest = call.name === 'commodity.forecast' ? (await server.app.inject({ method: 'GET', url: '/forecast/commodity/CORN' })).json() : undefined;
      if (rest) expect(result.structuredContent).toEqual(rest);
    }
    await client.close();
  });
});

describe('MCP hygiene', () => {
  let server: TestServer;
  let baseUrl: string;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['forecast'] });
    baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.close();
  });

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  };

  it('finding: DNS-rebinding protection was off; a foreign Host header is refused, loopback is served', async () => {
    const { port } = new URL(baseUrl);
    const post = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port, path: '/forecast/mcp', method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify(initialize));
      });
    expect(await post(`rebound.example:${port}`)).toBe(403);
    expect(await post(`localhost:${port}`)).toBe(200);
    expect(await post(`127.0.0.1:${port}`)).toBe(200);
  });

  it('finding: GET /forecast/mcp was 404; GET and DELETE are 405 with Allow: POST in the forecast shape', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await server.app.inject({ method, url: '/forecast/mcp' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect(response.json()).toEqual({ message: `${method} is not allowed on /forecast/mcp; allowed: POST`, code: 'GEN_ERR_METHOD_NOT_ALLOWED' });
    }
  });

  it("finding: npm run mcp:forecast printed npm's banner on stdout; the README command speaks clean JSON-RPC on stdio", async () => {
    const projectRoot = fileURLToPath(new URL('..', import.meta.url));
    const transport = new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp:forecast'],
      cwd: projectRoot,
      env: { PATH: `${join(projectRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '', LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-probe', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'commodity.forecast', arguments: { symbol: 'WHEAT' } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { symbol: string }).symbol).toBe('WHEAT');
    } finally {
      await client.close();
    }
  });
});

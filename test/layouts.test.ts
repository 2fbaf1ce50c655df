import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConfigError } from '../gateway/graphql-endpoints.js';
import { buildServer, type BuiltServer } from '../gateway/server.js';
import { SUBGRAPH_NAMES } from '../gateway/subgraphs.js';
import { generateIssuerJwk } from '../platform/credentials.js';
import type { RequestContext } from '../platform/request-context.js';
import type { Subgraph } from '../platform/subgraph.js';
import { sharedTestChain, sharedTestDatabase, startTestServer, testConfig, type TestServer } from './helpers.js';

/** Wraps a subgraph's createContext to record the RequestContext each resolver receives. */
function recordContexts(subgraph: Subgraph | undefined): RequestContext[] {
  if (!subgraph) throw new Error('subgraph not built');
  const seen: RequestContext[] = [];
  const original = subgraph.createContext.bind(subgraph);
  subgraph.createContext = (request) => {
    seen.push(request);
    return original(request);
  };
  return seen;
}

async function listen(server: BuiltServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
}

const callerHeaders = {
  'content-type': 'application/json',
  'x-request-id': 'layout-check-1',
  authorization: 'Bearer caller-token',
  'x-api-key': 'key-123',
  'x-payment': 'payment-header',
  'x-agent-id': 'agent-9',
  'idempotency-key': 'idem-1',
  'x-internal-key': 'internal-1',
  cookie: 'session=never-forwarded',
};

async function askGateway(base: string): Promise<unknown> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: callerHeaders,
    body: JSON.stringify({ query: '{ feeSchedule { schema } }' }),
  });
  return response.json();
}

function comparable(context: RequestContext | undefined) {
  return context && { requestId: context.requestId, caller: context.caller, headers: context.headers, now: context.clock.now().toISOString() };
}

describe('one request context in every layout', () => {
  let allInOne: TestServer;
  let subgraphsAlone: TestServer;
  let gatewayAlone: BuiltServer;
  let allInOneUrl: string;
  let gatewayUrl: string;

  beforeAll(async () => {
    allInOne = await startTestServer();
    allInOneUrl = await listen(allInOne);
    subgraphsAlone = await startTestServer({ subgraphs: SUBGRAPH_NAMES, gateway: false });
    const subgraphsUrl = await listen(subgraphsAlone);
    gatewayAlone = await buildServer({
      config: testConfig({ SUBGRAPH_URLS: SUBGRAPH_NAMES.map((name) => `${name}=${subgraphsUrl}/subgraphs/${name}/graphql`).join(',') }),
      clock: allInOne.clock,
      subgraphs: [],
      gateway: true,
    });
    gatewayUrl = await listen(gatewayAlone);
  });
  afterAll(async () => {
    await Promise.all([allInOne?.close(), subgraphsAlone?.close(), gatewayAlone?.close()]);
  });

  it('finding: the in-process data source dropped the gateway context; a resolver now gets the same context in-process and over HTTP', async () => {
    const inProcess = recordContexts(allInOne.subgraphs.find((subgraph) => subgraph.name === 'fees'));
    const overHttp = recordContexts(subgraphsAlone.subgraphs.find((subgraph) => subgraph.name === 'fees'));
    expect(await askGateway(allInOneUrl)).toEqual({ data: { feeSchedule: { schema: 'srg-fee-schedule/1.0' } } });
    expect(await askGateway(gatewayUrl)).toEqual({ data: { feeSchedule: { schema: 'srg-fee-schedule/1.0' } } });
    expect(inProcess).toHaveLength(1);
    expect(overHttp).toHaveLength(1);
    const expected = {
      requestId: 'layout-check-1',
      caller: { kind: 'anonymous' },
      headers: {
        authorization: 'Bearer caller-token',
        'x-api-key': 'key-123',
        'x-payment': 'payment-header',
        'x-agent-id': 'agent-9',
        'idempotency-key': 'idem-1',
        'x-internal-key': 'internal-1',
      },
      now: allInOne.clock.now().toISOString(),
    };
    expect(comparable(inProcess[0])).toEqual(expected);
    expect(comparable(overHttp[0])).toEqual(expected);
  });

  it('finding: the gateway-alone /health said ok with no subgraphs; it now checks each one over HTTP', async () => {
    const response = await fetch(`${gatewayUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      down: [],
      checks: { 'subgraph fees': { status: 'up' }, 'subgraph forecast': { status: 'up' } },
    });
  });
});

describe('the gateway alone', () => {
  const everyUrl = SUBGRAPH_NAMES.map((name) => `${name}=http://127.0.0.1:9/${name}`).join(',');

  it('finding: a subgraph missing from SUBGRAPH_URLS silently went to localhost:4000; now the start fails naming it', async () => {
    const allButForecast = SUBGRAPH_NAMES.filter((name) => name !== 'forecast')
      .map((name) => `${name}=http://127.0.0.1:9/${name}`)
      .join(',');
    const start = buildServer({ config: testConfig({ SUBGRAPH_URLS: allButForecast }), subgraphs: [], gateway: true });
    await expect(start).rejects.toBeInstanceOf(GatewayConfigError);
    await expect(buildServer({ config: testConfig({ SUBGRAPH_URLS: allButForecast }), subgraphs: [], gateway: true })).rejects.toThrow(/no way to reach forecast: name it in SUBGRAPH_URLS/);
  });

  it('refuses a SUBGRAPH_URLS name no subgraph has', async () => {
    await expect(buildServer({ config: testConfig({ SUBGRAPH_URLS: `${everyUrl},billing=http://127.0.0.1:9/c` }), subgraphs: [], gateway: true })).rejects.toThrow(/unknown subgraphs: billing/);
  });

  it('finding: the gateway alone opened PGlite and wrote a key into its data folder; it keeps nothing now', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'srg-gateway-')), 'data');
    const config = testConfig({
      DATA_DIR: dataDir,
      QUOTE_SIGNING_KEY: '',
      SUBGRAPH_URLS: everyUrl,
    });
    const server = await buildServer({ config, subgraphs: [], gateway: true });
    expect(server.platform).toBeUndefined();
    await server.close();
    expect(existsSync(dataDir)).toBe(false);
  });

  it('serve chain: the embedded EVM alone answers /rpc, /health and /metrics, and opens no database (decision 0088)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'srg-chain-')), 'data');
    const server = await buildServer({ config: testConfig({ DATA_DIR: dataDir }), chain: sharedTestChain(), subgraphs: [], chainAlone: true });
    try {
      expect(server.platform).toBeUndefined();
      expect(server.chain).toBe(sharedTestChain());
      expect(server.app.hasRoute({ method: 'POST', url: '/graphql' })).toBe(false);
      const rpc = await server.app.inject({ method: 'POST', url: '/rpc', payload: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' } });
      expect(rpc.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2105' });
      const health = await server.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok', checks: { rail: { status: 'up' } } });
      expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    } finally {
      await server.close();
    }
    expect(existsSync(dataDir)).toBe(false);
    await expect(buildServer({ config: testConfig({ RPC_URL: 'http://127.0.0.1:1/rpc' }), subgraphs: [], chainAlone: true })).rejects.toThrow(/serve chain runs the embedded EVM; RPC_URL is set/);
  });

  it('an all-in-one server with the database override and both keys configured claims no data folder', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'srg-owned-')), 'data');
    const server = await buildServer({
      config: testConfig({ DATA_DIR: dataDir, ISSUER_SIGNING_JWK: generateIssuerJwk() }),
      database: await sharedTestDatabase(),
      subgraphs: ['forecast'],
      gateway: false,
    });
    await server.close();
    expect(existsSync(dataDir)).toBe(false);
  });

  it('without ISSUER_SIGNING_JWK the data folder is claimed: the issuer key is generated and kept there', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'srg-owned-')), 'data');
    const server = await buildServer({ config: testConfig({ DATA_DIR: dataDir }), database: await sharedTestDatabase(), subgraphs: ['compliance'], gateway: false });
    await server.close();
    expect(existsSync(join(dataDir, 'issuer-signing.jwk.json'))).toBe(true);
  });
});

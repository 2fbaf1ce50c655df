import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import type { PaymentRequirements } from 'x402/types';
import { DPX_TOOL_NAMES } from '../../gateway/mcp/dpx-tools.js';
import { routeToolName } from '../../gateway/mcp/tool-names.js';
import { documentedCapabilities, type DocumentedOperation } from '../../platform/capabilities.js';
import type { ChainConnection } from '../../platform/chain/index.js';
import { startTestServer, type TestServer } from '../helpers.js';

// The one MCP server (decision 0080) through the MCP SDK client over Streamable HTTP on a real port.

let server: TestServer;
let baseUrl: string;
let host: string;
let capabilities: DocumentedOperation[];
let tools: Tool[];
let rail: ChainConnection;
/** The connected clients, by the headers they send. */
const clients = new Map<string, Promise<Client>>();

async function newClient(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
  // Listed first, as agents do: the client then validates every structured result against the tool's outputSchema.
  await client.listTools();
  return client;
}

/**
 * A client sending `headers`, connected once and shared by the tests sending the same ones: the
 * server is stateless (each POST its own server and transport), so a client is nothing but its
 * headers and the output validators it compiled from tools/list, which is what takes the time.
 */
function connect(headers: Record<string, string> = {}): Promise<Client> {
  const key = JSON.stringify(Object.entries(headers).sort());
  let client = clients.get(key);
  if (!client) {
    client = newClient(headers);
    clients.set(key, client);
  }
  return client;
}

/** The same request on REST, with the Host the MCP request had (the x402 resource is the public URL). */
async function rest(method: 'GET' | 'POST', url: string, options: { payload?: unknown; headers?: Record<string, string> } = {}) {
  const response = await server.app.inject({ method, url, headers: { host, ...options.headers }, ...(options.payload !== undefined ? { payload: options.payload as object } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
}

/** A result's body: its structured content, or its JSON text where the outputSchema does not admit the error (an undocumented status). */
const bodyOf = (result: CallToolResult) => result.structuredContent ?? (JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>);

const call = async (client: Client, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;

beforeAll(async () => {
  server = await startTestServer();
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  host = new URL(baseUrl).host;
  capabilities = await documentedCapabilities(server.app);
  rail = await server.platform!.chain.connect();
  tools = (await (await connect()).listTools()).tools;
}, 120_000);
afterAll(async () => {
  for (const client of clients.values()) await (await client).close();
  await server?.close();
});

describe('tools/list', () => {
  it('has a tool for every documented capability, named by the route rule and titled with its route (derived, not a kept list)', () => {
    expect(capabilities.length).toBeGreaterThan(80);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const missing = capabilities.filter((operation) => byName.get(routeToolName(operation, capabilities))?.title !== operation.key).map((operation) => operation.key);
    expect(missing).toEqual([]);
  });

  it('names are unique, at most 64 of [A-Za-z0-9_.-]; input and output schemas are objects; annotations follow the method', () => {
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      expect(tool.inputSchema.type).toBe('object');
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
      expect(tool.annotations?.openWorldHint).toBe(false);
    }
    const named = (name: string) => tools.find((tool) => tool.name === name)!;
    expect(named('stability.quote').annotations).toEqual({ title: 'GET /stability/quote', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(named('stability.quote.post').annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(named('compliance.agent.by_id.delete').annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(named('compliance.agent.verify').title).toBe('POST /compliance/agent/:id/verify');
    // Idempotent by a key it must be given (tmsReference); settle's Idempotency-Key is optional, so it is not.
    expect(named('integration.payments.initiate').annotations?.idempotentHint).toBe(true);
    expect(named('agent.settle').annotations?.idempotentHint).toBe(false);
    expect(named('agent.settle').inputSchema.properties).toHaveProperty('idempotencyKey');
    // Path, query and body in one object: the query's amountUsd, the body of POST /stability/quote.
    expect(named('stability.quote').inputSchema.required).toEqual(['amountUsd']);
    expect(Object.keys(named('compliance.esg.score.by_lei').inputSchema.properties ?? {}).sort()).toEqual(['country', 'lei', 'leiStatus', 'name', 'narrate', 'refresh']);
  });

  it("lists the forecast's five commodity.* tools, the integration manifest's tools, every dpx-mcp name and the two graph tools", () => {
    const names = new Set(tools.map((tool) => tool.name));
    const expected = [
      ...['commodity.heat_check', 'commodity.forecast', 'commodity.portfolio', 'commodity.scenario', 'commodity.tcfd'],
      ...['payments.initiate', 'payments.batch', 'payments.get', 'payments.find', 'rates.get', 'integration.health'],
      ...['get_manifest', 'get_quote', 'get_esg_score', 'get_reliability', 'get_oracle_status', 'get_fee_schedule', 'verify_fees', 'compare_to_competitors'],
      ...['get_rail_status', 'settle', 'get_settlement_status', 'get_investment_context', 'get_intelligence'],
      ...['graphql.schema', 'graphql.execute'],
    ];
    expect(expected.filter((name) => !names.has(name))).toEqual([]);
    expect([...DPX_TOOL_NAMES].sort()).toEqual(expected.filter((name) => /^(get_|verify_|compare_|settle)/.test(name)).sort());
  });
});

describe('tools/call answers what REST answers', () => {
  it.each([
    ['fees', 'stability.fee_schedule', {}, '/stability/fee-schedule'],
    ['compliance', 'compliance.regulatory_calendar', {}, '/compliance/compliance/regulatory-calendar'],
    ['payments', 'integration.rates.by_currency', { currency: 'EUR' }, '/integration/rates/EUR'],
    ['forecast', 'forecast.commodity.by_symbol', { symbol: 'WHEAT' }, '/forecast/commodity/WHEAT'],
    ['intelligence', 'intelligence.butterfly', {}, '/v1/intelligence/butterfly'],
  ])('%s: %s', async (_subgraph, name, args, url) => {
    const result = await call(await connect(), name, args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const expected = await rest('GET', url);
    expect(expected.status).toBe(200);
    expect(result.structuredContent).toEqual(expected.body);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(expected.body);
  });

  it('a POST with a JSON body: the arguments are the body (forecast portfolio)', async () => {
    const positions = [{ symbol: 'CORN', notionalUsd: 250_000 }];
    const result = await call(await connect(), 'forecast.portfolio', { positions });
    expect(result.structuredContent).toEqual((await rest('POST', '/forecast/portfolio', { payload: { positions } })).body);
  });
});

describe('bad input is a tool error naming the field, in the route service error body', () => {
  it('a path argument of the wrong type is refused before the route, in the forecast shape', async () => {
    const result = await call(await connect(), 'forecast.commodity.by_symbol', { symbol: 42 });
    expect(result.isError).toBe(true);
    // The forecast documents its 400 body, so the refusal is structured content as well as text.
    expect(result.structuredContent).toEqual({ message: 'Invalid arguments: symbol: expected string, received number', code: 'FCT_ERR_INVALID_SYMBOL' });
  });

  it("a body the route refuses is the route's own 400 body", async () => {
    const positions = [{ symbol: 'CORN', notionalUsd: 'lots' }];
    const result = await call(await connect(), 'forecast.portfolio', { positions });
    const expected = await rest('POST', '/forecast/portfolio', { payload: { positions } });
    expect(expected.status).toBe(400);
    expect(result).toMatchObject({ isError: true, structuredContent: expected.body });
    expect(JSON.stringify(bodyOf(result))).toContain('notionalUsd');
  });

  it('a missing query argument and an unknown argument: the quote service names them', async () => {
    const missing = await call(await connect(), 'stability.quote', {});
    expect(missing.isError).toBe(true);
    expect(bodyOf(missing)).toEqual((await rest('GET', '/stability/quote')).body);
    expect(JSON.stringify(bodyOf(missing))).toContain('amountUsd');
    const unknown = await call(await connect(), 'stability.fee_schedule', { color: 'red' });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(bodyOf(unknown))).toContain('color: not an argument of this tool');
  });

  it('a NUL in an argument is a tool error, never a JSON-RPC failure', async () => {
    const result = await call(await connect(), 'compliance.lei.search', { name: 'Shell\u0000' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(bodyOf(result))).toContain('name: must not contain NUL');
  });
});

describe('authority: a stranger is refused as REST refuses', () => {
  it('a payments tool without an institution key answers the 401 of the route', async () => {
    const client = await connect();
    const id = 'pay_00000000-0000-4000-8000-000000000000';
    const expected = await rest('GET', `/integration/payments/${id}`);
    expect(expected.status).toBe(401);
    for (const [name, args] of [
      ['integration.payments.by_railPaymentId', { railPaymentId: id }],
      ['payments.get', { railPaymentId: id }],
      ['get_settlement_status', { settlementId: id }],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(bodyOf(result), name).toEqual(expected.body);
    }
  });

  it("an agent's settle without the agent's key answers the route's refusal", async () => {
    const args = { amount: 5, sourceCurrency: 'USD', destinationCurrency: 'USD', recipientAddress: '0x000000000000000000000000000000000000dEaD' };
    const expected = await rest('POST', '/agent/settle', { payload: args, headers: { 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA' } });
    expect(expected.status).toBeGreaterThanOrEqual(400);
    const result = await call(await connect({ 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA' }), 'settle', { ...args, sandbox: false });
    expect(result).toMatchObject({ isError: true, structuredContent: expected.body });
    const direct = await call(await connect({ 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA' }), 'agent.settle', args);
    expect(direct.isError).toBe(true);
    expect(bodyOf(direct)).toEqual(expected.body);
  });
});

describe('paid tools', () => {
  const PAID = '/v1/intelligence/commodity';

  it("without payment: isError with x402's PaymentRequired, equal to REST's 402 body, also as content[0].text", async () => {
    const result = await call(await connect(), 'intelligence.commodity');
    const expected = await rest('GET', PAID);
    expect(expected.status).toBe(402);
    expect(expected.body.accepts[0]).toMatchObject({ scheme: 'exact', resource: `${baseUrl}${PAID}` });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(expected.body);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(expected.body);
  });

  it('with an X-API-Key: the result, and the key counted once per call as REST counts it', async () => {
    const { key } = await server.platform!.access.keys.create('api', 'mcp paid tool test', 100);
    const remaining = async () => Number((await rest('GET', PAID, { headers: { 'x-api-key': key } })).headers['x-ratelimit-remaining']);
    const before = await remaining();
    const result = await call(await connect({ 'x-api-key': key }), 'intelligence.commodity');
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const expected = await rest('GET', PAID, { headers: { 'x-api-key': key } });
    expect(Object.keys(result.structuredContent ?? {}).sort()).toEqual(Object.keys(expected.body).sort());
    // before (1 REST call), the MCP call, the REST call above: three counted, the probe a fourth.
    expect(await remaining()).toBe(before - 3);
  });

  it('with an x402 payment in _meta["x402/payment"]: the result, and the settlement in _meta["x402/payment-response"]', async () => {
    const client = await connect();
    const required = (await call(client, 'intelligence.commodity')).structuredContent as { accepts: PaymentRequirements[] };
    const account = rail.embedded!.accounts[9]!;
    const header = await createPaymentHeader(rail.embedded!.walletFor(account) as never, 1, required.accepts[0]!);
    const payment = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as Record<string, unknown>;
    const result = await call(client, 'intelligence.commodity', {}, { 'x402/payment': payment });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toBeDefined();
    expect(result._meta?.['x402/payment-response']).toMatchObject({ success: true, payer: account.address });
    // The authorization is spent: the same payment again is refused with the requirements.
    const again = await call(client, 'intelligence.commodity', {}, { 'x402/payment': payment });
    expect(again.isError).toBe(true);
    expect((again.structuredContent as { accepts: unknown[] }).accepts).toHaveLength(1);
  });
});

describe('the dpx-mcp names', () => {
  const calls: Array<[string, Record<string, unknown>]> = [
    ['get_manifest', {}],
    ['get_quote', { amountUsd: 10_000, hasFx: true, esgScore: 75 }],
    ['get_esg_score', {}],
    ['get_reliability', {}],
    ['get_oracle_status', {}],
    ['get_fee_schedule', {}],
    ['verify_fees', { amountUsd: 10_000, hasFx: true, esgScore: 75 }],
    ['compare_to_competitors', { amountUsd: 1_000_000 }],
    ['get_rail_status', { rails: ['PIX', 'SEPA'] }],
    ['settle', { amount: 100, sourceCurrency: 'USD', destinationCurrency: 'EUR', recipientAddress: '0x000000000000000000000000000000000000dEaD' }],
    ['get_settlement_status', { settlementId: 'pay_00000000-0000-4000-8000-000000000000' }],
    ['get_investment_context', { section: 'all' }],
    ['get_intelligence', { focus: 'commodities' }],
  ];

  it('covers every name', () => {
    expect(calls.map(([name]) => name).sort()).toEqual([...DPX_TOOL_NAMES].sort());
  });

  it.each(calls)('%s answers a real answer or a clear tool error', async (name, args) => {
    const result = await call(await connect(), name, args);
    const body = bodyOf(result);
    expect(body, JSON.stringify(result.content)).toBeDefined();
    if (result.isError) expect(JSON.stringify(body)).toMatch(/"(error|message)":"[^"]{10,}/);
    else expect(Object.keys(body).length).toBeGreaterThan(0);
  });

  it('get_quote is GET /stability/quote; compare_to_competitors is built from the quote and the published benchmarks', async () => {
    const client = await connect();
    const quote = await call(client, 'get_quote', { amountUsd: 1_000_000, hasFx: true, esgScore: 75 });
    const expected = (await rest('GET', '/stability/quote?amountUsd=1000000&hasFx=true&esgScore=75')).body;
    const { quoteId: _a, ...sameQuote } = quote.structuredContent as Record<string, unknown>;
    const { quoteId: _b, ...sameRest } = expected;
    expect(sameQuote).toEqual(sameRest);
    const compared = (await call(client, 'compare_to_competitors', { amountUsd: 1_000_000, esgScore: 75 })).structuredContent as Record<string, any>;
    expect(compared.rail).toMatchObject({ pct: expected.competitive.railTotalPct, usd: expected.competitive.railTotalUsd });
    expect(compared.comparison.map((entry: { id: string }) => entry.id)).toEqual(expected.competitive.comparisons.map((entry: { id: string }) => entry.id));
    expect(compared.benchmarks).toEqual((await rest('GET', '/stability/fee-schedule')).body.competitive.benchmarks);
  });

  it('say what the rail does not know or take: local rails UNKNOWN, unpublished sections, an MPP txHash', async () => {
    const client = await connect();
    const status = (await call(client, 'get_rail_status', { rails: ['PIX'] })).structuredContent as Record<string, any>;
    expect(status.rails).toEqual({ PIX: { status: 'UNKNOWN', monitored: false } });
    expect(status.monitored.process).toMatchObject({ status: 'ok' });
    const traction = (await call(client, 'get_investment_context', { section: 'traction' })).structuredContent as Record<string, any>;
    expect(traction.traction.published).toBe(false);
    const mpp = await call(client, 'get_intelligence', { txHash: `0x${'ab'.repeat(32)}` });
    expect(mpp.isError).toBe(true);
    expect(JSON.stringify(mpp.structuredContent)).toContain('x402/payment');
    const paid = await call(client, 'get_intelligence', { focus: 'FX' });
    expect(paid.structuredContent).toEqual((await rest('GET', '/v1/intelligence/currency-stress')).body);
    const badFocus = await call(client, 'get_intelligence', { focus: 'weather' });
    expect(JSON.stringify(bodyOf(badFocus))).toContain('focus: expected one of');
  });
});

describe('the graph tools', () => {
  it('graphql.execute runs an operation through /graphql; graphql.schema answers the API schema', async () => {
    const client = await connect();
    const query = '{ heatCheck { commodities { symbol status } } }';
    const result = await call(client, 'graphql.execute', { query });
    const expected = await rest('POST', '/graphql', { payload: { query } });
    expect(result.structuredContent).toEqual(expected.body);
    const refused = await call(client, 'graphql.execute', { query: '{ nothingHere }' });
    expect(refused.isError).toBe(true);
    const { sdl } = (await call(client, 'graphql.schema')).structuredContent as { sdl: string };
    expect(sdl).toContain('type Query');
    expect(sdl).toContain('vendorAssessment');
    expect(sdl).not.toContain('join__');
  });
});

describe('discovery', () => {
  it('serves the Server Card at /mcp/server-card and the well-known paths, and the MCP Catalog', async () => {
    const card = await fetch(`${baseUrl}/.well-known/mcp.json`);
    expect(card.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await card.json()) as Record<string, any>;
    expect(body).toMatchObject({ $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json', name: '127.0.0.1/stablecoin-rail', version: '1.0.0' });
    expect(body.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${baseUrl}/mcp` });
    expect(await (await fetch(`${baseUrl}/mcp/server-card`)).json()).toEqual(body);
    expect(await (await fetch(`${baseUrl}/.well-known/mcp/server-card.json`)).json()).toEqual(body);
    const catalog = (await (await fetch(`${baseUrl}/.well-known/mcp/catalog.json`)).json()) as Record<string, any>;
    expect(catalog).toEqual({
      specVersion: 'draft',
      entries: [{ identifier: 'urn:air:127.0.0.1:stablecoin-rail', displayName: 'Stablecoin settlement rail', type: 'application/mcp-server-card+json', url: `${baseUrl}/mcp/server-card` }],
    });
  });
});

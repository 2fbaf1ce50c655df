import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, startTestServer, type TestServer } from './helpers.js';

// One platform rule for every string a caller sends (decision 0053): NUL and unpaired surrogates
// are refused with a 400 naming the field, in the service's own error shape, at every front door.

const ADMIN_KEY = 'input-hygiene-test-admin-key-0123456789abcdef';
const WALLET = '0x1111111111111111111111111111111111111111';
const NUL = 'Shell\u0000';
const LONE_SURROGATE = 'Acme \ud800 Ltd';

let server: TestServer;
let baseUrl: string;
let apiKey: Record<string, string>;
let bearer: Record<string, string>;
const admin = { authorization: `Bearer ${ADMIN_KEY}` };

beforeAll(async () => {
  server = await startTestServer({ environment: { ADMIN_KEY } });
  apiKey = { 'x-api-key': (await server.platform!.access.keys.create('api', 'hygiene tests', 1000)).key };
  bearer = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'hygiene tests', 1000)).key}` };
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A JSON body written by hand, so "\u0000" and "\ud800" reach the server as JSON escapes (JSON.parse makes them NUL and a lone surrogate). */
const rawJson = (value: unknown) => JSON.stringify(value);

describe('REST: strings with NUL or an unpaired surrogate are a 400 naming the field, in the service shape', () => {
  it('finding 6: VoP with submittedName "Shell\\u0000" (paid with an API key) answered 503; it is 400 CMP_ERR_INVALID_REQUEST', async () => {
    const response = await injectJson(server, 'POST', '/compliance/vop/verify', { raw: rawJson({ walletAddress: WALLET, submittedName: NUL }), headers: apiKey });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid body: submittedName: must not contain NUL (U+0000)', code: 'CMP_ERR_INVALID_REQUEST' });
  });

  it('finding 6: agent registration with name "a\\u0000b" answered 503; it is 400 naming name, and no agent is stored', async () => {
    const response = await injectJson(server, 'POST', '/compliance/agent/register', { raw: rawJson({ name: 'a\u0000b' }) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid body: name: must not contain NUL (U+0000)', code: 'CMP_ERR_INVALID_REQUEST' });
  });

  it('finding 6: wallet registration with a legal name holding a lone surrogate answered 503; it is 400 naming legalName', async () => {
    const response = await injectJson(server, 'POST', '/compliance/register', { raw: rawJson({ walletAddress: WALLET, legalName: LONE_SURROGATE }), headers: admin });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'Invalid body: legalName: must be valid Unicode (it holds an unpaired surrogate, U+D800 to U+DFFF)',
      code: 'CMP_ERR_INVALID_REQUEST',
    });
  });

  it('wallet registration stays admin-only: without the key a hostile body is 401, its fields not read', async () => {
    const response = await injectJson(server, 'POST', '/compliance/register', { raw: rawJson({ walletAddress: WALLET, legalName: NUL }) });
    expect(response.status).toBe(401);
  });

  it('payments initiate: a NUL in a key deep in the body is a 400 PAY_ERR_INVALID_REQUEST naming where', async () => {
    const body = {
      tmsReference: 'TMS-HYGIENE-1',
      amount: '12.50',
      currency: 'USD',
      creditor: { name: 'Some Supplier Ltd', walletAddress: WALLET, 'x\u0000': 1 },
      debtor: { name: 'Acme Treasury Ltd', walletAddress: WALLET },
    };
    const response = await injectJson(server, 'POST', '/integration/payments/initiate', { raw: rawJson(body), headers: bearer });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid body: creditor: a key must not contain NUL (U+0000)', code: 'PAY_ERR_INVALID_REQUEST' });
  });

  it('payments initiate: a lone surrogate in creditor.name is a 400 naming it; without a key it stays 401', async () => {
    const body = { tmsReference: 'TMS-HYGIENE-2', amount: '1.00', currency: 'USD', creditor: { name: LONE_SURROGATE, walletAddress: WALLET }, debtor: { name: 'Acme', walletAddress: WALLET } };
    const refused = await injectJson(server, 'POST', '/integration/payments/initiate', { raw: rawJson(body), headers: bearer });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Invalid body: creditor.name: must be valid Unicode (it holds an unpaired surrogate, U+D800 to U+DFFF)', code: 'PAY_ERR_INVALID_REQUEST' });
    const stranger = await injectJson(server, 'POST', '/integration/payments/initiate', { raw: rawJson(body) });
    expect(stranger.status).toBe(401);
  });

  it('a query string and a path parameter with %00 are refused naming them', async () => {
    const query = await injectJson(server, 'GET', '/compliance/lei/search?name=Shell%00', {});
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ error: 'Invalid querystring: name: must not contain NUL (U+0000)', code: 'CMP_ERR_INVALID_REQUEST' });
    const param = await injectJson(server, 'GET', '/compliance/lei/ABC%00', {});
    expect(param.status).toBe(400);
    expect(param.body).toEqual({ error: 'Invalid params: lei: must not contain NUL (U+0000)', code: 'CMP_ERR_INVALID_REQUEST' });
  });

  it('forecast answers in its own shape {message, code}', async () => {
    const response = await injectJson(server, 'POST', '/forecast/tcfd', { raw: rawJson({ positions: [{ symbol: 'WHEAT', notionalUsd: 1000 }], entityName: 'Acme\ud800' }) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: 'Invalid body: entityName: must be valid Unicode (it holds an unpaired surrogate, U+D800 to U+DFFF)',
      code: 'FCT_ERR_INVALID_BODY',
    });
  });

  it('a body nested 5,000 deep (read by its handler, not a schema) is a 400, never a 500 or a hang', async () => {
    const raw = `{"tmsReference":"TMS-HYGIENE-3","remittanceInfo":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const response = await injectJson(server, 'POST', '/integration/payments/initiate', { raw, headers: bearer });
    expect(response.status).toBe(400);
    // The body is at depth 0, remittanceInfo 1: the array at depth 32 is remittanceInfo and 31 indices.
    expect(response.body).toEqual({ error: `Invalid body: remittanceInfo${'.0'.repeat(31)}: nests deeper than 32 levels`, code: 'PAY_ERR_INVALID_REQUEST' });
  });

  it('a forwarded header with NUL (possible in-process, where no HTTP parser stands guard) is refused', async () => {
    const response = await injectJson(server, 'POST', '/agent/settle', { payload: {}, headers: { 'x-agent-id': 'agt\u0000x' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Invalid headers: x-agent-id: must not contain NUL (U+0000)');
  });

  it('valid text is untouched: a name with an emoji (a surrogate pair) and accents is accepted', async () => {
    const response = await injectJson(server, 'POST', '/compliance/agent/register', { raw: rawJson({ name: 'Agent Ünïcode 🚀' }) });
    expect(response.status).toBeLessThan(300);
  });
});

describe('GraphQL: variables and inline literals, at the gateway and at a subgraph endpoint', () => {
  const post = async (path: string, payload: unknown) => {
    const response = await server.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: rawJson(payload) });
    return { status: response.statusCode, body: response.json() as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
  };
  const registerAgent = 'mutation ($input: RegisterAgentInput!) { registerAgent(input: $input) { agentId } }';

  it.each(['/graphql', '/subgraphs/compliance/graphql'])('finding 6: registerAgent with a NUL in a variable at %s is 400 GQL_ERR_BAD_USER_INPUT naming it', async (path) => {
    const response = await post(path, { query: registerAgent, variables: { input: { name: 'a\u0000b' } } });
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      { message: 'An argument of the GraphQL operation is invalid. variables.input.name: must not contain NUL (U+0000).', extensions: { code: 'GQL_ERR_BAD_USER_INPUT' } },
    ]);
  });

  it.each(['/graphql', '/subgraphs/compliance/graphql'])('an inline literal "a\\u0000b" at %s is 400 naming the argument', async (path) => {
    const response = await post(path, { query: 'mutation { registerAgent(input: { name: "a\\u0000b" }) { agentId } }' });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { message: 'An argument of the GraphQL operation is invalid. registerAgent.input.name (line 1): must not contain NUL (U+0000).', extensions: { code: 'GQL_ERR_BAD_USER_INPUT' } },
    ]);
  });

  it('a GET with a lone surrogate in its variables is refused the same way', async () => {
    const variables = encodeURIComponent(rawJson({ symbol: 'CORN\ud800' }));
    const query = encodeURIComponent('query ($symbol: String!) { commodity(symbol: $symbol) { symbol } }');
    const response = await server.app.inject({ method: 'GET', url: `/graphql?query=${query}&variables=${variables}`, headers: { 'apollo-require-preflight': 'true' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].extensions.code).toBe('GQL_ERR_BAD_USER_INPUT');
    expect(response.json().errors[0].message).toMatch(/variables\.symbol: must be valid Unicode/);
  });
});

describe('MCP: tools through the MCP SDK client', () => {
  it('payments.initiate with a NUL in creditor.name is a tool error {error, code} naming it; nothing is initiated', async () => {
    const client = new Client({ name: 'hygiene-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/integration/mcp`), { requestInit: { headers: bearer } }));
    try {
      const tmsReference = 'TMS-HYGIENE-MCP-1';
      const result = await client.callTool({
        name: 'payments.initiate',
        arguments: { tmsReference, amount: '1.00', currency: 'USD', creditor: { name: NUL, walletAddress: WALLET }, debtor: { name: 'Acme', walletAddress: WALLET } },
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({ error: 'Invalid arguments: creditor.name: must not contain NUL (U+0000)', code: 'PAY_ERR_INVALID_REQUEST' });
      const stored = await injectJson(server, 'GET', `/integration/payments?tmsReference=${tmsReference}`, { headers: bearer });
      expect(stored.status).toBe(404);
    } finally {
      await client.close();
    }
  });

  it('commodity.forecast with a lone surrogate is a tool error {message, code} in the forecast shape', async () => {
    const client = new Client({ name: 'hygiene-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/forecast/mcp`)));
    try {
      const result = await client.callTool({ name: 'commodity.forecast', arguments: { symbol: 'CORN\ud800' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({ message: 'Invalid arguments: symbol: must be valid Unicode (it holds an unpaired surrogate, U+D800 to U+DFFF)', code: 'FCT_ERR_INVALID_BODY' });
    } finally {
      await client.close();
    }
  });

  it('tool arguments nested 5,000 deep are a tool error, never a 500 or a hang', async () => {
    const raw = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"commodity.portfolio","arguments":{"positions":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const response = await server.app.inject({
      method: 'POST',
      url: '/forecast/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1' },
      payload: raw,
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 8, result: { isError: true, structuredContent: { code: 'FCT_ERR_INVALID_BODY' } } });
    // params is at depth 0, arguments 1, positions 2, positions.0 3, ...: the array at depth 32 is positions and 30 indices.
    expect(answer.result.structuredContent.message).toBe(`Invalid arguments: positions${'.0'.repeat(30)}: nests deeper than 32 levels`);
  });

  it('a request other than a tool call with a NUL in its params is JSON-RPC Invalid params (-32602)', async () => {
    const raw = rawJson({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x\u0000', version: '1' } } });
    const response = await server.app.inject({
      method: 'POST',
      url: '/forecast/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1' },
      payload: raw,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params: params.clientInfo.name: must not contain NUL (U+0000)' } });
  });
});

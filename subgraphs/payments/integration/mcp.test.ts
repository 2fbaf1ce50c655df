import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nativePaymentBodySchema, paymentParamsSchema } from './inputs.js';
import { MCP_PATH } from './manifest.js';
import { freshWallet, type IntegrationHarness, startIntegrationHarness } from './testing.js';

// GET /integration/manifest and the MCP endpoint through the all-in-one server.

let harness: IntegrationHarness;

beforeAll(async () => {
  harness = await startIntegrationHarness('payments-mcp-test-admin-key-0123456789abcdef');
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let nextId = 1;
async function rpc(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = harness.bearer) {
  const id = nextId++;
  const response = await harness.call('POST', MCP_PATH, { raw: JSON.stringify({ jsonrpc: '2.0', id, method, params }), headers: { ...MCP_HEADERS, ...headers } });
  if (response.status === 200) {
    expect(response.body.jsonrpc).toBe('2.0');
    expect(response.body.id).toBe(id);
  }
  return response;
}

const toolText = (result: { content: Array<{ type: string; text: string }> }) => JSON.parse(result.content[0]!.text) as any;

function nativePayment() {
  return {
    tmsReference: `TMS-MCP-${randomBytes(6).toString('hex')}`,
    amount: '12.50',
    currency: 'USD',
    creditor: { name: 'Some Supplier Ltd', walletAddress: freshWallet() },
    debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
    remittanceInfo: 'Invoice MCP-1',
  };
}

describe('GET /integration/manifest', () => {
  it('lists every integration endpoint as an MCP tool with a JSON Schema generated from the REST zod schemas (bearer key: manifest-routes.test.ts)', async () => {
    const { status, body } = await harness.call('GET', '/integration/manifest', { headers: harness.bearer });
    expect(status).toBe(200);
    expect(body.mcp).toEqual({ endpoint: MCP_PATH, transport: 'streamable-http', auth: expect.stringContaining('Bearer') });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['payments.initiate', 'payments.batch', 'payments.get', 'payments.find', 'rates.get', 'integration.health']);
    expect(body.tools.map((tool: { title: string }) => tool.title)).toEqual([
      'POST /integration/payments/initiate',
      'POST /integration/payments/batch',
      'GET /integration/payments/{railPaymentId}',
      'GET /integration/payments?tmsReference=',
      'GET /integration/rates/{currency}',
      'GET /integration/health',
    ]);
    for (const tool of body.tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description.length).toBeGreaterThan(20);
    }
    const byName = Object.fromEntries(body.tools.map((tool: { name: string }) => [tool.name, tool]));
    const { $schema: _a, ...params } = z.toJSONSchema(paymentParamsSchema, { io: 'input' }) as Record<string, unknown>;
    expect(byName['payments.get'].inputSchema).toEqual(params);
    const { $schema: _b, ...native } = z.toJSONSchema(nativePaymentBodySchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    expect(byName['payments.batch'].inputSchema.properties.payments).toMatchObject({ type: 'array', minItems: 1, maxItems: 50, items: native });
    // Native and pain.001 alike.
    expect(byName['payments.initiate'].inputSchema.anyOf).toHaveLength(2);
    expect(JSON.stringify(byName['payments.initiate'].inputSchema)).toContain('CstmrCdtTrfInitn');
  });

  it('the OpenAPI document lists the new paths with their schemas (pain.001 or native in, PaymentResult or pacs.002 out)', async () => {
    const { status, body } = await harness.call('GET', '/integration/openapi.json');
    expect(status).toBe(200);
    // Paths under the document's server URL, {integration_url}.
    for (const path of ['/payments/initiate', '/payments/batch', '/health', '/manifest', '/mcp']) expect(body.paths[path]).toBeDefined();
    const initiate = JSON.stringify(body.paths['/payments/initiate'].post);
    expect(initiate).toContain('CstmrCdtTrfInitn');
    expect(initiate).toContain('FIToFIPmtStsRpt');
  });
});

describe('POST /integration/mcp', () => {
  it('initialize answers the server and its tools capability', async () => {
    const { status, body } = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    expect(status).toBe(200);
    expect(body.result.serverInfo).toEqual({ name: 'stablecoin-rail-payments', version: '1.0.0' });
    expect(body.result.capabilities.tools).toBeDefined();
  });

  it("tools/list is the manifest's tools (name, title, description, input schema), each with the annotations and output schema of its route (the one MCP server, decision 0080)", async () => {
    const manifest = (await harness.call('GET', '/integration/manifest', { headers: harness.bearer })).body;
    const { status, body, headers } = await rpc('tools/list');
    expect(status).toBe(200);
    expect(body.result.tools.map(({ name, title, description, inputSchema }: Record<string, unknown>) => ({ name, title, description, inputSchema }))).toEqual(manifest.tools);
    const byName = Object.fromEntries(body.result.tools.map((tool: { name: string }) => [tool.name, tool]));
    expect(byName['payments.get'].annotations).toEqual({ title: 'GET /integration/payments/{railPaymentId}', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(byName['payments.initiate'].annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    // The PaymentResult, and beside it the documented error body {error, code} (a refusal is structured content too).
    expect(byName['payments.get'].outputSchema.anyOf[0].required).toContain('railPaymentId');
    expect(byName['payments.get'].outputSchema.anyOf.some((branch: { properties?: Record<string, unknown> }) => branch.properties?.code)).toBe(true);
    expect(headers['x-ratelimit-limit']).toBe('1000');
  });

  it('tools/call payments.initiate pays like REST: the PaymentResult, stored, found by REST, the creditor paid; a replay sends nothing', async () => {
    const payment = nativePayment();
    const { status, body } = await rpc('tools/call', { name: 'payments.initiate', arguments: payment });
    expect(status).toBe(200);
    expect(body.result.isError).toBeUndefined();
    const result = toolText(body.result);
    expect(body.result.structuredContent).toEqual(result);
    expect(result).toMatchObject({ tmsReference: payment.tmsReference, status: 'SETTLED', settlement: { amount: '12.50', currency: 'USD', asset: 'USDC' } });
    expect(await harness.balanceOf(payment.creditor.walletAddress)).toBeGreaterThan(0n);
    const rest = await harness.call('GET', `/integration/payments/${result.railPaymentId}`, { headers: harness.bearer });
    expect(rest.body).toEqual(result);
    // The same payment by REST is the stored result (one idempotency for both doors), nothing more sent.
    const treasury = await harness.balanceOf(harness.treasury());
    const again = await harness.call('POST', '/integration/payments/initiate', { payload: payment, headers: harness.bearer });
    expect(again.body).toEqual(result);
    expect(await harness.balanceOf(harness.treasury())).toBe(treasury);
  });

  it('tools/call of the other tools answers what REST answers', async () => {
    const payment = nativePayment();
    const settled = toolText((await rpc('tools/call', { name: 'payments.initiate', arguments: payment })).body.result);
    const found = toolText((await rpc('tools/call', { name: 'payments.find', arguments: { tmsReference: payment.tmsReference } })).body.result);
    expect(found).toEqual(settled);
    const got = toolText((await rpc('tools/call', { name: 'payments.get', arguments: { railPaymentId: settled.railPaymentId } })).body.result);
    expect(got).toEqual(settled);
    const rate = toolText((await rpc('tools/call', { name: 'rates.get', arguments: { currency: 'USD' } })).body.result);
    expect(rate).toEqual((await harness.call('GET', '/integration/rates/USD')).body);
    const batch = await rpc('tools/call', { name: 'payments.batch', arguments: { payments: [nativePayment(), nativePayment()] } });
    const entries = toolText(batch.body.result);
    expect(entries.map((entry: { status: string }) => entry.status)).toEqual(['SETTLED', 'SETTLED']);
    expect(batch.body.result.structuredContent).toBeUndefined();
    const health = toolText((await rpc('tools/call', { name: 'integration.health', arguments: {} })).body.result);
    expect(health).toEqual({ status: 'ok', complianceOracle: 'ok', stabilityOracle: 'ok', db: 'ok' });
  });

  it("a tool's refusal is an isError result with {error, code}: bad arguments, unknown payment, another body under a used reference, no such tool", async () => {
    const bad = await rpc('tools/call', { name: 'payments.initiate', arguments: { ...nativePayment(), amount: 'ten' } });
    expect(bad.body.result.isError).toBe(true);
    expect(toolText(bad.body.result)).toEqual({ error: expect.stringContaining('amount'), code: 'PAY_ERR_INVALID_REQUEST' });
    const missing = await rpc('tools/call', { name: 'payments.get', arguments: { railPaymentId: 'pay_00000000-0000-4000-8000-000000000000' } });
    expect(toolText(missing.body.result)).toEqual({ error: expect.any(String), code: 'PAY_ERR_PAYMENT_NOT_FOUND' });
    const wrongType = await rpc('tools/call', { name: 'payments.find', arguments: { tmsReference: 42 } });
    expect(toolText(wrongType.body.result).code).toBe('PAY_ERR_INVALID_REQUEST');
    const payment = nativePayment();
    await rpc('tools/call', { name: 'payments.initiate', arguments: payment });
    const conflict = await rpc('tools/call', { name: 'payments.initiate', arguments: { ...payment, amount: '13' } });
    expect(toolText(conflict.body.result).code).toBe('PAY_ERR_IDEMPOTENCY_CONFLICT');
    const unknown = await rpc('tools/call', { name: 'payments.nothing', arguments: {} });
    expect(unknown.body.result.isError).toBe(true);
  });

  it('no bearer -> 401 {error, code} before the body is read; an unknown key too; nothing is sent', async () => {
    const payment = nativePayment();
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Record<string, string>[]) {
      const { status, body } = await rpc('tools/call', { name: 'payments.initiate', arguments: payment }, headers);
      expect(status).toBe(401);
      expect(body).toEqual({ error: expect.any(String), code: 'GEN_ERR_UNAUTHORIZED' });
    }
    expect((await harness.call('GET', `/integration/payments?tmsReference=${payment.tmsReference}`, { headers: harness.bearer })).status).toBe(404);
    expect(await harness.balanceOf(payment.creditor.walletAddress)).toBe(0n);
  });

  it('malformed JSON-RPC is answered as a JSON-RPC error, not a 500', async () => {
    const response = await harness.call('POST', MCP_PATH, { raw: '{"jsonrpc":"2.0","id":1,"method":42}', headers: { ...MCP_HEADERS, ...harness.bearer } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body.error).toBeDefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settleBodySchema } from '../agent/inputs.js';
import { MCP_PATH } from './manifest.js';
import { type IntegrationHarness, startIntegrationHarness } from './testing.js';

// Issue 21, "clients of the real product" (decision 0056): the integration API's /manifest and
// /health take the institution bearer key (only /rates is open), and GET /agent/manifest answers.

let harness: IntegrationHarness;

beforeAll(async () => {
  harness = await startIntegrationHarness('payments-manifest-test-admin-key-0123456789abcdef');
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

const UNAUTHORIZED = { error: 'A valid key is required (X-API-Key, or Authorization: Bearer for institutions).', code: 'GEN_ERR_UNAUTHORIZED' };

describe('GET /integration/manifest and /integration/health take the institution bearer key', () => {
  it.each(['/integration/manifest', '/integration/health'])('%s: 401 in the integration error body without a key or with an unknown one, WWW-Authenticate Bearer', async (path) => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer not-a-key-of-this-rail' }, { 'x-api-key': 'not-a-key-of-this-rail' }];
    for (const headers of attempts) {
      const { status, body, headers: answered } = await harness.call('GET', path, { headers });
      expect(status).toBe(401);
      expect(body).toEqual(UNAUTHORIZED);
      if ('authorization' in headers || Object.keys(headers).length === 0) expect(answered['www-authenticate']).toBe('Bearer');
    }
  });

  it("with the key: the manifest's MCP tools, the health of each part, and the rate-limit headers", async () => {
    const manifest = await harness.call('GET', '/integration/manifest', { headers: harness.bearer });
    expect(manifest.status).toBe(200);
    expect(manifest.body.mcp).toEqual({ endpoint: MCP_PATH, transport: 'streamable-http', auth: 'Authorization: Bearer <institution key>' });
    expect(manifest.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['payments.initiate', 'payments.batch', 'payments.get', 'payments.find', 'rates.get', 'integration.health']);
    expect(manifest.headers['x-ratelimit-limit']).toBe('1000');
    const health = await harness.call('GET', '/integration/health', { headers: harness.bearer });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', complianceOracle: 'ok', stabilityOracle: 'ok', db: 'ok' });
  });

  it('GET /integration/rates/{currency} stays open (Document 2 §5)', async () => {
    const { status, body } = await harness.call('GET', '/integration/rates/EUR');
    expect(status).toBe(200);
    expect(body).toMatchObject({ currency: 'EUR', rate: expect.stringMatching(/^\d+(\.\d+)?$/), updatedAt: expect.any(Number) });
  });
});

describe('GET /agent/manifest', () => {
  it("answers, open, the settlement agent's endpoints under its URL, how a settlement is authorised, and the settle tool's JSON Schemas", async () => {
    const { status, body } = await harness.call('GET', '/agent/manifest');
    expect(status).toBe(200);
    const agentUrl = 'http://localhost:80/agent';
    expect(body).toMatchObject({
      schema: 'agent-manifest/1.0',
      server: { name: 'stablecoin-rail-settlement-agent', version: '1.0.0' },
      agentUrl,
      endpoints: { manifest: `GET ${agentUrl}/manifest`, settle: `POST ${agentUrl}/settle`, capabilities: `GET ${agentUrl}/.well-known/ap2.json`, openapi: `GET ${agentUrl}/openapi.json` },
    });
    expect(Object.keys(body.authentication).sort()).toEqual(['agentMandate', 'ap2Mandate']);
    expect(body.authentication.agentMandate).toContain('X-Agent-Id');
    // Both paths say whose funds pay (decision 0049): the agent owner's, or the mandate's issuer's.
    expect(body.authentication.agentMandate).toMatch(/X-Agent-Key.*owner's deposits/);
    expect(body.authentication.ap2Mandate).toMatch(/body\.mandate alone.*issuer's deposits/);
    expect(body.tools).toHaveLength(1);
    const [settle] = body.tools;
    expect(settle).toMatchObject({ name: 'agent.settle', title: 'POST /agent/settle' });
    const { $schema: _dialect, ...input } = z.toJSONSchema(settleBodySchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    expect(settle.inputSchema).toEqual(input);
    expect(settle.inputSchema.required).toEqual(expect.arrayContaining(['amount', 'sourceCurrency', 'destinationCurrency', 'recipientAddress']));
    expect(Object.keys(settle.headersSchema.properties)).toContain('x-agent-id');
    // The capability document it names answers at that path.
    expect((await harness.call('GET', '/agent/.well-known/ap2.json')).status).toBe(200);
  });
});

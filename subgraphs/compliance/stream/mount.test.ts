import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { startTestServer, TEST_NOW, type TestServer } from '../../../test/helpers.js';

// The streaming sessions through the all-in-one server: mounted by the compliance subgraph under
// {compliance_url} = <server>/compliance, listed in its x402 discovery document beside VoP.

let server: TestServer;
let rail: ChainConnection;

beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['compliance'] });
  rail = await server.platform!.chain.connect();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function call(method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const response = await server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
}

describe('streaming sessions in the all-in-one server', () => {
  it('opens a session at /compliance/stream/open paid with the x402 client, ticks it and reads it', async () => {
    const body = { amountUsdc: '0.15', unitType: 'call' };
    const unpaid = await call('POST', '/compliance/stream/open', body);
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.accepts[0]).toMatchObject({ maxAmountRequired: '150000', resource: 'http://localhost:80/compliance/stream/open' }); // 2 x 75000
    const header = await createPaymentHeader(rail.embedded!.walletFor(rail.embedded!.accounts[6]!) as never, 1, unpaid.body.accepts[0] as PaymentRequirements);
    const opened = await call('POST', '/compliance/stream/open', body, { 'x-payment': header });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'ACTIVE', unitType: 'call', balanceUnits: 2, openedAt: TEST_NOW, payer: rail.embedded!.accounts[6]!.address });
    expect(settleResponseFromHeader(String(opened.headers['x-payment-response'])).transaction).toBe(opened.body.transaction);
    const auth = { authorization: `Bearer ${opened.body.token}` };
    expect((await call('POST', `/compliance/stream/${opened.body.sessionId}/tick`, { units: 2 }, auth)).body).toMatchObject({ costUsdc: '0.15', balanceUsdc: '0', status: 'EXHAUSTED' });
    expect(await call('POST', `/compliance/stream/${opened.body.sessionId}/tick`, { units: 1 }, auth)).toMatchObject({
      status: 402,
      body: { code: 'CMP_ERR_STREAM_INSUFFICIENT_BALANCE', balanceUnits: 0 },
    });
    expect((await call('GET', `/compliance/stream/${opened.body.sessionId}`, undefined, auth)).body).toMatchObject({ unitsUsed: 2, balanceUnits: 0 });
    expect(await call('GET', `/compliance/stream/${opened.body.sessionId}`)).toMatchObject({ status: 401, body: { code: 'CMP_ERR_STREAM_TOKEN_REQUIRED' } });
  });

  it('lists POST /stream/open in /compliance/.well-known/x402 as Document 2 §2 writes it, VoP unchanged', async () => {
    const { status, body } = await call('GET', '/compliance/.well-known/x402');
    expect(status).toBe(200);
    expect(body.endpoints['POST /stream/open']).toEqual({
      variableAmount: true,
      minUsdc: 0.01,
      maxUsdc: 10000,
      unitTypes: ['second', 'token', 'call', 'byte'],
      network: 'base',
      facilitator: 'http://localhost:80',
      description: 'Pay upfront for a credit bucket, units ticked against the balance',
    });
    expect(body.endpoints['POST /vop/verify']).toEqual({
      price: { amount: '75000', currency: 'USDC', decimals: 6 },
      network: 'base',
      facilitator: 'http://localhost:80',
      description: expect.any(String),
    });
  });

  it('describes the three paths in /compliance/openapi.json', async () => {
    const { body } = await call('GET', '/compliance/openapi.json');
    expect(Object.keys(body.paths['/stream/open'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '402']));
    expect(Object.keys(body.paths['/stream/{sessionId}/tick'].post.responses)).toEqual(expect.arrayContaining(['200', '401', '402', '404', '410']));
    expect(body.paths['/stream/{sessionId}'].get).toBeDefined();
  });
});

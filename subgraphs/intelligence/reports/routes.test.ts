import { type Address, decodeEventLog, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { ManualClock } from '../../../platform/clock.js';
import { RULE_BASED_MODEL } from '../../../platform/synthesis.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';

const CLIMATE = '/reports/report/climate';
const REPORT_FIELDS = ['data', 'generatedAt', 'period', 'reportType', 'sources', 'synthesis'];
const SYNTHESIS_FIELDS = ['dataQuality', 'keyFindings', 'model', 'narrative', 'recommendations', 'riskLevel', 'summary'];

let server: TestServer;
let baseUrl: string;
let rail: ChainConnection;

beforeAll(async () => {
  server = await startTestServer();
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  rail = await server.platform!.chain.connect();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const wallet = (index: number) => rail.embedded!.walletFor(rail.embedded!.accounts[index]!);
const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.payment!.token, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
const pay = (index: number, requirements: PaymentRequirements) => createPaymentHeader(wallet(index) as never, 1, requirements);

/** The token transfers a transaction made, read from its receipt on chain. */
async function transfersOf(transaction: string) {
  const receipt = await rail.publicClient.getTransactionReceipt({ hash: transaction as `0x${string}` });
  return receipt.logs
    .filter((log) => log.address.toLowerCase() === rail.payment!.token.toLowerCase())
    .map((log) => decodeEventLog({ abi: railUSDAbi, data: log.data, topics: log.topics }))
    .filter((event) => event.eventName === 'Transfer')
    .map((event) => event.args as { from: Address; to: Address; value: bigint });
}

async function graphqlOver(headers: Record<string, string>, query = '{ climateReport { reportType period generatedAt synthesis { riskLevel dataQuality model summary narrative } sources } }') {
  const response = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { data?: { climateReport: Record<string, unknown> | null }; errors?: Array<{ extensions: Record<string, unknown> }> },
  };
}

describe('GET /reports/report/climate, paid with the x402 client against the running server', () => {
  it('answers 402 with the descriptor and the preview, then 200 with the report once paid, the transfer on chain', async () => {
    const unpaid = await fetch(`${baseUrl}${CLIMATE}`);
    expect(unpaid.status).toBe(402);
    const descriptor = (await unpaid.json()) as { x402Version: number; error: string; accepts: PaymentRequirements[]; reportPreview: Record<string, unknown> };
    expect(Object.keys(descriptor).sort()).toEqual(['accepts', 'error', 'reportPreview', 'x402Version']);
    expect(descriptor.x402Version).toBe(1);
    expect(descriptor.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'base',
        maxAmountRequired: '2000000',
        resource: `${baseUrl}${CLIMATE}`,
        description: 'Climate intelligence report: physical risk, commodity stress and climate outlook',
        mimeType: 'application/json',
        payTo: rail.payment!.payTo,
        maxTimeoutSeconds: 60,
        asset: rail.payment!.token,
        extra: { name: 'Settlement Rail USD', version: '1' },
      },
    ]);
    expect(descriptor.reportPreview).toEqual({
      type: 'climate',
      whatYouGet: expect.arrayContaining([expect.stringMatching(/Risk level/)]),
      fee: { amountUsdc: '2.00', asset: rail.payment!.token },
    });

    const payer = rail.embedded!.accounts[5]!.address;
    const before = await balanceOf(payer);
    const paid = await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-payment': await pay(5, descriptor.accepts[0]!) } });
    expect(paid.status).toBe(200);
    const report = (await paid.json()) as Record<string, never> & { synthesis: Record<string, unknown>; data: Record<string, unknown>; sources: string[] };
    expect(Object.keys(report).sort()).toEqual(REPORT_FIELDS);
    expect(Object.keys(report.synthesis).sort()).toEqual(SYNTHESIS_FIELDS);
    expect(report).toMatchObject({ reportType: 'climate', period: '2026-11', generatedAt: '2026-11-22T12:00:00.000Z' });
    expect(report.synthesis).toMatchObject({ dataQuality: 'ESTIMATED', model: RULE_BASED_MODEL });
    expect(['LOW', 'MODERATE', 'ELEVATED', 'HIGH', 'CRITICAL']).toContain(report.synthesis.riskLevel);
    expect(Object.keys(report.synthesis.narrative as object)).toEqual(['Physical risk', 'Commodity stress', 'Climate outlook']);
    expect(Object.keys(report.data).sort()).toEqual(['calendar', 'heatCheck', 'regions']);
    expect(report.sources.length).toBeGreaterThan(0);
    for (const source of report.sources) expect(source).toMatch(/\(.+\), as of \d{4}-\d{2}-\d{2}/);

    const settlement = settleResponseFromHeader(String(paid.headers.get('x-payment-response')));
    expect(settlement).toMatchObject({ success: true, network: 'base', payer });
    expect(await transfersOf(settlement.transaction)).toEqual([{ from: payer, to: rail.payment!.payTo, value: 2_000_000n }]);
    expect(before - (await balanceOf(payer))).toBe(parseUnits('2', 6));
  });

  it('serves the same report to every valid payment inside the 60-minute window, and a new one after it', async () => {
    const requirements = async () => ((await (await fetch(`${baseUrl}${CLIMATE}`)).json()) as { accepts: PaymentRequirements[] }).accepts[0]!;
    const buy = async (index: number) => {
      const response = await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-payment': await pay(index, await requirements()) } });
      expect(response.status).toBe(200);
      return (await response.json()) as { generatedAt: string };
    };
    const first = await buy(6);
    server.clock.advance(59 * 60_000);
    expect(await buy(7)).toEqual(first);
    server.clock.advance(2 * 60_000);
    const later = await buy(6);
    expect(later.generatedAt).not.toBe(first.generatedAt);
    expect(later.generatedAt).toBe(server.clock.now().toISOString());
  });

  it('refuses a second use of one payment with 402 and its reason, moving nothing', async () => {
    const { accepts } = (await (await fetch(`${baseUrl}${CLIMATE}`)).json()) as { accepts: PaymentRequirements[] };
    const header = await pay(8, accepts[0]!);
    expect((await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-payment': header } })).status).toBe(200);
    const payer = rail.embedded!.accounts[8]!.address;
    const before = await balanceOf(payer);
    const replay = await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-payment': header } });
    expect(replay.status).toBe(402);
    expect(((await replay.json()) as { error: string }).error).toMatch(/^payment_already_used/);
    expect(await balanceOf(payer)).toBe(before);
  });
});

describe('climateReport in the graph, paid through the gateway', () => {
  it('answers an error carrying the payment requirements, then the report for the same X-PAYMENT header, with X-PAYMENT-RESPONSE', async () => {
    const unpaid = await graphqlOver({});
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.data?.climateReport).toBeNull();
    const extensions = unpaid.body.errors![0]!.extensions;
    expect(extensions).toMatchObject({ code: 'GEN_ERR_PAYMENT_REQUIRED', httpStatus: 402, x402Version: 1, error: 'X-PAYMENT header is required' });
    const [requirements] = extensions.accepts as PaymentRequirements[];
    expect(requirements).toMatchObject({ maxAmountRequired: '2000000', payTo: rail.payment!.payTo, asset: rail.payment!.token, resource: expect.stringMatching(/\/graphql#climateReport$/) });
    expect(extensions.reportPreview).toMatchObject({ type: 'climate', fee: { amountUsdc: '2.00' } });

    const payer = rail.embedded!.accounts[3]!.address;
    expect(payer).not.toBe(rail.payment!.payTo);
    const paid = await graphqlOver({ 'x-payment': await pay(3, requirements!) });
    expect(paid.status).toBe(200);
    expect(paid.body.errors).toBeUndefined();
    expect(paid.body.data?.climateReport).toMatchObject({ reportType: 'climate', synthesis: { model: RULE_BASED_MODEL } });
    const settlement = settleResponseFromHeader(String(paid.headers.get('x-payment-response')));
    expect(await transfersOf(settlement.transaction)).toEqual([{ from: payer, to: rail.payment!.payTo, value: 2_000_000n }]);
  });
});

describe('hostile payments', () => {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
  const authorization = {
    from: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    to: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    value: '2000000',
    validAfter: '0',
    validBefore: '99999999999',
    nonce: `0x${'11'.repeat(32)}`,
  };

  it.each([
    ['not base64', '%%%'],
    ['base64 of text', Buffer.from('hello').toString('base64')],
    ['a JSON array', encode([1, 2])],
    ['another scheme', encode({ x402Version: 1, scheme: 'upto', network: 'base', payload: { signature: '0x00', authorization } })],
    ['another network', encode({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { signature: '0x00', authorization } })],
    ['x402 version 2', encode({ x402Version: 2, scheme: 'exact', network: 'base', payload: { signature: '0x00', authorization } })],
    [
      'numbers that are not numbers',
      encode({ x402Version: 1, scheme: 'exact', network: 'base', payload: { signature: `0x${'00'.repeat(65)}`, authorization: { ...authorization, value: 'lots', validBefore: '-1' } } }),
    ],
    ['a forged signature', encode({ x402Version: 1, scheme: 'exact', network: 'base', payload: { signature: `0x${'00'.repeat(65)}`, authorization } })],
    // Written by hand: an object literal's __proto__ sets its prototype, and JSON.stringify would drop it.
    [
      'a __proto__ key',
      Buffer.from(`{"__proto__":{"polluted":true},"x402Version":1,"scheme":"exact","network":"base","payload":{"signature":"0x00","authorization":${JSON.stringify(authorization)}}}`).toString(
        'base64',
      ),
    ],
  ])('%s: a 402 with a reason, never a 500', async (_name, header) => {
    const response = await server.app.inject({ method: 'GET', url: CLIMATE, headers: { 'x-payment': header } });
    expect(response.statusCode).toBe(402);
    const body = response.json<{ error: string; accepts: unknown[] }>();
    expect(body.error.length).toBeGreaterThan(0);
    expect(body.error).not.toMatch(/X-PAYMENT header is required/);
    expect(body.accepts).toHaveLength(1);
  });

  it('one payment for two aliases of the priced field pays for one; the other is refused as already used', async () => {
    const { errors } = (await graphqlOver({})).body;
    const [requirements] = errors![0]!.extensions.accepts as PaymentRequirements[];
    const payer = rail.embedded!.accounts[5]!.address;
    const before = await balanceOf(payer);
    const both = await graphqlOver({ 'x-payment': await pay(5, requirements!) }, '{ a: climateReport { reportType } b: climateReport { reportType } }');
    const data = both.body.data as unknown as { a: unknown; b: unknown };
    expect([data.a, data.b].filter((report) => report !== null)).toEqual([{ reportType: 'climate' }]);
    expect(both.body.errors).toHaveLength(1);
    expect(both.body.errors![0]!.extensions).toMatchObject({ code: 'GEN_ERR_PAYMENT_REQUIRED', error: expect.stringMatching(/^payment_already_used/) });
    expect(before - (await balanceOf(payer))).toBe(parseUnits('2', 6));
  });
});

describe('an API key instead of a payment', () => {
  it('takes the report over REST and GraphQL with the rate-limit headers; unknown, revoked and over-limit keys are refused', async () => {
    const keys = server.platform!.access.keys;
    const { key, record } = await keys.create('api', 'research desk', 3);
    const rest = await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-api-key': key } });
    expect(rest.status).toBe(200);
    expect([rest.headers.get('x-ratelimit-limit'), rest.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2']);
    expect(rest.headers.get('x-payment-response')).toBeNull();
    const viaGraph = await graphqlOver({ 'x-api-key': key });
    expect(viaGraph.body.data?.climateReport).toMatchObject({ reportType: 'climate' });
    expect([viaGraph.headers.get('x-ratelimit-limit'), viaGraph.headers.get('x-ratelimit-remaining')]).toEqual(['3', '1']);
    expect((await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-api-key': key } })).status).toBe(200);
    const over = await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-api-key': key } });
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ error: 'Too many requests; retry later.', code: 'GEN_ERR_RATE_LIMITED' });
    expect(Number(over.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    expect(over.headers.get('retry-after')).toBe(over.headers.get('x-ratelimit-reset'));

    await keys.revoke(record.id);
    for (const presented of [key, 'srk_unknown']) {
      const refused = await fetch(`${baseUrl}${CLIMATE}`, { headers: { 'x-api-key': presented } });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { code: string }).code).toBe('GEN_ERR_UNAUTHORIZED');
    }
    const refusedInGraph = await graphqlOver({ 'x-api-key': 'srk_unknown' });
    expect(refusedInGraph.status).toBe(401);
    expect(refusedInGraph.body.errors![0]!.extensions.code).toBe('GEN_ERR_UNAUTHORIZED');
  });
});

describe('discovery and health', () => {
  it('GET /reports/.well-known/x402 lists every priced report with its price', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/reports/.well-known/x402' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      version: 1,
      endpoints: {
        'GET /report/climate': {
          price: { amount: '2000000', currency: 'USDC', decimals: 6 },
          network: 'base',
          facilitator: 'http://localhost:80',
          description: 'Climate intelligence report: physical risk, commodity stress and climate outlook',
        },
        'GET /report/macro': expect.objectContaining({ price: { amount: '1000000', currency: 'USDC', decimals: 6 } }),
        'GET /report/esg': expect.objectContaining({ price: { amount: '1000000', currency: 'USDC', decimals: 6 } }),
        'GET /report/compliance': expect.objectContaining({ price: { amount: '1000000', currency: 'USDC', decimals: 6 } }),
        'GET /report/treasury': expect.objectContaining({ price: { amount: '1000000', currency: 'USDC', decimals: 6 } }),
      },
    });
  });

  it('GET /reports/.well-known/agent.json lists each report as a skill with its payment requirements', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/reports/.well-known/agent.json' });
    expect(response.statusCode).toBe(200);
    const card = response.json();
    expect(card).toMatchObject({ name: 'Settlement rail reports', url: 'http://localhost:80/reports', capabilities: { streaming: false, pushNotifications: false } });
    expect(card.skills).toEqual([
      expect.objectContaining({
        id: 'climate-report',
        endpoint: { method: 'GET', url: 'http://localhost:80/reports/report/climate' },
        payment: { x402Version: 1, accepts: [expect.objectContaining({ maxAmountRequired: '2000000', resource: 'http://localhost:80/reports/report/climate', asset: rail.payment!.token })] },
      }),
      expect.objectContaining({ id: 'macro-report' }),
      expect.objectContaining({ id: 'esg-report' }),
      expect.objectContaining({ id: 'compliance-report' }),
      expect.objectContaining({ id: 'treasury-report' }),
    ]);
  });

  it('names PUBLIC_BASE_URL, not the Host header, as the resource paid for and in the discovery documents', async () => {
    const behindProxy = await startTestServer({ subgraphs: ['intelligence'], environment: { PUBLIC_BASE_URL: 'https://rail.example.com/' } });
    try {
      const unpaid = await behindProxy.app.inject({ method: 'GET', url: CLIMATE, headers: { host: 'attacker.example' } });
      expect(unpaid.json().accepts[0].resource).toBe(`https://rail.example.com${CLIMATE}`);
      const discovery = await behindProxy.app.inject({ method: 'GET', url: '/reports/.well-known/x402', headers: { host: 'attacker.example' } });
      expect(discovery.json().endpoints['GET /report/climate'].facilitator).toBe('https://rail.example.com');
      const card = await behindProxy.app.inject({ method: 'GET', url: '/reports/.well-known/agent.json', headers: { host: 'attacker.example' } });
      expect(card.json().url).toBe('https://rail.example.com/reports');
    } finally {
      await behindProxy.close();
    }
  });

  it('has no HEAD twin of a paid GET: a HEAD would be charged for a body it never receives', async () => {
    const payer = rail.embedded!.accounts[6]!.address;
    const before = await balanceOf(payer);
    const requirements = (await server.app.inject({ method: 'GET', url: CLIMATE })).json().accepts[0];
    const head = await server.app.inject({ method: 'HEAD', url: CLIMATE, headers: { 'x-payment': await pay(6, requirements) } });
    expect(head.statusCode).not.toBe(200);
    expect(head.headers['x-payment-response']).toBeUndefined();
    expect(await balanceOf(payer)).toBe(before);
  });

  it('GET /reports/health answers status, service and version', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/reports/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', service: 'reports', version: '1.0.0' });
  });
});

describe('the climate report without the forecast in reach', () => {
  it('answers 503 GEN_ERR_UNAVAILABLE in the reports shape, not a 500, when the process serves intelligence alone', async () => {
    // Another month than the file's other tests, whose climate report of November is in the worker's shared database.
    const alone = await startTestServer({ subgraphs: ['intelligence'], clock: new ManualClock('2027-02-10T12:00:00.000Z') });
    try {
      const { key } = await alone.platform!.access.keys.create('api', 'no forecast here', 10);
      const response = await alone.app.inject({ method: 'GET', url: CLIMATE, headers: { 'x-api-key': key } });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'GEN_ERR_UNAVAILABLE' });
    } finally {
      await alone.close();
    }
  });
});

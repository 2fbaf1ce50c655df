import { type Address, decodeEventLog } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { RULE_BASED_MODEL } from '../../../platform/synthesis.js';
import { fixtureMarker, insertFixtureHolds, insertFixturePayments, paymentsOf } from '../../../test/fixtures/treasury-payments.js';
import { openTestPglite, startTestServer, TEST_NOW, type TestServer } from '../../../test/helpers.js';

const ADMIN_KEY = 'reports-admin-key-0123456789abcdef0123456789';
const REPORT_FIELDS = ['data', 'generatedAt', 'period', 'reportType', 'sources', 'synthesis'];
const SHELL_CATALYSTS = '2138001KPMR6PD83HC08';
const AMAZON_DIGITAL_UK = '254900LNRYNOQ9YPU758';
const COMPLIANCE = '/reports/report/compliance';
const TREASURY = '/reports/report/treasury';
const SEPTEMBER = new Date('2026-09-07T10:00:00.000Z');
const BANKS = ['bank-alpha', 'bank-bravo', 'bank-charlie', 'bank-delta'];

let database: DatabaseHandle;
let server: TestServer;
let baseUrl: string;
let rail: ChainConnection;
let key: string;

beforeAll(async () => {
  // A database of its own: the payments, registrations and cached reports are this file's alone.
  database = await openTestPglite();
  server = await startTestServer({ subgraphs: ['intelligence', 'compliance', 'payments'], database, environment: { ADMIN_KEY } });
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  rail = await server.platform!.chain.connect();
  key = (await server.platform!.access.keys.create('api', 'report desk', 1000)).key;
  await insertFixturePayments(database.db, [
    // EUR: 4 banks x 4 settled, 100 EUR at 1.1 (110 USD), 90 s to settle; 3 banks x 4 failed.
    ...BANKS.flatMap((bank) => paymentsOf(bank, 4, { currency: 'EUR', status: 'SETTLED', amount: '100', exchangeRate: '1.1', settleSeconds: 90 }, SEPTEMBER)),
    ...BANKS.slice(0, 3).flatMap((bank) => paymentsOf(bank, 4, { currency: 'EUR', status: 'FAILED', amount: '100', exchangeRate: '1.1' }, SEPTEMBER)),
    // USD: 3 agents' settlements, 4 each of 25 USD, sent by the settlement agent.
    ...['agent-1', 'agent-2', 'agent-3'].flatMap((agentId) =>
      paymentsOf('settlement-agent', 4, { currency: 'USD', status: 'SETTLED', amount: '25', exchangeRate: '1', settleSeconds: 30, agentId }, SEPTEMBER),
    ),
    // CHF: one bank alone: nothing of it may show.
    ...paymentsOf('bank-echo', 2, { currency: 'CHF', status: 'SETTLED', amount: '50', exchangeRate: '1.13' }, SEPTEMBER),
  ]);
  await insertFixtureHolds(
    database.db,
    ['agent-1', 'agent-2', 'agent-3'].flatMap((agentId) => Array.from({ length: 4 }, () => ({ agentId, status: 'DISMISSED' as const, rules: ['dailyCap'], createdAt: SEPTEMBER }))),
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

const wallet = (index: number) => rail.embedded!.walletFor(rail.embedded!.accounts[index]!);
const get = async (path: string, headers: Record<string, string> = { 'x-api-key': key }) => {
  const response = await server.app.inject({ method: 'GET', url: path, headers });
  return { status: response.statusCode, body: response.json<Record<string, any>>(), text: response.body, headers: response.headers };
};

/** Pays the report at `path` with the x402 client from account `index`, against the listening server; the report and the token transfer on chain. */
async function buy(path: string, index: number) {
  const unpaid = await fetch(`${baseUrl}${path}`);
  expect(unpaid.status).toBe(402);
  const descriptor = (await unpaid.json()) as { accepts: PaymentRequirements[]; reportPreview: Record<string, unknown> };
  const paid = await fetch(`${baseUrl}${path}`, { headers: { 'x-payment': await createPaymentHeader(wallet(index) as never, 1, descriptor.accepts[0]!) } });
  expect(paid.status).toBe(200);
  const settlement = settleResponseFromHeader(String(paid.headers.get('x-payment-response')));
  const receipt = await rail.publicClient.getTransactionReceipt({ hash: settlement.transaction as `0x${string}` });
  const transfers = receipt.logs
    .filter((log) => log.address.toLowerCase() === rail.payment!.token.toLowerCase())
    .map((log) => decodeEventLog({ abi: railUSDAbi, data: log.data, topics: log.topics }))
    .filter((event) => event.eventName === 'Transfer')
    .map((event) => event.args as { from: Address; to: Address; value: bigint });
  return { descriptor, report: (await paid.json()) as Record<string, any>, transfers, payer: rail.embedded!.accounts[index]!.address };
}

describe('the two reports are sold like the other three', () => {
  it.each([
    [`${COMPLIANCE}?lei=${SHELL_CATALYSTS}`, 'compliance'],
    [TREASURY, 'treasury'],
  ])('%s: 402 with the descriptor and the preview at 1.00 USDC', async (path, type) => {
    const { status, body } = await get(path, {});
    expect(status).toBe(402);
    expect(body.accepts[0]).toMatchObject({ scheme: 'exact', network: 'base', maxAmountRequired: '1000000', resource: `http://localhost:80${path.split('?')[0]}` });
    expect(body.reportPreview).toMatchObject({ type, fee: { amountUsdc: '1.00' }, whatYouGet: expect.any(Array) });
  });

  it('the compliance report, paid with a real x402 payment: 1.00 USDC moved on chain', async () => {
    const { report, transfers, payer } = await buy(`${COMPLIANCE}?lei=${SHELL_CATALYSTS}`, 1);
    expect(Object.keys(report).sort()).toEqual(REPORT_FIELDS);
    expect(report).toMatchObject({ reportType: 'compliance', period: '2026-11', generatedAt: TEST_NOW });
    expect(transfers).toEqual([{ from: payer, to: rail.payment!.payTo, value: 1_000_000n }]);
  });

  it('the treasury report, paid with a real x402 payment: 1.00 USDC moved on chain', async () => {
    const { report, transfers, payer } = await buy(`${TREASURY}?period=2026-09`, 2);
    expect(report).toMatchObject({ reportType: 'treasury', period: '2026-09', generatedAt: TEST_NOW });
    expect(transfers).toEqual([{ from: payer, to: rail.payment!.payTo, value: 1_000_000n }]);
  });

  it('takes an API key instead, with the rate-limit headers', async () => {
    const { status, headers } = await get(`${COMPLIANCE}?name=Ubisecure%20Oy`);
    expect(status).toBe(200);
    expect(headers['x-ratelimit-limit']).toBe('1000');
  });

  it('lists both in the discovery document and the agent card', async () => {
    const discovery = (await get('/reports/.well-known/x402', {})).body;
    expect(Object.keys(discovery.endpoints)).toEqual(expect.arrayContaining(['GET /report/compliance', 'GET /report/treasury']));
    const card = (await get('/reports/.well-known/agent.json', {})).body;
    const skills = card.skills as Array<{ id: string; examples: string[]; payment: { accepts: Array<{ maxAmountRequired: string }> } }>;
    expect(skills.find((skill) => skill.id === 'treasury-report')).toMatchObject({
      examples: ['GET /reports/report/treasury?period=2026-10'],
      payment: { accepts: [{ maxAmountRequired: '1000000' }] },
    });
    expect(skills.find((skill) => skill.id === 'compliance-report')?.payment.accepts[0]?.maxAmountRequired).toBe('1000000');
  });
});

describe('GET /reports/report/compliance', () => {
  it('by LEI: the registry record, the screens, the country risk and the Travel Rule, from stale lists (ESTIMATED)', async () => {
    const { body } = await get(`${COMPLIANCE}?lei=${SHELL_CATALYSTS.toLowerCase()}`);
    expect(body.data).toMatchObject({
      subject: { lei: SHELL_CATALYSTS },
      screenedName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.',
      registry: { lei: SHELL_CATALYSTS, leiStatus: 'ACTIVE', jurisdiction: 'SG' },
      countryRisk: { jurisdiction: 'SG', fatfFlags: [] },
      travelRule: { status: 'NOT_CONFIRMABLE', registeredWallets: 0 },
    });
    expect(body.data.screening).toMatchObject({ verdict: expect.stringMatching(/^(APPROVED|FLAGGED|BLOCKED)$/) });
    expect(body.data.pep).toMatchObject({ riskLevel: expect.any(String), eddRequired: expect.any(Boolean) });
    expect(Object.keys(body.synthesis.narrative)).toEqual(['Sanctions screening', 'PEP check', 'Country risk', 'LEI registry', 'Travel Rule']);
    expect(body.synthesis).toMatchObject({ model: RULE_BASED_MODEL, dataQuality: 'ESTIMATED' });
    const ofac = (body.data.datasets as Array<Record<string, unknown>>).find((dataset) => dataset.dataset === 'ofacSdn');
    expect(ofac).toMatchObject({ asOf: '2023-12-28', stale: true });
    expect(body.sources.some((source: string) => source.includes('as of 2023-12-28'))).toBe(true);
  });

  it('a wallet registered under the LEI makes the Travel Rule confirmable', async () => {
    const registered = await server.app.inject({
      method: 'POST',
      url: '/compliance/register',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', lei: AMAZON_DIGITAL_UK },
    });
    expect(registered.statusCode).toBeLessThan(300);
    const { body } = await get(`${COMPLIANCE}?lei=${AMAZON_DIGITAL_UK}`);
    expect(body.data.travelRule).toMatchObject({ status: 'CONFIRMABLE', registeredWallets: 1, registryVerified: 1 });
    expect(body.data.flags).toContain('TRAVEL_RULE_CONFIRMABLE');
    // Not a wallet address of the entity: the registry's public lookup names them, the report only counts them.
    expect(JSON.stringify(body)).not.toMatch(/0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed/i);
  });

  it('a sanctioned name: SANCTIONS_MATCH, CRITICAL, do not settle', async () => {
    const { body } = await get(`${COMPLIANCE}?name=${encodeURIComponent('Banco Nacional de Cuba')}`);
    expect(body.data.screening).toMatchObject({ verdict: 'BLOCKED', sanctions: true });
    expect(body.synthesis.keyFindings).toContain('SANCTIONS_MATCH');
    expect(body.synthesis.riskLevel).toBe('CRITICAL');
    expect(body.data.travelRule.status).toBe('UNDETERMINED');
  });

  it('a name alone lists the registry entities that resemble it', async () => {
    const { body } = await get(`${COMPLIANCE}?name=Ubisecure%20Oy`);
    expect(body.data.candidates[0]).toMatchObject({ lei: '529900T8BM49AURSDO55', legalName: 'Ubisecure Oy' });
    expect(body.data.registry).toBeNull();
  });

  it('serves one report per subject for 60 minutes, whatever the spelling, and a new one after', async () => {
    const first = await get(`${COMPLIANCE}?name=${encodeURIComponent('Acme  Trading Ltd')}`);
    const again = await get(`${COMPLIANCE}?name=${encodeURIComponent('acme trading ltd')}`);
    expect(again.body.generatedAt).toBe(first.body.generatedAt);
    server.clock.advance(59 * 60_000);
    expect((await get(`${COMPLIANCE}?name=${encodeURIComponent('Acme  Trading Ltd')}`)).body.generatedAt).toBe(first.body.generatedAt);
    server.clock.advance(2 * 60_000);
    expect((await get(`${COMPLIANCE}?name=${encodeURIComponent('Acme  Trading Ltd')}`)).body.generatedAt).toBe(server.clock.now().toISOString());
  });

  it.each([
    ['neither lei nor name', '', 'GEN_ERR_BAD_REQUEST'],
    ['an empty name', '?name=%20', 'GEN_ERR_BAD_REQUEST'],
    ['a name of 257 characters', `?name=${'a'.repeat(257)}`, 'GEN_ERR_BAD_REQUEST'],
    ['an LEI of 19 characters', '?lei=2138001KPMR6PD83HC0', 'GEN_ERR_BAD_REQUEST'],
    ['an LEI with wrong check digits', '?lei=2138001KPMR6PD83HC09', 'INT_ERR_INVALID_SUBJECT'],
    ['an unknown parameter', `?lei=${SHELL_CATALYSTS}&wallet=0x00`, 'GEN_ERR_BAD_REQUEST'],
  ])('%s: 400 {error, code} before any payment', async (_name, query, code) => {
    const { status, body } = await get(`${COMPLIANCE}${query}`, {});
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.any(String), code });
  });
});

describe('GET /reports/report/treasury', () => {
  it('the month in aggregate: 42 payments, 16 x 110 + 12 x 25 + 2 x 56.5 = 2173 USD settled; CHF (one bank) withheld', async () => {
    const { body } = await get(`${TREASURY}?period=2026-09`);
    const summary = body.data.summary;
    // Settled 30 of 42 (16 EUR, 12 USD, 2 CHF), failed 12 (EUR); the CHF bank's 2 are inside the month's figures, which 8 contributors make.
    // Mean time to settle: (16 x 90 + 12 x 30 + 2 x 60) / 30 = 1920 / 30 = 64 s.
    expect(summary.settlement).toMatchObject({ payments: 42, settled: 30, failed: 12, blocked: 0, pending: 0, settledVolumeUsd: '2173.00', meanSecondsToSettle: 64 });
    expect(summary.corridors.map((row: { corridor: string }) => row.corridor)).not.toContain('CHF/USDC');
    expect(summary.automatedDecisions.settlements).toMatchObject({ decisions: 12, settled: 12 });
    expect(summary.automatedDecisions.holds).toMatchObject({ holds: 12, dismissed: 12 });
    expect(summary.automatedDecisions.violatedRules).toEqual([{ rule: 'dailyCap', holds: 12 }]);
    expect(Object.keys(body.synthesis.narrative)).toEqual(['Settlement volume', 'Corridor performance', 'Automated decisions', 'Disclosure']);
    // Exceptions 12 of 42 = 28.6% of the payments: HIGH; holds 12 of 24 agent decisions = 50%: HIGH.
    expect(body.synthesis).toMatchObject({ riskLevel: 'HIGH', model: RULE_BASED_MODEL });
    expect(body.synthesis.keyFindings).toContain("Exceptions (blocked and failed): 28.6% of the month's payments");
  });

  it("a stranger learns no institution's payments: no identifier, no lone bank's corridor, no lone bank's volume", async () => {
    const { text } = await get(`${TREASURY}?period=2026-09`);
    for (const secret of [...BANKS, 'bank-echo', 'agent-1', 'settlement-agent', fixtureMarker('REF', 1).slice(0, 12), 'rp_fixture', SHELL_CATALYSTS, 'CHF', '113.00'])
      expect(text).not.toContain(secret);
  });

  it('defaults to the current month of the clock, an empty one here', async () => {
    const { body } = await get(TREASURY);
    expect(body).toMatchObject({ reportType: 'treasury', period: '2026-11' });
    expect(body.data.summary.settlement).toMatchObject({ payments: 0, settled: 0 });
    expect(body.synthesis.riskLevel).toBe('LOW');
  });

  it.each([
    ['a month 13', '?period=2026-13'],
    ['one digit of month', '?period=2026-9'],
    ['not a month', '?period=september'],
    ['a month after the clock', '?period=2026-12'],
    ['an unknown parameter', '?period=2026-09&institution=bank-alpha'],
  ])('%s: 400 {error, code} before any payment', async (_name, query) => {
    const { status, body } = await get(`${TREASURY}${query}`, {});
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.any(String), code: 'GEN_ERR_BAD_REQUEST' });
  });
});

describe('complianceReport and treasuryReport in the graph', () => {
  it('answer the REST reports, and a 400 error for a bad argument', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/subgraphs/intelligence/graphql',
      headers: { 'x-api-key': key },
      payload: { query: `{ complianceReport(lei: "${SHELL_CATALYSTS}") { reportType period synthesis { riskLevel dataQuality } data } treasuryReport(period: "2026-09") { reportType period data } }` },
    });
    const { data, errors } = response.json();
    expect(errors).toBeUndefined();
    expect(data.complianceReport).toMatchObject({ reportType: 'compliance', data: { subject: { lei: SHELL_CATALYSTS } } });
    expect(data.treasuryReport).toMatchObject({ reportType: 'treasury', period: '2026-09', data: { summary: { period: '2026-09' } } });
    const refused = await server.app.inject({ method: 'POST', url: '/subgraphs/intelligence/graphql', headers: { 'x-api-key': key }, payload: { query: '{ complianceReport { reportType } }' } });
    expect(refused.json().errors[0].extensions.code).toBe('GEN_ERR_BAD_REQUEST');
  });
});

import { randomBytes } from 'node:crypto';
import { SDJwtInstance } from '@sd-jwt/core';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from '../../../test/helpers.js';
import { EMBEDDED_TREASURY_ACCOUNT_INDEX } from '../rail/settlement.js';
import { fundAgent, registerTestAgent } from './testing.js';

// The settlement agent through the all-in-one server (compliance, fees, payments; payments calling
// the other two in-process): AP2 mandates signed here with @sd-jwt/core by an issuer whose key is in
// AP2_TRUSTED_ISSUERS, and agents registered with the compliance oracle and verified live.

const ADMIN_KEY = 'agent-test-admin-key-0123456789abcdef0123';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const ISSUER = 'https://wallet.example';
const OTHER_ISSUER = 'https://other-wallet.example';
const TX_HASH = /^0x[0-9a-f]{64}$/;

type Jwk = Record<string, unknown>;
let issuerKey: { publicKey: Jwk; privateKey: Jwk };
let otherKey: { publicKey: Jwk; privateKey: Jwk };
let server: TestServer;
let rail: ChainConnection;

const publicOf = (jwk: Jwk) => ({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });

beforeAll(async () => {
  issuerKey = (await ES256.generateKeyPair()) as { publicKey: Jwk; privateKey: Jwk };
  otherKey = (await ES256.generateKeyPair()) as { publicKey: Jwk; privateKey: Jwk };
  server = await startTestServer({
    subgraphs: ['compliance', 'fees', 'payments'],
    environment: { ADMIN_KEY, AP2_TRUSTED_ISSUERS: JSON.stringify({ [ISSUER]: publicOf(issuerKey.publicKey) }) },
  });
  rail = await server.platform!.chain.connect();
  ap2Payer = await registeredAgent({ maxNotionalUsd: 10_000, dailyCapUsd: 1_000_000 }, '100000');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const freshWallet = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);
const nowSeconds = () => Math.floor(server.clock.now().getTime() / 1000);
const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
const treasury = () => rail.embedded!.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX]!.address;

const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, options: { payload?: unknown; headers?: Record<string, string>; raw?: string } = {}) => {
  const { status, body } = await injectJson(server, method, url, options);
  return { status, body };
};

async function registeredRecipient(): Promise<Address> {
  const wallet = freshWallet();
  const response = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei }, headers: ADMIN });
  expect([200, 201]).toContain(response.status);
  return wallet;
}

/** X-Agent-Id and X-Agent-Key (the owner's proof, decision 0048) of each agent registered here. */
const owners = new Map<string, Record<string, string>>();
const headersOf = (agentId: string) => owners.get(agentId)!;

/** A REGISTERED agent (owner entity and e-mail) with a mandate, as the compliance oracle keeps them, its owner's `fundsUsd` deposited (decision 0049). */
async function registeredAgent(mandate: Record<string, unknown>, fundsUsd = '30000'): Promise<string> {
  const agent = await registerTestAgent(server);
  owners.set(agent.agentId, agent.headers);
  const set = await call('POST', '/compliance/agent/mandate', { payload: { agentId: agent.agentId, ...mandate }, headers: agent.headers });
  expect(set.status).toBe(201);
  await fundAgent(server, rail, agent, fundsUsd);
  return agent.agentId;
}

/** The agent whose owner pays the AP2 settlements (decision 0049: body.mandate alone names no funds). */
let ap2Payer: string;
const ap2Headers = () => headersOf(ap2Payer);

async function issue(claims: Record<string, unknown>, privateKey: Jwk = issuerKey.privateKey): Promise<string> {
  const instance = new SDJwtInstance({ signer: await ES256.getSigner(privateKey), signAlg: 'ES256', hasher: digest, hashAlg: 'sha-256', saltGenerator: generateSalt });
  return instance.issue(claims, { _sd: ['payee', 'payment_amount'] } as never, { header: { typ: 'dc+sd-jwt' } });
}

/** A closed mandate paying `payee` 1,250.50 USD, valid for the next hour. */
const closedMandate = (payee: Address, overrides: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  iat: nowSeconds() - 60,
  exp: nowSeconds() + 3600,
  vct: 'mandate.payment.1',
  payee: { id: payee, name: ACTIVE_LEI_ENTRY.legalName },
  payment_amount: { amount: 125050, currency: 'USD' },
  ...overrides,
});

const settleBody = (recipient: Address, overrides: Record<string, unknown> = {}) => ({ amount: 1250.5, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient, ...overrides });
const settle = (payload: unknown, headers: Record<string, string> = {}) => call('POST', '/agent/settle', { payload, headers });

describe('POST /agent/settle with body.mandate (AP2)', () => {
  it('a valid mandate settles through the payment flow; the same mandate again is refused (REPLAYED) and nothing is sent twice', async () => {
    const recipient = await registeredRecipient();
    const mandate = await issue(closedMandate(recipient));
    const { status, body } = await settle({ ...settleBody(recipient), mandate }, ap2Headers());
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'SETTLED',
      held: false,
      railPaymentId: expect.stringMatching(/^pay_/),
      violations: [],
      agent: { agentId: ap2Payer, checked: ['MAX_NOTIONAL', 'DAILY_CAP'] },
      mandate: {
        type: 'mandate.payment.1',
        issuer: ISSUER,
        payee: { id: recipient },
        paymentAmount: { amount: 125050, currency: 'USD' },
        quoteId: expect.any(String),
        reference: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    });
    expect(body.result).toMatchObject({
      railPaymentId: body.railPaymentId,
      tmsReference: `AP2-${body.mandate.reference}`,
      status: 'SETTLED',
      settlement: { txHash: expect.stringMatching(TX_HASH), amount: '1250.5', currency: 'USD', asset: 'USDC' },
    });
    expect(body.result.vop).toMatchObject({ result: 'LEI_MATCH', proceedSafe: true });
    const paid = await balanceOf(recipient);
    expect(paid).toBe(1_250_500_000n - BigInt(Math.round(Number(body.result.settlement.fee) * 1e6)));
    // The payment is the integration API's too.
    // The settlement agent's payments are no institution's (decision 0050): the admin reads them, an institution's key finds none.
    const byReference = `/integration/payments?tmsReference=${body.result.tmsReference}`;
    expect((await call('GET', byReference, { headers: ADMIN })).body).toEqual(body.result);
    const desk = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'desk', 1000)).key}` };
    expect((await call('GET', byReference, { headers: desk })).status).toBe(404);

    const again = await settle({ ...settleBody(recipient), mandate }, ap2Headers());
    expect(again).toEqual({ status: 400, body: { error: expect.any(String), code: 'PAY_ERR_MANDATE_INVALID', reason: 'REPLAYED' } });
    expect(await balanceOf(recipient)).toBe(paid);
  });

  it.each([
    ['another payee', (_recipient: Address) => closedMandate(freshWallet()), 'PAYEE_MISMATCH'],
    ['another amount', (recipient: Address) => closedMandate(recipient, { payment_amount: { amount: 125051, currency: 'USD' } }), 'AMOUNT_MISMATCH'],
    ['another currency', (recipient: Address) => closedMandate(recipient, { payment_amount: { amount: 125050, currency: 'EUR' } }), 'CURRENCY_MISMATCH'],
    ['an expired mandate', (recipient: Address) => closedMandate(recipient, { iat: nowSeconds() - 7200, exp: nowSeconds() }), 'EXPIRED'],
    ['an issuer not on the allowlist', (recipient: Address) => closedMandate(recipient, { iss: OTHER_ISSUER }), 'UNTRUSTED_ISSUER'],
  ])('%s: 400 PAY_ERR_MANDATE_INVALID, nothing sent', async (_name, claims, reason) => {
    const recipient = await registeredRecipient();
    const treasuryBefore = await balanceOf(treasury());
    const mandate = await issue(claims(recipient), reason === 'UNTRUSTED_ISSUER' ? otherKey.privateKey : issuerKey.privateKey);
    expect(await settle({ ...settleBody(recipient), mandate }, ap2Headers())).toEqual({ status: 400, body: { error: expect.any(String), code: 'PAY_ERR_MANDATE_INVALID', reason } });
    expect(await balanceOf(recipient)).toBe(0n);
    expect(await balanceOf(treasury())).toBe(treasuryBefore);
  });

  it("the trusted issuer's name signed by another key: INVALID_SIGNATURE", async () => {
    const recipient = await registeredRecipient();
    const mandate = await issue(closedMandate(recipient), otherKey.privateKey);
    expect((await settle({ ...settleBody(recipient), mandate }, ap2Headers())).body).toMatchObject({ code: 'PAY_ERR_MANDATE_INVALID', reason: 'INVALID_SIGNATURE' });
  });

  it('a mandate that is not an SD-JWT: MALFORMED', async () => {
    const recipient = await registeredRecipient();
    expect((await settle({ ...settleBody(recipient), mandate: 'not.a.mandate' }, ap2Headers())).body).toMatchObject({ code: 'PAY_ERR_MANDATE_INVALID', reason: 'MALFORMED' });
  });
});

describe('POST /agent/settle with X-Agent-Id (agent mandate, verified live)', () => {
  it('a registered agent within its limits settles; over the maximum notional or the daily cap it is held (every rule named) and nothing is sent', async () => {
    const agentId = await registeredAgent({ maxNotionalUsd: 5000, dailyCapUsd: 10_000 });
    const recipient = await registeredRecipient();
    const headers = headersOf(agentId);

    const first = await settle(settleBody(recipient), headers);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'SETTLED', held: false, violations: [], agent: { agentId, checked: ['MAX_NOTIONAL', 'DAILY_CAP'] }, mandate: null });
    expect(first.body.result).toMatchObject({ status: 'SETTLED', tmsReference: expect.stringMatching(/^AGT-/), settlement: { amount: '1250.5' } });
    const paid = await balanceOf(recipient);
    expect(paid).toBeGreaterThan(0n);
    const treasuryAfterFirst = await balanceOf(treasury());

    const tooLarge = await settle(settleBody(recipient, { amount: 5000.01 }), headers);
    expect(tooLarge).toEqual({
      status: 200,
      body: {
        status: 'PENDING',
        held: true,
        holdId: expect.stringMatching(/^hld_[A-Za-z0-9_-]{22}$/),
        railPaymentId: null,
        result: null,
        violations: [{ rule: 'MAX_NOTIONAL', message: expect.stringContaining('5000.01') }],
        agent: { agentId, checked: ['MAX_NOTIONAL', 'DAILY_CAP'] },
        mandate: null,
      },
    });
    expect(await balanceOf(treasury())).toBe(treasuryAfterFirst);

    // 1,250.50 + 5,000 + 3,749.50 = 10,000: the cap is inclusive; one cent more is held.
    expect((await settle(settleBody(recipient, { amount: 5000 }), headers)).body.status).toBe('SETTLED');
    expect((await settle(settleBody(recipient, { amount: 3749.5 }), headers)).body.status).toBe('SETTLED');
    const overCap = await settle(settleBody(recipient, { amount: 0.01 }), headers);
    expect(overCap.body).toMatchObject({ status: 'PENDING', held: true, violations: [{ rule: 'DAILY_CAP', message: expect.stringContaining('10000.01') }] });
    // The held settlements were not counted: both caps are violated at once and both are listed.
    const both = await settle(settleBody(recipient, { amount: 6000 }), headers);
    expect(both.body.violations.map((violation: { rule: string }) => violation.rule)).toEqual(['MAX_NOTIONAL', 'DAILY_CAP']);
  });

  it('two settlements at once that each fit the daily cap but not together: one settles, the other is held (the cap is re-checked at the claim)', async () => {
    const agentId = await registeredAgent({ maxNotionalUsd: 1500, dailyCapUsd: 2000 });
    const recipient = await registeredRecipient();
    const treasuryBefore = await balanceOf(treasury());
    const answers = await Promise.all([1, 2].map(() => settle(settleBody(recipient), headersOf(agentId))));
    expect(answers.map((answer) => answer.body.status).sort()).toEqual(['PENDING', 'SETTLED']);
    const held = answers.find((answer) => answer.body.held)!;
    expect(held.body).toMatchObject({ railPaymentId: null, result: null, holdId: expect.stringMatching(/^hld_/), violations: [{ rule: 'DAILY_CAP' }] });
    // The hold taken at the claim is recorded as the one taken before it (decision 0047).
    expect((await call('GET', `/agent/holds/${held.body.holdId}`, { headers: ADMIN })).body).toMatchObject({ status: 'HELD', agentId, violations: [{ rule: 'DAILY_CAP' }] });
    // One transfer of 1,250.50 left the treasury, not two (two would be at least 2,501 USDC).
    const spent = treasuryBefore - (await balanceOf(treasury()));
    expect(spent).toBeGreaterThanOrEqual(1_250_500_000n);
    expect(spent).toBeLessThan(2_501_000_000n);
  });

  it('a non-USD amount is checked at its USD value by the FX rate (units of EUR per USD)', async () => {
    const rate = await call('GET', '/integration/rates/EUR');
    expect(rate.status).toBe(200);
    const usd = 1000 / Number(rate.body.rate);
    // A maximum just under the USD value of 1,000 EUR, and one just above it.
    const under = await registeredAgent({ maxNotionalUsd: Math.floor(usd) - 1, dailyCapUsd: 10_000 });
    const over = await registeredAgent({ maxNotionalUsd: Math.ceil(usd) + 1, dailyCapUsd: 10_000 });
    const recipient = await registeredRecipient();
    const held = await settle(settleBody(recipient, { amount: 1000, sourceCurrency: 'EUR' }), headersOf(under));
    expect(held.body).toMatchObject({ held: true, violations: [{ rule: 'MAX_NOTIONAL', message: expect.stringContaining(`USD ${usd.toFixed(2)}`) }] });
    const settled = await settle(settleBody(recipient, { amount: 1000, sourceCurrency: 'EUR' }), headersOf(over));
    expect(settled.body).toMatchObject({ held: false, status: 'SETTLED', result: { settlement: { amount: '1000', currency: 'EUR' } } });
  });

  it('X-Agent-Id and body.mandate together: both are checked, then it settles once', async () => {
    const agentId = await registeredAgent({ maxNotionalUsd: 5000, dailyCapUsd: 10_000 });
    const recipient = await registeredRecipient();
    const mandate = await issue(closedMandate(recipient));
    const { status, body } = await settle({ ...settleBody(recipient), mandate }, headersOf(agentId));
    expect([status, body.status, body.agent?.agentId, body.mandate?.issuer]).toEqual([200, 'SETTLED', agentId, ISSUER]);
    const heldMandate = await issue(closedMandate(recipient, { payment_amount: { amount: 600000, currency: 'USD' } }));
    const held = await settle({ ...settleBody(recipient, { amount: 6000 }), mandate: heldMandate }, headersOf(agentId));
    expect(held.body).toMatchObject({ held: true, violations: [{ rule: 'MAX_NOTIONAL' }], mandate: { issuer: ISSUER } });
    // The hold used the mandate (decision 0047): released by the operator, it pays once; the mandate alone, or held again, is REPLAYED.
    const released = await call('POST', `/agent/holds/${held.body.holdId}/release`, { headers: ADMIN });
    expect(released.body).toMatchObject({ status: 'SETTLED', result: { settlement: { amount: '6000' } } });
    const paid = await balanceOf(recipient);
    const replayed = { status: 400, body: { error: expect.any(String), code: 'PAY_ERR_MANDATE_INVALID', reason: 'REPLAYED' } };
    // The mandate alone (its issuer's funds pay, decision 0049 §9) is REPLAYED as well, before its issuer's funds are read.
    expect(await settle({ ...settleBody(recipient, { amount: 6000 }), mandate: heldMandate })).toEqual(replayed);
    expect(await settle({ ...settleBody(recipient, { amount: 6000 }), mandate: heldMandate }, ap2Headers())).toEqual(replayed);
    expect(await settle({ ...settleBody(recipient, { amount: 6000 }), mandate: heldMandate }, headersOf(agentId))).toEqual(replayed);
    expect(await balanceOf(recipient)).toBe(paid);
  });

  it("the mandate's currency pairs and counterparty whitelist hold a settlement outside them", async () => {
    const agentId = await registeredAgent({ maxNotionalUsd: 5000, dailyCapUsd: 10_000, currencyPairs: ['USD|EURC'], counterpartyWhitelist: ['529900T8BM49AURSDO55'] });
    const recipient = await registeredRecipient();
    const { body } = await settle(settleBody(recipient), headersOf(agentId));
    expect(body).toMatchObject({ status: 'PENDING', held: true });
    expect(body.violations.map((violation: { rule: string }) => violation.rule).sort()).toEqual(['COUNTERPARTY_WHITELIST', 'CURRENCY_PAIRS']);
    expect(await balanceOf(recipient)).toBe(0n);
  });

  it('a REVOKED agent is refused: 403 PAY_ERR_AGENT_REFUSED, nothing sent; an unknown agent is 401 (no key is its own)', async () => {
    const agentId = await registeredAgent({ maxNotionalUsd: 5000, dailyCapUsd: 10_000 });
    expect((await call('DELETE', `/compliance/agent/${agentId}`, { headers: headersOf(agentId) })).status).toBe(200);
    const recipient = await registeredRecipient();
    expect(await settle(settleBody(recipient), headersOf(agentId))).toEqual({ status: 403, body: { error: expect.any(String), code: 'PAY_ERR_AGENT_REFUSED', reason: 'AGENT_REVOKED' } });
    const unknown = { 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA', 'x-agent-key': headersOf(agentId)['x-agent-key']! };
    expect(await settle(settleBody(recipient), unknown)).toEqual({ status: 401, body: { error: expect.any(String), code: 'PAY_ERR_AGENT_UNAUTHORIZED' } });
    expect(await balanceOf(recipient)).toBe(0n);
  });
});

describe('POST /agent/settle: malformed requests are 400 PAY_ERR_INVALID_REQUEST', () => {
  it('neither X-Agent-Id nor body.mandate: 401, the settlement names no funds to pay it (decision 0049)', async () => {
    expect(await settle(settleBody(freshWallet()))).toEqual({ status: 401, body: { error: expect.stringMatching(/X-Agent-Id.*body\.mandate/), code: 'PAY_ERR_AGENT_UNAUTHORIZED' } });
  });

  it("body.mandate alone from an issuer with no deposits: 409 PAY_ERR_INSUFFICIENT_FUNDS naming the issuer's funds, nothing sent (decision 0049 §9)", async () => {
    const recipient = await registeredRecipient();
    const treasuryBefore = await balanceOf(treasury());
    const refused = await settle({ ...settleBody(recipient), mandate: await issue(closedMandate(recipient)) });
    expect(refused).toEqual({ status: 409, body: { error: expect.stringContaining(`issuer ${ISSUER} (USD 0 available)`), code: 'PAY_ERR_INSUFFICIENT_FUNDS' } });
    expect(await balanceOf(recipient)).toBe(0n);
    expect(await balanceOf(treasury())).toBe(treasuryBefore);
  });

  it.each([
    ['a malformed X-Agent-Id', { headers: { 'x-agent-id': 'agt_<script>' } }],
    ['the amount as text', { body: { amount: '1250.50' } }],
    ['a negative amount', { body: { amount: -1 } }],
    ['seven decimals', { body: { amount: 1.0000001 } }],
    ['an amount JavaScript prints in exponent form', { body: { amount: 1e-7 } }],
    ['a lower-case currency', { body: { sourceCurrency: 'usd' } }],
    ['a 100k-character currency', { body: { destinationCurrency: 'U'.repeat(100_000) } }],
    ['a recipient that is not an address', { body: { recipientAddress: '0x1234' } }],
    ['a bad EIP-55 checksum', { body: { recipientAddress: '0x52908400098527886E0F7030069857D2E4169Ee7' } }],
    ['a mandate that is not a string', { body: { mandate: { vct: 'mandate.payment.1' } } }],
    ['an unknown field', { body: { memo: 'x' } }],
  ])('%s', async (_name, change: { body?: Record<string, unknown>; headers?: Record<string, string> }) => {
    const { status, body } = await settle({ ...settleBody(freshWallet()), ...change.body }, { 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA', ...change.headers });
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.any(String), code: 'PAY_ERR_INVALID_REQUEST' });
    expect(body.error.length).toBeLessThan(2000);
  });

  it('bad JSON, a __proto__ key written by hand, a lone surrogate', async () => {
    for (const raw of [
      '{"amount":',
      `{"__proto__":{"admin":true},"amount":1,"sourceCurrency":"USD","destinationCurrency":"USDC","recipientAddress":"${freshWallet()}"}`,
      '{"amount":1,"sourceCurrency":"\\ud800SD"}',
    ]) {
      const { status, body } = await call('POST', '/agent/settle', { raw, headers: { 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA' } });
      expect([status, body.code]).toEqual([400, 'PAY_ERR_INVALID_REQUEST']);
    }
  });
});

describe('GET /agent/.well-known/ap2.json', () => {
  it('the capability document: the configured issuer by id, absolute endpoints under /agent', async () => {
    const { status, body } = await call('GET', '/agent/.well-known/ap2.json');
    expect(status).toBe(200);
    expect(body.trustedIssuers).toEqual({ policy: 'allowlist', count: 1, issuers: [ISSUER] });
    expect(body.endpoints).toEqual({ settle: 'http://localhost:80/agent/settle', capabilities: 'http://localhost:80/agent/.well-known/ap2.json' });
    expect(body.mandates).toMatchObject({ types: ['mandate.payment.1', 'mandate.payment.open.1'], signingAlgorithms: ['ES256'] });
    expect(JSON.stringify(body)).not.toMatch(/"x"|"y"|"d"/);
  });
});

describe('GET /agent/openapi.json', () => {
  it("documents the settlement agent's paths, the settle body and its answers (OpenAPI 3.0)", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/agent/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\.0\./);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/.well-known/ap2.json',
      '/deposits',
      '/funding-wallets',
      '/funds',
      '/holds',
      '/holds/{holdId}',
      '/holds/{holdId}/dismiss',
      '/holds/{holdId}/release',
      '/issuers/deposits',
      '/issuers/funds',
      '/settle',
    ]);
    expect(Object.keys(document.paths['/settle'].post.requestBody.content['application/json'].schema.properties).sort()).toEqual(
      expect.arrayContaining(['amount', 'destinationCurrency', 'mandate', 'recipientAddress', 'sourceCurrency']),
    );
    expect(Object.keys(document.paths['/settle'].post.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '429', '503']);
  });
});

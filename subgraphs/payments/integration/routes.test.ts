import { randomBytes } from 'node:crypto';
import { type Address, getAddress, type Hash, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../../../contracts/artifacts/SettlementRouter.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from '../../../test/helpers.js';
import { createCallbackStore } from '../callbacks/store.js';
import { finalResult, pendingResult } from '../domain/index.js';
import { EMBEDDED_TREASURY_ACCOUNT_INDEX } from '../rail/settlement.js';
import { readPaymentInitiation } from './inputs.js';
import { requestDigestOf } from './service.js';
import { createPaymentStore } from './store.js';

// The integration API through the all-in-one server (compliance, fees and payments in one process,
// payments calling the other two in-process through the server's own routes), on the worker's
// shared PGlite and embedded rail. Wallets and references are fresh per test.

const ADMIN_KEY = 'payments-test-admin-key-0123456789abcdef01';
const INTERNAL_KEY = 'payments-test-internal-key-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const TX_HASH = /^0x[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: TestServer;
let rail: ChainConnection;
let bearer: Record<string, string>;
/** The institution of `bearer`. */
let institutionId: string;

beforeAll(async () => {
  // No INTERNAL_KEY, as `npm start` runs: the process's own key carries payments' calls to compliance.
  server = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], environment: { ADMIN_KEY } });
  rail = await server.platform!.chain.connect();
  const desk = await server.platform!.access.keys.create('bearer', 'treasury desk', 1000);
  bearer = { authorization: `Bearer ${desk.key}` };
  institutionId = desk.record.institutionId!;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const freshWallet = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);
const freshReference = () => `TMS-${randomBytes(6).toString('hex')}`;
const nowSeconds = () => Math.floor(server.clock.now().getTime() / 1000);
const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
const treasury = () => rail.embedded!.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX]!.address;

const call = (method: 'GET' | 'POST', url: string, options: Parameters<typeof injectJson>[3] = {}) => injectJson(server, method, url, options);

/**
 * How long fees lets its FX answers be reused (its FX_RATE_MAX_AGE_SECONDS, decision 0044), read from
 * its public interface rather than its code: the max-age of GET /stability/fx/:currency.
 */
async function fxRateMaxAgeSeconds(): Promise<number> {
  const { status, headers } = await call('GET', '/stability/fx/USD');
  const maxAge = /max-age=(\d+)/.exec(String(headers['cache-control']))?.[1];
  if (status !== 200 || maxAge === undefined) throw new Error(`GET /stability/fx/USD answered ${status} without a max-age`);
  return Number(maxAge);
}

async function registeredCreditor(): Promise<Address> {
  const wallet = freshWallet();
  const response = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei }, headers: ADMIN });
  expect([200, 201]).toContain(response.status);
  return wallet;
}

function nativePayment(creditorWallet: Address, overrides: Record<string, unknown> = {}) {
  return {
    tmsReference: freshReference(),
    amount: '1250.50',
    currency: 'USD',
    settlementAsset: 'USDC',
    creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditorWallet, accountRef: 'ACC-001' },
    debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
    remittanceInfo: 'Invoice 2026-114',
    requestedExecutionDate: '2026-11-23',
    ...overrides,
  };
}

const initiate = (payload: unknown, headers = bearer) => call('POST', '/integration/payments/initiate', { payload, headers });

/** The router's Settled events of one transaction. */
async function settledEvents(txHash: Hash) {
  const receipt = await rail.publicClient.getTransactionReceipt({ hash: txHash });
  return parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: receipt.logs });
}

describe('POST /integration/payments/initiate (native)', () => {
  it('settles a verified payment: every PaymentResult field, and the transfer on chain', async () => {
    const creditor = await registeredCreditor();
    const payment = nativePayment(creditor);
    const treasuryBefore = await balanceOf(treasury());
    const { status, body, headers } = await initiate(payment);
    expect(status).toBe(200);
    expect(headers['x-ratelimit-limit']).toBe('1000');
    expect(Number(headers['x-ratelimit-remaining'])).toBeLessThan(1000);
    expect(headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect(body).toEqual({
      railPaymentId: expect.stringMatching(/^pay_/),
      tmsReference: payment.tmsReference,
      status: 'SETTLED',
      submittedAt: nowSeconds(),
      settledAt: nowSeconds(),
      settlement: {
        txHash: expect.stringMatching(TX_HASH),
        amount: '1250.50',
        currency: 'USD',
        asset: 'USDC',
        network: 'embedded-base',
        exchangeRate: '1',
        fee: expect.stringMatching(/^\d+(\.\d{1,6})?$/),
      },
      vop: {
        requestId: expect.stringMatching(UUID),
        result: 'LEI_MATCH',
        proceedSafe: true,
        score: 100,
        resolvedBy: 'LEI_EXACT_MATCH',
        message: expect.any(String),
      },
      compliance: {
        fatfR16Compliant: true,
        micaCompliant: true,
        geniusCompliant: true,
        regulatoryNote: expect.stringContaining('AML PROCEED'),
      },
    });
    // The fee is the fee model's: the quote for 1250.5 USD at the default ESG score, recomputed here.
    const quote = await call('POST', '/stability/quote', { payload: { amountUsd: 1250.5, hasFx: false } });
    expect(body.settlement.fee).toBe(String(quote.body.fees.total.usd));

    // On chain: one Settled event paying the creditor 1250.5 - fee, from the rail's treasury.
    const [event, ...others] = await settledEvents(body.settlement.txHash);
    expect(others).toEqual([]);
    expect(event!.args).toMatchObject({ payer: treasury(), payee: creditor, token: rail.contracts.token, amount: 1_250_500_000n });
    const feeUnits = event!.args.fee;
    expect(String(Number(feeUnits) / 1e6)).toBe(body.settlement.fee);
    expect(await balanceOf(creditor)).toBe(1_250_500_000n - feeUnits);
    expect(treasuryBefore - (await balanceOf(treasury()))).toBe(1_250_500_000n);

    // Read back by id and by reference: the same result.
    expect((await call('GET', `/integration/payments/${body.railPaymentId}`, { headers: bearer })).body).toEqual(body);
    expect((await call('GET', `/integration/payments?tmsReference=${payment.tmsReference}`, { headers: bearer })).body).toEqual(body);
  });

  it('BLOCKED by VoP (a dissimilar name): nothing is sent on chain', async () => {
    const creditor = await registeredCreditor();
    const payment = nativePayment(creditor, { creditor: { name: 'Shell Chemicals Asia', walletAddress: creditor } });
    const treasuryBefore = await balanceOf(treasury());
    const { status, body } = await initiate(payment);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'BLOCKED',
      settledAt: 0,
      settlement: { txHash: '', amount: '1250.50', currency: 'USD', asset: 'USDC', exchangeRate: '', fee: '' },
      vop: { result: 'BLOCKED', proceedSafe: false, score: 33.33, resolvedBy: 'LEGAL_NAME_MATCH' },
      compliance: { fatfR16Compliant: false, micaCompliant: false, geniusCompliant: false, regulatoryNote: expect.stringMatching(/^BLOCKED by verification of payee; nothing was sent\./) },
    });
    expect(await balanceOf(creditor)).toBe(0n);
    expect(await balanceOf(treasury())).toBe(treasuryBefore);
  });

  it('an unregistered creditor proceeds (NOT_REGISTERED, score 0) and settles, FATF R.16 not met', async () => {
    const creditor = freshWallet();
    const { body } = await initiate(nativePayment(creditor, { amount: '10' }));
    expect(body).toMatchObject({
      status: 'SETTLED',
      vop: { result: 'NOT_REGISTERED', proceedSafe: true, score: 0, resolvedBy: 'NOT_REGISTERED' },
      compliance: { fatfR16Compliant: false, micaCompliant: false, geniusCompliant: true },
    });
    expect(await balanceOf(creditor)).toBeGreaterThan(0n);
  });

  it('the same tmsReference twice answers the stored result, with one transfer', async () => {
    const creditor = await registeredCreditor();
    const payment = nativePayment(creditor, { amount: '100' });
    const first = await initiate(payment);
    server.clock.advance(60_000);
    const second = await initiate(payment);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const fee = BigInt(Math.round(Number(first.body.settlement.fee) * 1e6));
    expect(await balanceOf(creditor)).toBe(100_000_000n - fee);
  });

  it('a different body under a used tmsReference is 409 PAY_ERR_IDEMPOTENCY_CONFLICT, and nothing more is sent', async () => {
    const creditor = await registeredCreditor();
    const payment = nativePayment(creditor, { amount: '100' });
    const first = await initiate(payment);
    const conflict = await initiate({ ...payment, amount: '100.01' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: expect.stringContaining('different body'), code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' });
    // Key order and the default settlementAsset do not make a body different: the canonical JSON is hashed.
    const { settlementAsset: _asset, ...withoutAsset } = payment;
    const reordered = Object.fromEntries(Object.entries(withoutAsset).reverse());
    expect((await initiate(reordered)).body).toEqual(first.body);
    const fee = BigInt(Math.round(Number(first.body.settlement.fee) * 1e6));
    expect(await balanceOf(creditor)).toBe(100_000_000n - fee);
  });

  it('401 without a key, with an unknown key, with an API key instead of a bearer key: {error, code}, WWW-Authenticate, nothing stored', async () => {
    const payment = nativePayment(freshWallet());
    const apiKey = (await server.platform!.access.keys.create('api', 'not an institution')).key;
    for (const headers of [{}, { authorization: 'Bearer srb_unknown' }, { authorization: `Bearer ${apiKey}` }, { 'x-api-key': apiKey }] as Record<string, string>[]) {
      const response = await initiate(payment, headers);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: expect.any(String), code: 'GEN_ERR_UNAUTHORIZED' });
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await call('GET', `/integration/payments?tmsReference=${payment.tmsReference}`, { headers: bearer })).status).toBe(404);
    expect((await call('GET', `/integration/payments?tmsReference=${payment.tmsReference}`)).status).toBe(401);
  });

  it('429 over the key limit, with the X-RateLimit-* headers', async () => {
    const limited = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'small desk', 1)).key}` };
    expect((await call('GET', '/integration/payments?tmsReference=NONE-1', { headers: limited })).status).toBe(404);
    const refused = await call('GET', '/integration/payments?tmsReference=NONE-1', { headers: limited });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'GEN_ERR_RATE_LIMITED' });
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'retry-after': expect.stringMatching(/^\d+$/) });
  });

  it.each([
    ['not JSON', '{"tmsReference":'],
    ['an array', '[]'],
    ['wrong types', JSON.stringify({ tmsReference: 42, amount: 1250.5 })],
    ['a huge reference', JSON.stringify({ ...nativePayment(freshWallet()), tmsReference: 'x'.repeat(100_000) })],
    ['a negative amount', JSON.stringify(nativePayment(freshWallet(), { amount: '-5' }))],
    ['a bad wallet', JSON.stringify(nativePayment(freshWallet(), { debtor: { name: 'A', walletAddress: '0x123' } }))],
    ['an unknown field', JSON.stringify({ ...nativePayment(freshWallet()), extra: true })],
    ['a __proto__ member written by hand', JSON.stringify(nativePayment(freshWallet())).replace(/^\{/, '{"__proto__":{"admin":true},')],
    ['a unicode control character in a name', JSON.stringify(nativePayment(freshWallet(), { debtor: { name: 'A\u0000B', walletAddress: freshWallet() } }))],
    ['a lone surrogate in a name', JSON.stringify(nativePayment(freshWallet(), { debtor: { name: 'A\ud800', walletAddress: freshWallet() } }))],
  ])('refuses %s with 400 in {error, code}', async (_name, raw) => {
    const response = await call('POST', '/integration/payments/initiate', { raw, headers: bearer });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body).sort()).toEqual(['code', 'error']);
    expect(['PAY_ERR_INVALID_REQUEST', 'GEN_ERR_BAD_REQUEST']).toContain(response.body.code);
  });
});

describe('the internal key when INTERNAL_KEY is unset', () => {
  it('payments reach compliance with the process key (above), while an outsider is refused at the internal endpoints', async () => {
    const screen = { wallet: freshWallet(), counterparty: freshWallet(), amount: 10, currency: 'USD', paymentId: 'outsider-1', direction: 'SEND' };
    expect((await call('POST', '/compliance/aml/screen', { payload: screen })).status).toBe(401);
    expect((await call('POST', '/compliance/aml/screen', { payload: screen, headers: { 'x-internal-key': INTERNAL_KEY } })).status).toBe(401);
  });
});

describe('GET /integration/payments, /integration/rates', () => {
  it('404 for unknown ids and references, in {error, code}', async () => {
    for (const url of ['/integration/payments/pay_00000000-0000-4000-8000-000000000000', '/integration/payments/nope', '/integration/payments?tmsReference=NEVER-USED']) {
      const response = await call('GET', url, { headers: bearer });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: expect.any(String), code: 'PAY_ERR_PAYMENT_NOT_FOUND' });
    }
  });

  it('GET /rates/USD without a key: par; XAU has no rate (404); a malformed code is 400', async () => {
    const usd = await call('GET', '/integration/rates/USD');
    expect(usd).toMatchObject({ status: 200, body: { currency: 'USD', rate: '1' } });
    // Stamped by fees when it answered: the answer may be reused for FX_RATE_MAX_AGE_SECONDS (decision 0044).
    const FX_RATE_MAX_AGE_SECONDS = await fxRateMaxAgeSeconds();
    expect(usd.body.updatedAt).toBeGreaterThanOrEqual(nowSeconds() - FX_RATE_MAX_AGE_SECONDS);
    expect(usd.body.updatedAt).toBeLessThanOrEqual(nowSeconds());
    expect(await call('GET', '/integration/rates/XAU')).toMatchObject({ status: 404, body: { code: 'PAY_ERR_RATE_UNAVAILABLE' } });
    expect(await call('GET', '/integration/rates/usd')).toMatchObject({ status: 400, body: { code: 'PAY_ERR_INVALID_REQUEST' } });
  });

  it('a payment in a currency without an FX rate is FAILED before anything is sent', async () => {
    const creditor = await registeredCreditor();
    const { body } = await initiate(nativePayment(creditor, { currency: 'XAU' }));
    expect(body).toMatchObject({
      status: 'FAILED',
      settlement: { txHash: '', exchangeRate: '' },
      vop: { result: 'LEI_MATCH' },
      compliance: { regulatoryNote: expect.stringContaining('no FX rate against USD for XAU') },
    });
    expect(await balanceOf(creditor)).toBe(0n);
  });
});

describe('a retry of the exact body text (decision 0043: read once, then known by its text)', () => {
  const post = (text: string, headers = bearer) =>
    server.app.inject({ method: 'POST', url: '/integration/payments/initiate', headers: { 'content-type': 'application/json', ...headers }, payload: text });
  /** The headers an answer must repeat: all but the request's own id and date, and the remaining count (checked on its own). */
  const repeated = (headers: Record<string, unknown>) => {
    const { 'x-request-id': _id, date: _date, 'x-ratelimit-remaining': _remaining, ...rest } = headers;
    return rest;
  };

  it('answers the bytes and headers the stored result is answered with, each retry counted; another body is still 409', async () => {
    const payment = nativePayment(await registeredCreditor(), { amount: '20' });
    const text = JSON.stringify(payment);
    const first = await post(text);
    expect(first.statusCode).toBe(200);
    // 1. The same text again, twice: known by its text.
    const retries = [await post(text), await post(text)];
    // 2. The same payment in other words (spaces): read again, replayed by its digest.
    const reread = await post(JSON.stringify(payment, null, 1));
    for (const answer of [...retries, reread]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(retries[0]!.body);
      expect(repeated(answer.headers)).toEqual(repeated(retries[0]!.headers));
    }
    expect(JSON.parse(retries[0]!.body)).toEqual(first.json());
    // Each request takes one from the key's window: 1 + 2 + 1 in order.
    const remaining = [first, ...retries, reread].map((answer) => Number(answer.headers['x-ratelimit-remaining']));
    expect(remaining.slice(1)).toEqual(remaining.slice(0, -1).map((count) => count - 1));
    // 3. Another body under the reference, after its text was known.
    const conflict = await post(JSON.stringify({ ...payment, amount: '20.01' }));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ error: expect.stringContaining('different body'), code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' });
    expect((await post(text)).body).toBe(retries[0]!.body);
  });

  it('a known text still needs a valid key within its limit: 401 without one, 429 over it', async () => {
    const text = JSON.stringify(nativePayment(await registeredCreditor(), { amount: '21' }));
    const stored = await post(text);
    expect((await post(text)).body).toBe(stored.body);
    const unauthorized = await post(text, {});
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.json()).toEqual({ error: expect.any(String), code: 'GEN_ERR_UNAUTHORIZED' });
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer');
    // Another key of the same institution (another has payments of its own: decision 0050).
    const limited = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'one a minute', 1, { institutionId })).key}` };
    expect((await post(text, limited)).body).toBe(stored.body);
    const refused = await post(text, limited);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: expect.any(String), code: 'GEN_ERR_RATE_LIMITED' });
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'retry-after': expect.stringMatching(/^\d+$/) });
  });

  it('a payment still PENDING is read from the database at every retry: its final result is answered once it has one', async () => {
    // 1. A payment claimed by another process, still running (the claim is all it wrote so far).
    const db = server.platform!.database.db;
    const elsewhere = createPaymentStore(db, createCallbackStore(db));
    const text = JSON.stringify(nativePayment(await registeredCreditor(), { amount: '22' }));
    const read = readPaymentInitiation(JSON.parse(text));
    if (!read.ok || read.value.kind !== 'native') throw new Error('the fixture is a native payment');
    const { payment } = read.value;
    const frame = { railPaymentId: `pay_${crypto.randomUUID()}`, payment, submittedAt: nowSeconds(), network: 'embedded-base' };
    await elsewhere.claim({ institution: institutionId, railPaymentId: frame.railPaymentId, payment, requestSha256: requestDigestOf(payment), pending: pendingResult(frame) }, server.clock.now());
    // 2. Retries of one text while it runs: PENDING, the second known by its text.
    for (let k = 0; k < 2; k += 1) expect((await post(text)).json()).toMatchObject({ railPaymentId: frame.railPaymentId, status: 'PENDING' });
    // 3. The other process ends it: the next retry of the same text answers the final result.
    const failed = finalResult(frame, { kind: 'failed', reason: 'the other process failed it; nothing was settled.' });
    expect(await elsewhere.complete(frame.railPaymentId, { result: failed }, server.clock.now())).toBe(true);
    expect((await post(text)).json()).toEqual(failed);
  });
});

import { randomBytes } from 'node:crypto';
import { getAddress, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { settleResponseFromHeader, type PaymentRequirements } from 'x402/types';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { injectJson, startTestServer, type TestServer } from '../../../test/helpers.js';
import { ACTIVE_LEI_ENTRY, LAPSED_LEI_ENTRY } from '../kya/testing.js';
import { VOP_HISTORY_LENGTH } from './store.js';

// REST of the compliance oracle under {compliance_url} = <server>/compliance, by body: VoP paid and
// by key, the registry, LEI, discovery, OpenAPI and the KYA mount. Wallets are fresh per test (the
// worker's PGlite is shared).

const ADMIN_KEY = 'compliance-admin-key-0123456789abcdef0123';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const VOP_FIELDS = ['attestation', 'leiStatus', 'message', 'proceedSafe', 'registeredLei', 'registeredName', 'requestId', 'resolvedBy', 'result', 'score'];
/** Valid ISO 17442 check digits (98450000NOTINSNAP0 + 17), but in no registry: made up for the test. */
const UNKNOWN_VALID_LEI = '98450000NOTINSNAP017';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: TestServer;
let baseUrl: string;
let rail: ChainConnection;
let apiKey: string;

beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['compliance'], environment: { ADMIN_KEY } });
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  rail = await server.platform!.chain.connect();
  apiKey = (await server.platform!.access.keys.create('api', 'compliance desk', 1000)).key;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** The server clock in epoch seconds (tests advance it). */
const nowSeconds = () => Math.floor(server.clock.now().getTime() / 1000);
const freshWallet = (): string => getAddress(`0x${randomBytes(20).toString('hex')}`);

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, options: Parameters<typeof injectJson>[3] = {}) => injectJson(server, method, url, options);

async function register(body: Record<string, unknown>) {
  const response = await call('POST', '/compliance/register', { payload: body, headers: ADMIN });
  expect([200, 201]).toContain(response.status);
  return response.body;
}

const verifyByKey = (body: Record<string, unknown>) => call('POST', '/compliance/vop/verify', { payload: body, headers: { 'x-api-key': apiKey } });

describe('POST /compliance/vop/verify, paid with the x402 client', () => {
  it('answers 402 with the requirements, then 200 with every VoP field once paid, 75000 base units moved on chain', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei });
    const body = { walletAddress: wallet, submittedName: 'Shell Catalysts and Technologies' };
    const unpaid = await fetch(`${baseUrl}/compliance/vop/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(unpaid.status).toBe(402);
    const descriptor = (await unpaid.json()) as { x402Version: number; error: string; accepts: PaymentRequirements[] };
    expect(descriptor).toEqual({
      x402Version: 1,
      error: 'X-PAYMENT header is required',
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: '75000',
          resource: `${baseUrl}/compliance/vop/verify`,
          description: 'Verification of payee: the registered entity of a wallet against a submitted name or LEI',
          mimeType: 'application/json',
          payTo: rail.payment!.payTo,
          maxTimeoutSeconds: 60,
          asset: rail.payment!.token,
          extra: { name: 'Settlement Rail USD', version: '1' },
        },
      ],
    });
    // Nothing was recorded for the unpaid call.
    expect((await call('GET', `/compliance/vop/history/${wallet}`)).body.count).toBe(0);

    const payer = rail.embedded!.accounts[4]!.address;
    const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.payment!.token, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
    const before = await balanceOf(payer);
    const header = await createPaymentHeader(rail.embedded!.walletFor(rail.embedded!.accounts[4]!) as never, 1, descriptor.accepts[0]!);
    const paid = await fetch(`${baseUrl}/compliance/vop/verify`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-payment': header }, body: JSON.stringify(body) });
    expect(paid.status).toBe(200);
    const result = (await paid.json()) as Record<string, unknown>;
    expect(result).toEqual({
      requestId: expect.stringMatching(UUID),
      result: 'VERIFIED',
      proceedSafe: true,
      score: 100,
      resolvedBy: 'LEGAL_NAME_MATCH',
      registeredName: ACTIVE_LEI_ENTRY.legalName,
      registeredLei: ACTIVE_LEI_ENTRY.lei,
      leiStatus: 'ACTIVE',
      message: 'The name matches the registered entity.',
      attestation: { fatfR16Compliant: true, regulatoryNote: 'FATF R.16: beneficiary confirmed (VERIFIED, score 100).' },
    });
    expect(settleResponseFromHeader(String(paid.headers.get('x-payment-response')))).toMatchObject({ success: true, network: 'base', payer });
    expect(before - (await balanceOf(payer))).toBe(parseUnits('0.075', 6));

    // The same payment a second time is refused, and nothing more is recorded.
    const replay = await fetch(`${baseUrl}/compliance/vop/verify`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-payment': header }, body: JSON.stringify(body) });
    expect(replay.status).toBe(402);
    expect(((await replay.json()) as { error: string }).error).toMatch(/^payment_already_used/);
    const history = (await call('GET', `/compliance/vop/history/${wallet}`)).body;
    expect(history.checks.map((check: { requestId: string }) => check.requestId)).toEqual([result.requestId]);
  });

  it('refuses a malformed X-PAYMENT with 402 and a reason, before any work', async () => {
    const wallet = freshWallet();
    const response = await call('POST', '/compliance/vop/verify', { payload: { walletAddress: wallet, submittedName: 'Acme' }, headers: { 'x-payment': 'not base64 {' } });
    expect(response.status).toBe(402);
    expect(response.body).toMatchObject({ x402Version: 1, error: expect.any(String), accepts: [expect.objectContaining({ maxAmountRequired: '75000' })] });
    expect((await call('GET', `/compliance/vop/history/${wallet}`)).body.count).toBe(0);
  });
});

describe('POST /compliance/vop/verify: the results (taken with an API key)', () => {
  it('an LEI matching the registration bypasses the name: LEI_MATCH, resolvedBy LEI_EXACT_MATCH, score 100', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei });
    const { status, body } = await verifyByKey({ walletAddress: wallet, submittedName: 'Completely Different Name', submittedLei: ACTIVE_LEI_ENTRY.lei.toLowerCase() });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(VOP_FIELDS);
    expect(body).toMatchObject({
      result: 'LEI_MATCH',
      proceedSafe: true,
      score: 100,
      resolvedBy: 'LEI_EXACT_MATCH',
      registeredName: ACTIVE_LEI_ENTRY.legalName,
      registeredLei: ACTIVE_LEI_ENTRY.lei,
      leiStatus: 'ACTIVE',
      attestation: { fatfR16Compliant: true, regulatoryNote: 'FATF R.16: beneficiary confirmed (LEI_MATCH, score 100).' },
    });
  });

  it('a lapsed LEI: LEI_INACTIVE, still proceedSafe and R.16-confirmed, with the registry status', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, lei: LAPSED_LEI_ENTRY.lei });
    const { body } = await verifyByKey({ walletAddress: wallet, submittedName: 'Alfa Rey', submittedLei: LAPSED_LEI_ENTRY.lei });
    expect(body).toMatchObject({ result: 'LEI_INACTIVE', proceedSafe: true, score: 100, resolvedBy: 'LEI_EXACT_MATCH', leiStatus: 'LAPSED', registeredName: LAPSED_LEI_ENTRY.legalName });
    expect(body.message).toMatch(/lapsed/);
    expect(body.attestation.fatfR16Compliant).toBe(true);
  });

  it('an unregistered wallet: NOT_REGISTERED with score null and no registry fields', async () => {
    const { status, body } = await verifyByKey({ walletAddress: freshWallet(), submittedName: 'Acme Widgets' });
    expect(status).toBe(200);
    expect(body).toEqual({
      requestId: expect.stringMatching(UUID),
      result: 'NOT_REGISTERED',
      proceedSafe: true,
      score: null,
      resolvedBy: 'NOT_REGISTERED',
      registeredName: null,
      registeredLei: null,
      leiStatus: null,
      message: 'The wallet is not in the registry; the payee could not be verified.',
      attestation: { fatfR16Compliant: false, regulatoryNote: 'FATF R.16: beneficiary not confirmed (NOT_REGISTERED); the result and its score travel with the payment.' },
    });
  });

  it('a dissimilar name (score 33.33, below 35): BLOCKED, proceedSafe false, no gray-zone reasoning', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei });
    const { body } = await verifyByKey({ walletAddress: wallet, submittedName: 'Shell Chemicals Asia' });
    expect(body).toMatchObject({ result: 'BLOCKED', proceedSafe: false, score: 33.33, resolvedBy: 'LEGAL_NAME_MATCH', attestation: { fatfR16Compliant: false } });
    expect(body).not.toHaveProperty('grayZoneReasoning');
  });

  it('a moderate match (66.67): PROCEED_FLAGGED with grayZoneReasoning, every field', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei });
    const { body } = await verifyByKey({ walletAddress: wallet, submittedName: 'Shell Technologies Singapore' });
    expect(Object.keys(body).sort()).toEqual([...VOP_FIELDS, 'grayZoneReasoning'].sort());
    expect(body).toMatchObject({ result: 'PROCEED_FLAGGED', proceedSafe: true, score: 66.67, resolvedBy: 'LEGAL_NAME_MATCH', attestation: { fatfR16Compliant: false } });
    expect(body.grayZoneReasoning).toEqual({
      assessment: expect.stringMatching(/^(LIKELY_CORRECT|UNCERTAIN|LIKELY_WRONG)$/),
      confidence: expect.stringMatching(/^(HIGH|MEDIUM|LOW)$/),
      likelyCause: expect.any(String),
      rationale: expect.stringContaining('"Shell Technologies Singapore"'),
      proceedRecommendation: expect.stringMatching(/^(PROCEED|PROCEED_WITH_CAUTION|MANUAL_REVIEW)$/),
      processedAt: nowSeconds(),
    });
  });

  it('grayZoneReasoning comes from the synthesiser: omitted when it fails, the verdict unchanged', async () => {
    // An OpenAI-compatible endpoint that refuses every connection: the synthesis fails, the field goes.
    const failing = await startTestServer({ subgraphs: ['compliance'], environment: { ADMIN_KEY, SYNTHESIS_LLM_URL: 'http://127.0.0.1:9/v1/chat/completions', SYNTHESIS_LLM_MODEL: 'unreachable-model', SYNTHESIS_TIMEOUT_MS: '500' } });
    try {
      const key = (await failing.platform!.access.keys.create('api', 'gray zone', 10)).key;
      const wallet = freshWallet();
      const registered = await failing.app.inject({ method: 'POST', url: '/compliance/register', headers: ADMIN, payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei } });
      expect(registered.statusCode).toBe(201);
      const response = await failing.app.inject({ method: 'POST', url: '/compliance/vop/verify', headers: { 'x-api-key': key }, payload: { walletAddress: wallet, submittedName: 'Shell Technologies Singapore' } });
      expect(response.json()).toMatchObject({ result: 'PROCEED_FLAGGED', proceedSafe: true, score: 66.67 });
      expect(response.json()).not.toHaveProperty('grayZoneReasoning');
    } finally {
      await failing.close();
    }
  });

  it('an alias closer than the legal name: resolvedBy ALIAS_MATCH', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, legalName: 'Northwind Trading Limited', aliases: ['Contoso Logistics'] });
    const { body } = await verifyByKey({ walletAddress: wallet, submittedName: 'Contoso Logistics Ltd' });
    expect(body).toMatchObject({ result: 'VERIFIED', resolvedBy: 'ALIAS_MATCH', registeredName: 'Northwind Trading Limited', registeredLei: null, leiStatus: null });
  });
});

describe('GET /compliance/vop/lookup/:wallet and /vop/history/:wallet', () => {
  it('lookup: 404 in the compliance shape for an unregistered wallet, 200 with the registered entity', async () => {
    const wallet = freshWallet();
    expect(await call('GET', `/compliance/vop/lookup/${wallet}`)).toMatchObject({ status: 404, body: { error: 'The wallet is not registered.', code: 'CMP_ERR_WALLET_NOT_REGISTERED' } });
    await register({ walletAddress: wallet.toLowerCase(), legalName: 'Northwind Trading Limited', country: 'gb', aliases: ['Northwind'] });
    const { status, body } = await call('GET', `/compliance/vop/lookup/${wallet.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      walletAddress: wallet,
      legalName: 'Northwind Trading Limited',
      lei: null,
      leiStatus: null,
      aliases: ['Northwind'],
      registeredAt: nowSeconds(),
      registrationType: 'SELF_DECLARED',
      country: 'GB',
    });
  });

  it('history: the last 50 checks, newest first', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, legalName: 'Northwind Trading Limited' });
    const requestIds: string[] = [];
    for (let index = 0; index < VOP_HISTORY_LENGTH + 2; index += 1) {
      server.clock.advance(1000);
      requestIds.push((await verifyByKey({ walletAddress: wallet, submittedName: `Northwind ${index}` })).body.requestId);
    }
    const { status, body } = await call('GET', `/compliance/vop/history/${wallet.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body.walletAddress).toBe(wallet);
    expect(body.count).toBe(VOP_HISTORY_LENGTH);
    expect(body.checks.map((check: { requestId: string }) => check.requestId)).toEqual(requestIds.slice(-VOP_HISTORY_LENGTH).reverse());
    const newest = body.checks[0];
    expect(Object.keys(newest).sort()).toEqual(['checkedAt', 'requestId', 'resolvedBy', 'result', 'score', 'submittedLei', 'submittedName']);
    expect(newest).toMatchObject({ submittedName: `Northwind ${VOP_HISTORY_LENGTH + 1}`, submittedLei: null, resolvedBy: 'LEGAL_NAME_MATCH', checkedAt: nowSeconds() });
  });

  it('history of a wallet never checked: count 0', async () => {
    const wallet = freshWallet();
    expect((await call('GET', `/compliance/vop/history/${wallet}`)).body).toEqual({ walletAddress: wallet, count: 0, checks: [] });
  });
});

describe('GET /compliance/lei/:lei', () => {
  it('answers the registry record and the active wallets under the LEI', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, lei: LAPSED_LEI_ENTRY.lei });
    const { status, body } = await call('GET', `/compliance/lei/${LAPSED_LEI_ENTRY.lei.toLowerCase()}`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['jurisdiction', 'legalName', 'lei', 'leiStatus', 'otherNames', 'wallets']);
    expect(body).toMatchObject({ lei: LAPSED_LEI_ENTRY.lei, legalName: LAPSED_LEI_ENTRY.legalName, leiStatus: 'LAPSED', jurisdiction: 'SK', otherNames: LAPSED_LEI_ENTRY.otherNames });
    expect(body.wallets).toContainEqual({
      walletAddress: wallet,
      legalName: LAPSED_LEI_ENTRY.legalName,
      lei: LAPSED_LEI_ENTRY.lei,
      leiStatus: 'LAPSED',
      aliases: [...LAPSED_LEI_ENTRY.otherNames],
      registeredAt: expect.any(Number),
      registrationType: 'REGISTRY_VERIFIED',
      country: 'SK',
    });
  });

  it.each([
    ['bad check digits', '2138001KPMR6PD83HC09', 400, 'CMP_ERR_INVALID_LEI'],
    ['too short', '2138001KPMR6', 400, 'CMP_ERR_INVALID_LEI'],
    ['unknown to the snapshot', UNKNOWN_VALID_LEI, 404, 'CMP_ERR_LEI_NOT_FOUND'],
    ['longer than 64 characters', 'A'.repeat(65), 400, 'CMP_ERR_INVALID_REQUEST'],
    ['unicode', encodeURIComponent('２１３８００１ＫＰＭＲ６ＰＤ８３ＨＣ０８'), 400, 'CMP_ERR_INVALID_LEI'],
    ['__proto__', '__proto__', 400, 'CMP_ERR_INVALID_LEI'],
  ])('%s: %i %s', async (_case, lei, status, code) => {
    const response = await call('GET', `/compliance/lei/${lei}`);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: expect.any(String), code });
  });
});

describe('POST /compliance/register and DELETE /compliance/register/:wallet (admin)', () => {
  it.each([
    ['without a bearer', {}],
    ['with a wrong admin key', { authorization: `Bearer ${ADMIN_KEY}x` }],
    ['with the key but not as a bearer', { authorization: ADMIN_KEY }],
  ])('401 %s, before the body is validated', async (_case, headers) => {
    const registration = await call('POST', '/compliance/register', { raw: '{"walletAddress":42}', headers });
    expect(registration).toMatchObject({ status: 401, body: { code: 'GEN_ERR_UNAUTHORIZED', error: expect.stringMatching(/admin key/) } });
    const removal = await call('DELETE', `/compliance/register/${freshWallet()}`, { headers });
    expect(removal).toMatchObject({ status: 401, body: { code: 'GEN_ERR_UNAUTHORIZED' } });
  });

  it('by legalName: 201 SELF_DECLARED; again: 200 with the new record', async () => {
    const wallet = freshWallet();
    const created = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, legalName: 'Fabrikam GmbH' }, headers: ADMIN });
    expect(created).toMatchObject({ status: 201, body: { walletAddress: wallet, legalName: 'Fabrikam GmbH', registrationType: 'SELF_DECLARED', lei: null, aliases: [], country: null } });
    const updated = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, legalName: 'Fabrikam Holding GmbH', country: 'DE' }, headers: ADMIN });
    expect(updated).toMatchObject({ status: 200, body: { legalName: 'Fabrikam Holding GmbH', country: 'DE' } });
  });

  it('by LEI alone: REGISTRY_VERIFIED, the name, country and other names taken from the registry', async () => {
    const wallet = freshWallet();
    const { status, body } = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei, aliases: ['Shell CatTech'] }, headers: ADMIN });
    expect(status).toBe(201);
    expect(body).toEqual({
      walletAddress: wallet,
      legalName: ACTIVE_LEI_ENTRY.legalName,
      lei: ACTIVE_LEI_ENTRY.lei,
      leiStatus: 'ACTIVE',
      aliases: ['Shell CatTech', ...ACTIVE_LEI_ENTRY.otherNames],
      registeredAt: nowSeconds(),
      registrationType: 'REGISTRY_VERIFIED',
      country: 'SG',
    });
  });

  it('an LEI well-formed but not in the registry: 422 CMP_ERR_LEI_NOT_VERIFIED, nothing registered', async () => {
    const wallet = freshWallet();
    const response = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, legalName: 'Someone', lei: UNKNOWN_VALID_LEI }, headers: ADMIN });
    expect(response).toMatchObject({ status: 422, body: { code: 'CMP_ERR_LEI_NOT_VERIFIED', error: expect.stringMatching(/not in the LEI registry/) } });
    expect((await call('GET', `/compliance/vop/lookup/${wallet}`)).status).toBe(404);
  });

  it('deregistration: inactive, the audit trail kept, lookup 404 afterwards, a second removal 404', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, legalName: 'Fabrikam GmbH' });
    server.clock.advance(60_000);
    const removed = await call('DELETE', `/compliance/register/${wallet.toLowerCase()}`, { headers: ADMIN });
    expect(removed).toEqual({ status: 200, body: { walletAddress: wallet, active: false, deactivatedAt: nowSeconds() }, headers: expect.anything() });
    expect((await call('GET', `/compliance/vop/lookup/${wallet}`)).status).toBe(404);
    expect((await call('DELETE', `/compliance/register/${wallet}`, { headers: ADMIN })).body).toEqual({ error: 'The wallet is not registered.', code: 'CMP_ERR_WALLET_NOT_REGISTERED' });
    // A deregistered wallet verifies as NOT_REGISTERED.
    expect((await verifyByKey({ walletAddress: wallet, submittedName: 'Fabrikam GmbH' })).body.result).toBe('NOT_REGISTERED');
    const { createComplianceStore } = await import('./store.js');
    const audit = await createComplianceStore(server.platform!.database.db, server.platform!.ids).auditTrail(wallet);
    expect(audit.map((record) => record.action)).toEqual(['REGISTERED', 'DEACTIVATED']);
    expect(audit[1]!.record).toMatchObject({ legalName: 'Fabrikam GmbH', active: false });
  });
});

describe('hostile input on every route: a 4xx in the compliance shape, never a 500', () => {
  const wallet = '0x' + 'a'.repeat(40);
  it.each([
    ['verify: a huge name', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: wallet, submittedName: 'x'.repeat(100_000) })],
    ['verify: __proto__ key', 'POST', '/compliance/vop/verify', `{"walletAddress":"${wallet}","submittedName":"Acme","__proto__":{"admin":true}}`],
    ['verify: wrong types', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: 42, submittedName: ['Acme'] })],
    ['verify: blank name', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: wallet, submittedName: '   ' })],
    ['verify: bad LEI form', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: wallet, submittedName: 'Acme', submittedLei: 'ZZ' })],
    ['verify: not JSON', 'POST', '/compliance/vop/verify', '{"walletAddress":'],
    ['register: __proto__ key', 'POST', '/compliance/register', `{"walletAddress":"${wallet}","legalName":"Acme","__proto__":{"x":1}}`],
    ['register: neither legalName nor lei', 'POST', '/compliance/register', JSON.stringify({ walletAddress: wallet })],
    ['register: too many aliases', 'POST', '/compliance/register', JSON.stringify({ walletAddress: wallet, legalName: 'Acme', aliases: Array.from({ length: 21 }, (_, index) => `a${index}`) })],
    ['register: unicode country', 'POST', '/compliance/register', JSON.stringify({ walletAddress: wallet, legalName: 'Acme', country: 'ÜB' })],
  ])('%s', async (_case, method, url, raw) => {
    const headers = { 'x-api-key': apiKey, ...ADMIN };
    const response = await call(method as 'POST', url, { raw, headers });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), code: 'CMP_ERR_INVALID_REQUEST' });
  });

  it.each([
    ['lookup', '/compliance/vop/lookup/'],
    ['history', '/compliance/vop/history/'],
  ])('%s: a wallet that is not an address, unicode or __proto__', async (_case, path) => {
    for (const bad of ['0x123', '__proto__', encodeURIComponent('0x' + 'ａ'.repeat(40)), 'x'.repeat(5000)]) {
      const response = await call('GET', `${path}${bad}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('CMP_ERR_INVALID_REQUEST');
    }
  });

  it('deregister: a wallet that is not an address', async () => {
    expect(await call('DELETE', '/compliance/register/constructor', { headers: ADMIN })).toMatchObject({ status: 400, body: { code: 'CMP_ERR_INVALID_REQUEST' } });
  });

  it('an unknown path under /compliance answers 404 in the compliance shape', async () => {
    expect((await call('GET', '/compliance/nowhere')).body).toEqual({ error: expect.any(String), code: expect.any(String) });
  });
});

describe('discovery, OpenAPI, regulatory calendar and the KYA mount', () => {
  it('GET /compliance/.well-known/x402: version 1, POST /vop/verify priced 75000 USDC (6 decimals) on base, POST /stream/open at a variable amount', async () => {
    const { status, body } = await call('GET', '/compliance/.well-known/x402');
    expect(status).toBe(200);
    expect(body).toEqual({
      version: 1,
      endpoints: {
        'POST /vop/verify': {
          price: { amount: '75000', currency: 'USDC', decimals: 6 },
          network: 'base',
          facilitator: expect.stringMatching(/^https?:\/\//),
          description: 'Verification of payee: the registered entity of a wallet against a submitted name or LEI',
        },
        'POST /stream/open': {
          variableAmount: true,
          minUsdc: 0.01,
          maxUsdc: 10000,
          unitTypes: ['second', 'token', 'call', 'byte'],
          network: 'base',
          facilitator: expect.stringMatching(/^https?:\/\//),
          description: 'Pay upfront for a credit bucket, units ticked against the balance',
        },
      },
    });
  });

  it('GET /compliance/openapi.json is OpenAPI 3.1 listing every compliance path under {compliance_url}', async () => {
    const { status, body } = await call('GET', '/compliance/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.servers).toEqual([{ url: '/compliance' }]);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/vop/verify',
        '/vop/lookup/{wallet}',
        '/vop/history/{wallet}',
        '/lei/{lei}',
        '/register',
        '/register/{wallet}',
        '/compliance/regulatory-calendar',
        '/.well-known/x402',
        '/.well-known/did.json',
        '/agent/register',
        '/agent/mandate',
        '/agent/{id}/verify',
        '/agent/{id}',
        '/agents/directory',
        '/agents/{id}/did.json',
        '/stream/open',
        '/stream/{sessionId}/tick',
        '/stream/{sessionId}',
      ]),
    );
    expect(Object.keys(body.paths['/vop/verify'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '402']));
  });

  it('GET /compliance/compliance/regulatory-calendar: the 16 events', async () => {
    const { status, body } = await call('GET', '/compliance/compliance/regulatory-calendar');
    expect(status).toBe(200);
    expect(body.count).toBe(16);
    expect(body.events).toHaveLength(16);
    expect(new Set(body.events.map((event: { framework: string }) => event.framework))).toEqual(new Set(['MiCA', 'SFDR', 'CSRD', 'GENIUS Act']));
  });

  it('KYA is mounted under /compliance: the issuer did:web names <host>:compliance, an agent registers and reads back', async () => {
    const issuer = await call('GET', '/compliance/.well-known/did.json');
    expect(issuer.status).toBe(200);
    expect(issuer.headers['content-type']).toMatch(/^application\/did\+json/);
    expect(issuer.body.id).toMatch(/^did:web:127\.0\.0\.1%3A\d+:compliance$/);
    expect(issuer.body.assertionMethod).toHaveLength(1);
    const registered = await call('POST', '/compliance/agent/register', { payload: { name: 'Treasury bot', ownerLei: ACTIVE_LEI_ENTRY.lei } });
    expect(registered).toMatchObject({ status: 201, body: { kyaLevel: 'VERIFIED', leiVerified: true, leiEntityName: ACTIVE_LEI_ENTRY.legalName, did: expect.stringContaining(`${issuer.body.id}:agents:`) } });
    const record = await call('GET', `/compliance/agent/${registered.body.agentId}`);
    expect(record).toMatchObject({ status: 200, body: { agentId: registered.body.agentId, status: 'ACTIVE' } });
    expect((await call('GET', '/compliance/agent/agt_nope')).body).toEqual({ error: expect.any(String), code: 'CMP_ERR_INVALID_REQUEST' });
  });
});

describe('GET /compliance/lei/search (decision 0034)', () => {
  it('finds an LEI by its legal name, case and legal form aside, best first; nothing for an unknown name; a blank name is a 400', async () => {
    const found = await server.app.inject({ method: 'GET', url: '/compliance/lei/search?name=UBISECURE%20OY' });
    expect(found.statusCode).toBe(200);
    expect(found.json().matches[0]).toMatchObject({ lei: '529900T8BM49AURSDO55', legalName: 'Ubisecure Oy', matchedName: 'Ubisecure Oy', score: expect.any(Number) });
    expect(found.json().matches[0].score).toBeGreaterThanOrEqual(75);
    const none = await server.app.inject({ method: 'GET', url: '/compliance/lei/search?name=Zzyzx%20Quux%20Holdings' });
    expect(none.json()).toEqual({ query: 'Zzyzx Quux Holdings', count: 0, matches: [] });
    expect((await server.app.inject({ method: 'GET', url: '/compliance/lei/search?name=%20' })).statusCode).toBe(400);
  });
});

import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { ACTIVE_LEI_ENTRY, LAPSED_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from '../../../test/helpers.js';
import { VOP_HISTORY_LENGTH } from './store.js';
import { ADMIN, ADMIN_KEY, freshWallet, startVopTestServer, UUID, VOP_FIELDS } from './testing.js';

// REST of verification of payee under {compliance_url} = <server>/compliance, by body: VoP paid
// and by key, the lookup and the history. Wallets are fresh per test (the worker's PGlite is shared).

let server: TestServer;
let baseUrl: string;
let rail: ChainConnection;
let apiKey: string;

beforeAll(async () => {
  ({ server, baseUrl, rail, apiKey } = await startVopTestServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** The server clock in epoch seconds (tests advance it). */
const nowSeconds = () => Math.floor(server.clock.now().getTime() / 1000);

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
    const failing = await startTestServer({
      subgraphs: ['compliance'],
      environment: { ADMIN_KEY, SYNTHESIS_LLM_URL: 'http://127.0.0.1:9/v1/chat/completions', SYNTHESIS_LLM_MODEL: 'unreachable-model', SYNTHESIS_TIMEOUT_MS: '500' },
    });
    try {
      const key = (await failing.platform!.access.keys.create('api', 'gray zone', 10)).key;
      const wallet = freshWallet();
      const registered = await failing.app.inject({ method: 'POST', url: '/compliance/register', headers: ADMIN, payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei } });
      expect(registered.statusCode).toBe(201);
      const response = await failing.app.inject({
        method: 'POST',
        url: '/compliance/vop/verify',
        headers: { 'x-api-key': key },
        payload: { walletAddress: wallet, submittedName: 'Shell Technologies Singapore' },
      });
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

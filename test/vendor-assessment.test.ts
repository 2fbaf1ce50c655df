import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VENDOR_QUERY } from './fixtures/vendor-query.js';
import { startTestServer, type TestServer } from './helpers.js';

// The composed vendor view (issue 9): VoP, ESG, PEP, ownership chain, risk and the fee of a payment
// to the vendor in one request through the gateway, the fee resolved by fees from the ESG score
// compliance gives (@requires): the plan fetches from both.

const ADMIN_KEY = 'vendor-view-admin-key-0123456789abcdef0123';
/** An active GLEIF record of the shipped snapshot (Singapore). */
const ACTIVE_LEI = '2138001KPMR6PD83HC08';
const VENDOR_NAME = 'Shell Catalysts & Technologies Pte. Ltd.';

let server: TestServer;
let apiKey: string;
let wallet: string;

beforeAll(async () => {
  server = await startTestServer({ environment: { ADMIN_KEY } });
  apiKey = (await server.platform!.access.keys.create('api', 'vendor dashboard', 100)).key;
  wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
  const registered = await server.app.inject({
    method: 'POST',
    url: '/compliance/register',
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
    payload: { walletAddress: wallet, lei: ACTIVE_LEI },
  });
  expect(registered.statusCode).toBe(201);
}, 90_000);
afterAll(async () => {
  await server?.close();
});

async function fetchesBySubgraph(): Promise<Record<string, number>> {
  const metric = await server.base.metrics.subgraphFetches.get();
  return Object.fromEntries(metric.values.map((value) => [String(value.labels.subgraph), value.value]));
}

async function vendorView(variables: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await server.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: VENDOR_QUERY, variables } });
  return {
    status: response.statusCode,
    body: response.json() as { data?: { vendorAssessment: Record<string, any> | null }; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> },
  };
}

describe('vendorAssessment through the gateway', () => {
  it('answers VoP, ESG, PEP, ownership chain, risk and the fee in one request, the plan fetching from compliance and fees', async () => {
    const before = await fetchesBySubgraph();
    const { status, body } = await vendorView({ name: VENDOR_NAME, lei: ACTIVE_LEI, wallet, amount: 250_000 }, { 'x-api-key': apiKey });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    const after = await fetchesBySubgraph();
    expect((after.compliance ?? 0) - (before.compliance ?? 0)).toBeGreaterThanOrEqual(1);
    expect((after.fees ?? 0) - (before.fees ?? 0)).toBe(1);

    const view = body.data!.vendorAssessment!;
    // The risk part is exactly what REST answers for the same vendor.
    const rest = await server.app.inject({ method: 'POST', url: '/compliance/vendor-risk', payload: { name: VENDOR_NAME, lei: ACTIVE_LEI, wallet } });
    const { vendorRiskScore, riskTier, recommendation, entity, breakdown, compliance, esg } = rest.json();
    expect(view).toMatchObject({ vendorRiskScore, riskTier, recommendation, entity, breakdown, compliance, esg });

    // VoP: the LEI the wallet is registered under bypasses the name; paid by the API key.
    expect(view.vop).toEqual({ result: 'LEI_MATCH', score: 100, resolvedBy: 'LEI_EXACT_MATCH', registeredLei: ACTIVE_LEI, proceedSafe: true });
    expect(view.pepScreen).toMatchObject({ riskLevel: 'NONE', eddRequired: false, pepMatches: [] });

    const legalEntity = view.legalEntity;
    expect(legalEntity).toMatchObject({ lei: ACTIVE_LEI, legalName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.' });
    expect(legalEntity.esgScore).toBe(legalEntity.esg.composite);
    expect(legalEntity.esgScore).toBe(breakdown.esgScore);
    expect(legalEntity.ownershipChain.chain[0]).toEqual({ lei: ACTIVE_LEI, role: 'SUBJECT' });
    // Fees priced the payment at the entity's ESG score, which it got from compliance.
    expect(legalEntity.paymentFee.input).toEqual({ amountUsd: 250_000, esgScore: legalEntity.esgScore });
    expect(legalEntity.paymentFee.quoteId).toMatch(/^srq-/);
  });

  it('without a payment or key, only the paid VoP field is refused (402 requirements in its error); the rest answers', async () => {
    const { body } = await vendorView({ name: VENDOR_NAME, lei: ACTIVE_LEI, wallet, amount: 1000 });
    expect(body.data!.vendorAssessment!.vop).toBeNull();
    expect(body.data!.vendorAssessment!.vendorRiskScore).toEqual(expect.any(Number));
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'GEN_ERR_PAYMENT_REQUIRED', x402Version: 1, accepts: [expect.objectContaining({ maxAmountRequired: '75000' })] });
  });

  it('a name alone: no legal entity, no VoP, ESG at the default 50; bad input is a 400 with the compliance code', async () => {
    const { body } = await vendorView({ name: 'Acme Widgets Limited', amount: 1000 });
    expect(body.errors).toBeUndefined();
    expect(body.data!.vendorAssessment).toMatchObject({ legalEntity: null, vop: null, breakdown: { esgScore: 50 }, entity: { lei: null } });
    const bad = await vendorView({ name: 'Acme', lei: 'NOT-AN-LEI', amount: 1000 });
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'CMP_ERR_INVALID_REQUEST' });
  });
});

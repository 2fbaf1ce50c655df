import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers.js';
import { fatfLists, pepRecords } from '../data/index.js';

// POST {compliance_url}/vendor-risk (Document 2 §2, §3, §4) against the all-in-one server, by body,
// on the shipped SDN, PEP, FATF and GLEIF snapshots. Score = compliance x 0.65 + ESG x 0.35.

const ADMIN_KEY = 'vendor-risk-admin-key-0123456789abcdef0123';
const FIELDS = ['breakdown', 'compliance', 'entity', 'esg', 'generatedAt', 'recommendation', 'refreshAt', 'riskTier', 'vendorRiskScore'];
/** An active GLEIF record of the shipped snapshot (Singapore, not on a FATF list). */
const ACTIVE_LEI = '2138001KPMR6PD83HC08';
/** ofac/digital_currency_addresses.csv: entry 27307, ETH. */
const LISTED_WALLET = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const CLEAN_NAME = 'Acme Widgets Limited';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['compliance'], environment: { ADMIN_KEY } });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function vendorRisk(payload: unknown, raw?: string) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/compliance/vendor-risk',
    headers: { 'content-type': 'application/json' },
    payload: raw ?? JSON.stringify(payload),
  });
  return { status: response.statusCode, body: response.json() as Record<string, any> };
}

const weighted = (compliance: number, esg: number) => Math.round((compliance * 0.65 + esg * 0.35) * 100) / 100;

describe('POST /compliance/vendor-risk', () => {
  it('a clean name alone: APPROVED at 100, ESG at the default 50, every documented field', async () => {
    const { status, body } = await vendorRisk({ name: CLEAN_NAME });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(FIELDS);
    expect(body).toMatchObject({
      vendorRiskScore: weighted(100, 50),
      riskTier: 'LOW',
      recommendation: 'Proceed: standard monitoring.',
      entity: { name: CLEAN_NAME, lei: null },
      breakdown: { complianceScore: 100, esgScore: 50, complianceWeight: 0.65, esgWeight: 0.35 },
      compliance: { verdict: 'APPROVED', signals: [], sanctions: false, pep: false, fatfBlacklist: false },
      esg: { score: 50, tier: 'AVERAGE', source: expect.stringMatching(/\/compliance\/esg \(default 50/) },
    });
    const generatedAt = Date.parse(body.generatedAt);
    expect(generatedAt).toBe(server.clock.now().getTime());
    expect(Date.parse(body.refreshAt) - generatedAt).toBe(24 * 60 * 60 * 1000);
  });

  it('an LEI: the entity ESG score of GET /esg/score/:lei is the ESG part, and the source names that service', async () => {
    const esg = await server.app.inject({ method: 'GET', url: `/compliance/esg/score/${ACTIVE_LEI}` });
    expect(esg.statusCode).toBe(200);
    const composite = esg.json().composite as number;
    const { body } = await vendorRisk({ name: 'Shell Catalysts & Technologies Pte. Ltd.', lei: ACTIVE_LEI.toLowerCase() });
    expect(body).toMatchObject({
      entity: { lei: ACTIVE_LEI },
      breakdown: { complianceScore: 100, esgScore: composite },
      vendorRiskScore: weighted(100, composite),
      esg: { score: composite, tier: esg.json().feeTier, source: expect.stringMatching(new RegExp(`/compliance/esg/score/${ACTIVE_LEI}$`)) },
    });
  });

  it('an exact SDN name: BLOCKED at 0, HIGH, sanctions true', async () => {
    const { body } = await vendorRisk({ name: 'Banco Nacional de Cuba' });
    expect(body).toMatchObject({
      vendorRiskScore: weighted(0, 50),
      riskTier: 'HIGH',
      breakdown: { complianceScore: 0 },
      compliance: { verdict: 'BLOCKED', signals: ['SANCTIONS_MATCH'], sanctions: true },
    });
  });

  it('a near SDN match (0.70 to 0.95): FLAGGED at 35 less 20 for sanctions exposure', async () => {
    // "Banko Nacional de Kuba" scores 0.913 against BANCO NACIONAL DE CUBA.
    const { body } = await vendorRisk({ name: 'Banko Nacional de Kuba' });
    expect(body).toMatchObject({
      breakdown: { complianceScore: 15 },
      vendorRiskScore: weighted(15, 50),
      riskTier: 'HIGH',
      compliance: { verdict: 'FLAGGED', signals: ['SANCTIONS_NEAR_MATCH'], sanctions: true, pep: false },
    });
  });

  it('a wallet on the SDN digital-currency list blocks, whatever the name', async () => {
    const { body } = await vendorRisk({ name: CLEAN_NAME, wallet: LISTED_WALLET });
    expect(body.compliance).toMatchObject({ verdict: 'BLOCKED', sanctions: true, signals: ['SANCTIONS_MATCH'] });
  });

  it('FATF: a call-for-action country blocks; an increased-monitoring country flags at 35 less 10', async () => {
    const { blacklist, greylist } = fatfLists().current;
    const black = await vendorRisk({ name: CLEAN_NAME, country: blacklist[0]!.code.toLowerCase() });
    expect(black.body).toMatchObject({ breakdown: { complianceScore: 0 }, compliance: { verdict: 'BLOCKED', fatfBlacklist: true, signals: ['FATF_BLACKLIST_JURISDICTION'] } });
    const grey = await vendorRisk({ name: CLEAN_NAME, country: greylist[0]!.code });
    expect(grey.body).toMatchObject({
      breakdown: { complianceScore: 25 },
      vendorRiskScore: weighted(25, 50),
      compliance: { verdict: 'FLAGGED', fatfBlacklist: false, signals: ['FATF_GREYLIST_JURISDICTION'] },
    });
  });

  it('a PEP name: FLAGGED at 35 less 15 for the PEP link', async () => {
    const pep = pepRecords().find((record) => record.country === 'US')!;
    const { body } = await vendorRisk({ name: pep.name, country: 'US' });
    expect(body).toMatchObject({ breakdown: { complianceScore: 20 }, compliance: { verdict: 'FLAGGED', pep: true, signals: ['PEP_MATCH'] } });
  });

  it('a wallet registered to another entity: the VoP name check is BLOCKED, so the vendor is', async () => {
    const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
    const registered = await server.app.inject({
      method: 'POST',
      url: '/compliance/register',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { walletAddress: wallet, legalName: 'Contoso Pharmaceuticals Incorporated' },
    });
    expect(registered.statusCode).toBe(201);
    const blocked = await vendorRisk({ name: 'Zygote Quantum Holdings', wallet });
    expect(blocked.body.compliance).toMatchObject({ verdict: 'BLOCKED', signals: ['VOP_BLOCKED'], sanctions: false });
    const matched = await vendorRisk({ name: 'Contoso Pharmaceuticals Inc', wallet });
    expect(matched.body.compliance).toMatchObject({ verdict: 'APPROVED', signals: [] });
  });

  it.each([
    ['no name', { lei: ACTIVE_LEI }],
    ['an empty name', { name: '   ' }],
    ['a name too long', { name: 'x'.repeat(257) }],
    ['an unknown field', { name: CLEAN_NAME, score: 100 }],
    ['a malformed LEI', { name: CLEAN_NAME, lei: 'NOT-AN-LEI' }],
    ['a malformed wallet', { name: CLEAN_NAME, wallet: '0x<script>' }],
    ['a country of three letters', { name: CLEAN_NAME, country: 'USA' }],
    ['a negative amount', { name: CLEAN_NAME, amount: -5 }],
    ['an amount as text', { name: CLEAN_NAME, amount: '100' }],
  ])('%s: 400 CMP_ERR_INVALID_REQUEST in the compliance shape', async (_case, payload) => {
    const { status, body } = await vendorRisk(payload);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'CMP_ERR_INVALID_REQUEST', error: expect.any(String) });
  });

  it('an LEI with wrong check digits: 400 CMP_ERR_INVALID_LEI; a __proto__ key: 400, never a 500', async () => {
    const wrongDigits = `${ACTIVE_LEI.slice(0, 18)}${ACTIVE_LEI.endsWith('00') ? '01' : '00'}`;
    expect((await vendorRisk({ name: CLEAN_NAME, lei: wrongDigits })).body).toMatchObject({ code: 'CMP_ERR_INVALID_LEI' });
    const hostile = await vendorRisk(undefined, `{"name":"${CLEAN_NAME}","__proto__":{"admin":true}}`);
    expect(hostile.status).toBe(400);
  });
});

describe('vendorAssessment on the compliance subgraph: the VoP field on the registration the assessment read (decision 0096)', () => {
  const VENDOR_VIEW = `query ($name: String!, $wallet: String) {
    vendorAssessment(name: $name, wallet: $wallet) { vendorRiskScore compliance { signals } vop { requestId result score } }
  }`;
  const view = async (variables: Record<string, unknown>, headers: Record<string, string> = {}) =>
    (await server.app.inject({ method: 'POST', url: '/subgraphs/compliance/graphql', headers, payload: { query: VENDOR_VIEW, variables } })).json() as {
      data?: { vendorAssessment: { vendorRiskScore: number; compliance: { signals: string[] }; vop: { requestId: string; result: string } | null } };
      errors?: Array<{ extensions?: Record<string, unknown> }>;
    };
  const history = async (wallet: string) => (await server.app.inject({ method: 'GET', url: `/compliance/vop/history/${wallet}` })).json() as { count: number; checks: Array<{ requestId: string }> };

  it('paid by a key: the VoP agrees with the assessment, and its check is in the history at once; a stranger is refused and records nothing', async () => {
    const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
    const registered = await server.app.inject({
      method: 'POST',
      url: '/compliance/register',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { walletAddress: wallet, legalName: 'Contoso Pharmaceuticals Inc' },
    });
    expect(registered.statusCode).toBe(201);
    const key = (await server.platform!.access.keys.create('api', 'vendor view', 100)).key;

    const refused = await view({ name: 'Zygote Quantum Holdings', wallet });
    expect(refused.data?.vendorAssessment.vop).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'GEN_ERR_PAYMENT_REQUIRED' });
    expect((await history(wallet)).count).toBe(0);

    const paid = await view({ name: 'Zygote Quantum Holdings', wallet }, { 'x-api-key': key });
    expect(paid.errors).toBeUndefined();
    expect(paid.data!.vendorAssessment.compliance.signals).toEqual(['VOP_BLOCKED']);
    expect(paid.data!.vendorAssessment.vop).toMatchObject({ result: 'BLOCKED' });
    expect((await history(wallet)).checks.map((check) => check.requestId)).toEqual([paid.data!.vendorAssessment.vop!.requestId]);
  });
});

import { GraphQLNonNull, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../platform/db.js';
import { describeShapeDisagreements } from '../../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../../platform/subgraph.js';
import { openTestPglite, startTestServer, type TestServer } from '../../../test/helpers.js';
import { signalResponseSchema } from '../shared/envelope.js';
import { getSignal, querySignal } from '../shared/testing.js';
import { entityEsgSchema } from './esg.js';

const ADMIN_KEY = 'entity-esg-admin-key-0123456789abcdef0123';
const SHELL_CATALYSTS = '2138001KPMR6PD83HC08';
const AMAZON_DIGITAL_UK = '254900LNRYNOQ9YPU758';
/** An ETH address on the OFAC SDN list (compliance data/ofac/digital_currency_addresses.csv, ent_num 27307). */
const LISTED_WALLET = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const REGISTERED_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const esg = (subject: string) => `/v1/intelligence/esg/${subject}`;

let database: DatabaseHandle;
let server: TestServer;
let key: string;
beforeAll(async () => {
  // A database of its own: the answers it caches are this file's alone.
  database = await openTestPglite();
  server = await startTestServer({ subgraphs: ['intelligence', 'compliance'], database, environment: { ADMIN_KEY } });
  key = (await server.platform!.access.keys.create('api', 'esg desk', 1000)).key;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

describe('GET /v1/intelligence/esg/:address by LEI', () => {
  it('answers shape 6 from the compliance record: 0.45 x 50 + 0.25 x 50 + 0.30 x 100 = 65, AVERAGE, with its headers', async () => {
    const { status, body, headers } = await getSignal(server, esg(SHELL_CATALYSTS), key);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      esgScore: 65,
      tier: 'AVERAGE',
      components: {
        environmental: { score: 50, violations: null, riskLevel: 'UNASSESSED' },
        governance: { score: 100, riskLevel: 'LOW' },
        social: { score: 50, incidents: null, riskLevel: 'UNASSESSED' },
      },
      flags: ['ENVIRONMENTAL_UNASSESSED', 'SOCIAL_UNASSESSED'],
      recommendedTier: 'STANDARD',
      entity: { lei: SHELL_CATALYSTS, legalName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.' },
      dataQuality: 'PARTIAL',
      cacheHit: false,
    });
    expect(typeof body.esgScore).toBe('number');
    expect(Array.isArray(body.flags)).toBe(true);
    expect([headers['x-rail-esg-score'], headers['x-rail-esg-tier']]).toEqual(['65', 'AVERAGE']);
    expect(body.missingInputs).toHaveLength(2);
  });

  it("shows the compliance data's provenance as inputs, each as the oracle's reference data states it", async () => {
    const { body } = await getSignal(server, esg(SHELL_CATALYSTS), key);
    const reference = (await server.app.inject({ method: 'GET', url: '/compliance/reference-data' })).json().datasets as Array<{ dataset: string; url: string; asOf: string; licence: string }>;
    const inputs = body.inputs as Array<{ id: string; url: string; asOf: string; licence: string; publisher: string }>;
    expect(inputs.map((input) => input.id).sort()).toEqual(['compliance:fatf', 'compliance:lei', 'compliance:ofacSdn', 'compliance:pepHeadsOfState', 'compliance:pepMeps', 'compliance:pepUsFederal']);
    for (const input of inputs) {
      const stated = reference.find((dataset) => `compliance:${dataset.dataset}` === input.id)!;
      expect({ url: input.url, asOf: input.asOf, licence: input.licence }).toEqual({ url: stated.url, asOf: stated.asOf, licence: stated.licence });
    }
    expect(inputs.find((input) => input.id === 'compliance:ofacSdn')).toMatchObject({ asOf: '2023-12-28', stale: true, publisher: 'US Treasury, Office of Foreign Assets Control' });
  });

  it('serves every spelling of one subject from one cache entry', async () => {
    const first = await getSignal(server, esg(SHELL_CATALYSTS), key);
    const lower = await getSignal(server, esg(SHELL_CATALYSTS.toLowerCase()), key);
    expect(lower.body).toMatchObject({ cacheHit: true, generatedAt: first.body.generatedAt });
    expect(lower.headers['x-rail-cache-hit']).toBe('true');
  });
});

describe('GET /v1/intelligence/esg/:address by wallet', () => {
  it("a registered wallet answers its entity's record: 22.5 + 12.5 + 0.30 x 92 = 62.6, its parent withheld", async () => {
    const registered = await server.app.inject({
      method: 'POST',
      url: '/compliance/register',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { walletAddress: REGISTERED_WALLET, lei: AMAZON_DIGITAL_UK },
    });
    expect(registered.statusCode).toBeLessThan(300);
    const { body, headers } = await getSignal(server, esg(REGISTERED_WALLET), key);
    expect(body).toMatchObject({ esgScore: 62.6, tier: 'AVERAGE', entity: { lei: AMAZON_DIGITAL_UK, legalName: 'Amazon Digital UK Limited' }, components: { governance: { score: 92 } } });
    expect(body.flags).toContain('PARENT_NOT_DISCLOSED');
    expect(headers['x-rail-esg-score']).toBe('62.6');
  });

  it('a wallet on the OFAC list: governance 0, 22.5 + 12.5 + 0 = 35, BELOW_AVERAGE, RESTRICTED', async () => {
    const { body, headers } = await getSignal(server, esg(LISTED_WALLET), key);
    expect(body).toMatchObject({ esgScore: 35, tier: 'BELOW_AVERAGE', recommendedTier: 'RESTRICTED', entity: null, components: { governance: { score: 0, riskLevel: 'HIGH' } } });
    expect(body.flags).toEqual(expect.arrayContaining(['SANCTIONS_MATCH', 'WALLET_NOT_REGISTERED']));
    expect([headers['x-rail-esg-score'], headers['x-rail-esg-tier']]).toEqual(['35', 'BELOW_AVERAGE']);
  });

  it('an unregistered wallet: neutral 50, AVERAGE, due diligence, the missing entity named', async () => {
    const { body } = await getSignal(server, esg('0x000000000000000000000000000000000000dEaD'), key);
    expect(body).toMatchObject({ esgScore: 50, tier: 'AVERAGE', recommendedTier: 'ENHANCED_DUE_DILIGENCE', entity: null, dataQuality: 'PARTIAL' });
    expect(body.missingInputs).toContain("the wallet's entity: the wallet is not registered with the compliance oracle");
  });
});

describe('hostile subjects', () => {
  it.each([
    ['an LEI with a wrong check digit', '2138001KPMR6PD83HC09'],
    ['19 characters', '2138001KPMR6PD83HC0'],
    ['too long', 'A'.repeat(65)],
    ['an address of 41 hex digits', `0x${'a'.repeat(41)}`],
    ['a mixed-case address with a wrong EIP-55 checksum', '0x000000000000000000000000000000000000DEad'],
    ['unicode', encodeURIComponent('２１３８００１ＫＰＭＲ６ＰＤ８３ＨＣ０８')],
    ['an emoji', encodeURIComponent('🙂'.repeat(10))],
    ['path traversal, encoded', encodeURIComponent('../../etc/passwd')],
    ['SQL', encodeURIComponent("' OR 1=1--")],
  ])('%s: 400 INT_ERR_INVALID_SUBJECT before any payment, its body {error, code}', async (_name, subject) => {
    const { status, body } = await getSignal(server, esg(subject));
    expect(status).toBe(400);
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    expect(body.code).toBe('INT_ERR_INVALID_SUBJECT');
    expect(body.error).not.toContain('passwd');
  });

  it.each([
    // Refused by the platform before the route: longer than the router takes, a NUL byte (decision 0053), a dot-dot segment that leaves the path.
    ['longer than the router takes', 'A'.repeat(5000)],
    ['a NUL byte', '%00'],
    ['a dot-dot segment, encoded', '%2e%2e'],
  ])('%s: a 4xx in the same shape, never a 500 and never an answer', async (_name, subject) => {
    const { status, body } = await getSignal(server, esg(subject), key);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  });
});

describe('entityEsg in the graph', () => {
  it('answers the REST body in GraphQL types, and INT_ERR_INVALID_SUBJECT for a bad subject', async () => {
    const fields =
      'esgScore tier components { environmental { score violations riskLevel } governance { score riskLevel } social { score incidents riskLevel } } flags recommendedTier entity { lei legalName } dataQuality';
    const paid = await querySignal(server, `{ entityEsg(address: "${SHELL_CATALYSTS}") { ${fields} } }`, key);
    expect(paid.errors).toBeUndefined();
    const rest = (await getSignal(server, esg(SHELL_CATALYSTS), key)).body;
    expect(paid.data?.entityEsg).toEqual({
      esgScore: rest.esgScore,
      tier: rest.tier,
      components: rest.components,
      flags: rest.flags,
      recommendedTier: rest.recommendedTier,
      entity: rest.entity,
      dataQuality: rest.dataQuality,
    });
    const refused = await querySignal(server, '{ entityEsg(address: "not-a-subject") { esgScore } }', key);
    expect(refused.data?.entityEsg).toBeNull();
    expect(refused.errors?.[0]?.extensions?.code).toBe('INT_ERR_INVALID_SUBJECT');
  });

  it('is one shape in REST and GraphQL', () => {
    const type = buildFederatedSchema(loadSubgraphTypeDefs('intelligence'), {}).getType('EntityEsg');
    if (!isObjectType(type)) throw new Error('EntityEsg is not an object type');
    expect(describeShapeDisagreements(signalResponseSchema(entityEsgSchema), new GraphQLNonNull(type))).toEqual([]);
  });
});

describe('without the compliance oracle in reach', () => {
  it('answers 503 GEN_ERR_UNAVAILABLE, not a guess', async () => {
    const alone = await startTestServer({ subgraphs: ['intelligence'], database });
    try {
      const { key: aloneKey } = await alone.platform!.access.keys.create('api', 'no compliance here', 10);
      const { status, body } = await getSignal(alone, esg(AMAZON_DIGITAL_UK), aloneKey);
      expect(status).toBe(503);
      expect(body.code).toBe('GEN_ERR_UNAVAILABLE');
    } finally {
      await alone.close();
    }
  });
});

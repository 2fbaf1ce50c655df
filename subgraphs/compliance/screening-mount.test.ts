import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestServer, type TestServer } from '../../test/helpers.js';

const SHELL = '2138001KPMR6PD83HC08';

// The entity ESG and PEP plugins as the all-in-one server mounts them, under {compliance_url} = /compliance.
describe('entity ESG and PEP screen in the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['compliance'] });
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('GET /compliance/esg/score/:lei answers the score without a key (free), narration from the rule-based synthesiser', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/compliance/esg/score/${SHELL}?refresh=true&narrate=true` });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ lei: SHELL, composite: 66.7, feeTier: 'AVERAGE', feeSurcharge: 0.0025, coverage: 'PARTIAL', fromCache: false });
    expect(body.narration).toMatch(/^SHELL CATALYSTS & TECHNOLOGIES PTE\. LTD\. \(2138001KPMR6PD83HC08\) scores 66\.7 of 100/);
    expect(body.narrationModel).toMatch(/^rule-based-synthesiser/);
  });

  it('GET /compliance/esg/score/wallet/:wallet: 404 for an unregistered wallet, in the compliance error shape', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/compliance/esg/score/wallet/0x9999999999999999999999999999999999999999' });
    expect([response.statusCode, response.json()]).toEqual([404, { error: 'The wallet is not registered.', code: 'CMP_ERR_WALLET_NOT_REGISTERED' }]);
  });

  it('POST /compliance/compliance/pep-screen answers without a key (free)', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/compliance/compliance/pep-screen', payload: { name: 'J.D. Vance', country: 'US' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ riskLevel: 'HIGH', eddRequired: true, fatfR12: { recommendation: 'R.12', pepIdentified: true } });
  });

  it('the OpenAPI document lists the three paths (relative to {compliance_url})', async () => {
    const paths = Object.keys((await server.app.inject({ method: 'GET', url: '/compliance/openapi.json' })).json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/esg/score/{lei}', '/esg/score/wallet/{wallet}', '/compliance/pep-screen']));
  });
});

// The compliance subgraph's own endpoint (this server builds only the compliance subgraph).
const SUBGRAPH = '/subgraphs/compliance/graphql';

describe('entity ESG and PEP screen in the graph', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['compliance'] });
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('LegalEntity.esg and Query.pepScreen answer what REST answers', async () => {
    const { data, errors } = await graphql<{
      legalEntity: { lei: string; esg: Record<string, unknown> & { inputs: unknown[] } };
      pepScreen: { riskLevel: string; eddRequired: boolean; pepMatches: Array<Record<string, unknown>>; fatfR12: Record<string, unknown> };
    }>(
      server,
      `{ legalEntity(lei: "${SHELL}") { lei esg(refresh: true) { lei entityName composite governance feeTier feeSurcharge coverage fromCache assessedPillars inputs { input value score source } } }
         pepScreen(name: "J.D. Vance", country: "US", position: "Vice President") { riskLevel eddRequired pepMatches { name matchConfidence positionCheck } fatfR12 { recommendation pepIdentified highestConfidence } } }`,
      {},
      SUBGRAPH,
    );
    expect(errors, JSON.stringify(errors)).toBeUndefined();
    expect(data!.legalEntity.esg).toMatchObject({
      lei: SHELL,
      composite: 66.7,
      governance: 100,
      feeTier: 'AVERAGE',
      feeSurcharge: 0.0025,
      coverage: 'PARTIAL',
      fromCache: false,
      assessedPillars: ['governance'],
    });
    expect(data!.legalEntity.esg.inputs).toHaveLength(4);
    const rest = (await server.app.inject({ method: 'GET', url: `/compliance/esg/score/${SHELL}` })).json();
    expect(rest).toMatchObject({ composite: data!.legalEntity.esg.composite, fromCache: true });
    expect(data!.pepScreen).toMatchObject({ riskLevel: 'HIGH', eddRequired: true, fatfR12: { recommendation: 'R.12', pepIdentified: true, highestConfidence: 'HIGH' } });
    expect(data!.pepScreen.pepMatches[0]).toEqual({ name: 'J.D. Vance', matchConfidence: 'HIGH', positionCheck: 'CORROBORATED' });
  });

  it('bad pepScreen arguments: CMP_ERR_INVALID_REQUEST, no data', async () => {
    const { data, errors } = await graphql(server, '{ pepScreen(name: "X", country: "USA") { riskLevel } }', {}, SUBGRAPH);
    expect(data?.pepScreen ?? null).toBeNull();
    expect(errors?.[0]?.extensions?.code).toBe('CMP_ERR_INVALID_REQUEST');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../platform/db.js';
import { RULE_BASED_MODEL } from '../../../platform/synthesis.js';
import { openTestPglite, startTestServer, TEST_NOW, type TestServer } from '../../../test/helpers.js';

const REPORT_FIELDS = ['data', 'generatedAt', 'period', 'reportType', 'sources', 'synthesis'];
const LEI = '2138001KPMR6PD83HC08';

/** The macro and ESG reports (decision 0038) through the all-in-one server, reading the oracles' first runs. */
describe('GET /reports/report/macro and /reports/report/esg', () => {
  let database: DatabaseHandle;
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    database = await openTestPglite();
    server = await startTestServer({ database, environment: { ORACLE_SCHEDULER: 'true' } });
    key = (await server.platform!.access.keys.create('api', 'report desk', 100)).key;
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await database.close();
  });
  const get = async (url: string, headers: Record<string, string> = { 'x-api-key': key }) => {
    const response = await server.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json<Record<string, any>>() };
  };

  it('without payment: 402 with the descriptor and the preview, at 1.00 USDC', async () => {
    for (const [path, type] of [
      ['/reports/report/macro', 'macro'],
      [`/reports/report/esg?lei=${LEI}`, 'esg'],
    ] as const) {
      const { status, body } = await get(path, {});
      expect(status).toBe(402);
      expect(body.accepts[0]).toMatchObject({ scheme: 'exact', network: 'base', maxAmountRequired: '1000000' });
      expect(body.reportPreview).toMatchObject({ type, fee: { amountUsdc: '1.00' } });
    }
  });

  it('macro: the envelope from the stability oracle, its figures equal to GET /stability/reliability, cached', async () => {
    const { status, body } = await get('/reports/report/macro');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(REPORT_FIELDS);
    expect(body).toMatchObject({ reportType: 'macro', period: '2026-11', generatedAt: TEST_NOW });
    const reliability = (await server.app.inject({ method: 'GET', url: '/stability/reliability' })).json();
    expect(body.data.reliability.stability.currentScore).toBe(reliability.stability.currentScore);
    expect(body.synthesis).toMatchObject({ model: RULE_BASED_MODEL, riskLevel: expect.stringMatching(/^(LOW|MODERATE|ELEVATED|HIGH|CRITICAL)$/) });
    expect(Object.keys(body.synthesis.narrative)).toEqual(['Stability score', 'Macro regime', '90-day outlook', 'Peg']);
    expect(body.synthesis.summary).toContain(`Stability score ${reliability.stability.currentScore}`);
    expect(body.synthesis.dataQuality).toBe(reliability.dataQuality);
    server.clock.advance(60_000);
    expect((await get('/reports/report/macro')).body.generatedAt).toBe(TEST_NOW);
  });

  it("esg: the entity's score by LEI beside the rail's", async () => {
    const { status, body } = await get(`/reports/report/esg?lei=${LEI.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body.data.subject).toEqual({ lei: LEI });
    expect(body.data.entity).toMatchObject({ lei: LEI, composite: expect.any(Number) });
    const rail = (await server.app.inject({ method: 'GET', url: '/esg/esg-score' })).json();
    expect(body.data.rail.scores).toEqual(rail.scores);
    expect(body.synthesis.keyFindings[0]).toContain(LEI);
  });

  it('esg: neither, both, or a malformed subject is a 400, before any payment', async () => {
    for (const query of ['', `?lei=${LEI}&address=0x${'a'.repeat(40)}`, '?lei=short', '?address=0x12', '?name=x']) {
      const { status, body } = await get(`/reports/report/esg${query}`, {});
      expect([query, status]).toEqual([query, 400]);
      expect(typeof body.error).toBe('string');
    }
  });

  it('the graph serves both, and the agent card lists them as skills', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-api-key': key },
      payload: { query: `{ macroReport { reportType } esgReport(lei: "${LEI}") { reportType data } }` },
    });
    expect(response.json().data).toMatchObject({ macroReport: { reportType: 'macro' }, esgReport: { reportType: 'esg' } });
    const card = (await server.app.inject({ method: 'GET', url: '/reports/.well-known/agent.json' })).json();
    expect(card.skills.map((skill: { id: string }) => skill.id)).toEqual(['climate-report', 'macro-report', 'esg-report', 'compliance-report', 'treasury-report']);
  });
});

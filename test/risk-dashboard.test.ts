import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../platform/db.js';
import { openTestPglite, startTestServer, type TestServer } from './helpers.js';

// The composed risk view (issue 23, decision 0062): one request through the gateway, parts from
// intelligence (the paid signals), fees (the stability oracle) and forecast (the heat-check).

const DASHBOARD_QUERY = `{
  riskDashboard {
    id
    stability { stability { currentScore threshold { stable caution } } isHealthy dataQuality asOf decision { action } }
    heatCheck { asOf dataQuality commodities { symbol status } }
    macroStress { stressIndex regime dataQuality asOf stale }
    commodityStress { stressIndex regime dataQuality asOf }
    currencyStress { stressIndex dollarRegime dataQuality asOf }
    sovereignDebt { systemicSignals { globalDebtRegime } dataQuality asOf missingInputs }
    supplyChain { gscpiZScore regime dataQuality asOf }
    cascade { nervousSystem { systemicRiskScore overallStatus activeCascadeCount } dataQuality asOf }
  }
}`;

type GraphQLAnswer = { data?: Record<string, any>; errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, any> }> };

async function ask(server: TestServer, query: string, headers: Record<string, string> = {}, url = '/graphql'): Promise<GraphQLAnswer> {
  const response = await server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: { query } });
  return response.json();
}

describe('riskDashboard through the gateway, before the stability oracle has run', () => {
  let server: TestServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer();
    apiKey = (await server.platform!.access.keys.create('api', 'risk dashboard', 100)).key;
  }, 90_000);
  afterAll(async () => {
    await server?.close();
  });

  it('is paid once for the whole view: unpaid, null with GEN_ERR_PAYMENT_REQUIRED at the sum of the parts it holds', async () => {
    const unpaid = await ask(server, DASHBOARD_QUERY);
    expect(unpaid.data?.riskDashboard, JSON.stringify(unpaid)).toBeNull();
    const error = unpaid.errors?.[0];
    expect(error?.extensions?.code).toBe('GEN_ERR_PAYMENT_REQUIRED');
    // The six signals it holds, priced by data/catalog.json: macro-stress 0.15 + commodity, currency-stress,
    // sovereign-debt and supply-chain 0.25 each + cascade 0.75 = 1.90 USDC = 1900000 base units.
    expect(error!.extensions!.accepts[0]).toMatchObject({ maxAmountRequired: '1900000', resource: expect.stringMatching(/\/graphql#riskDashboard$/) });
  });

  it('a part that fails is null with its error; the others stand', async () => {
    const answer = await ask(server, DASHBOARD_QUERY, { 'x-api-key': apiKey });
    const dashboard = answer.data!.riskDashboard;
    expect(dashboard.stability, JSON.stringify(answer)).toBeNull();
    expect(answer.errors).toEqual([expect.objectContaining({ path: ['riskDashboard', 'stability'], extensions: expect.objectContaining({ code: 'FEE_ERR_ORACLE_NOT_READY' }) })]);
    expect(dashboard.heatCheck.commodities).toHaveLength(11);
    expect(dashboard.macroStress.regime).toMatch(/^(EXPANSION|LATE_CYCLE|STRESS|CRISIS)$/);
  });

  it('finding: a RiskDashboard reached through _entities straight on the subgraph has paid for nothing: its parts are refused', async () => {
    const query = '{ _entities(representations: [{ __typename: "RiskDashboard", id: "current" }]) { ... on RiskDashboard { macroStress { regime } } } }';
    const answer = await ask(server, query, {}, '/subgraphs/intelligence/graphql');
    expect(answer.data?._entities?.[0]?.macroStress ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions?.code).toBe('GEN_ERR_PAYMENT_REQUIRED');
  });
});

describe('riskDashboard through the gateway, the oracles running', () => {
  let database: DatabaseHandle;
  let server: TestServer;
  let apiKey: string;
  beforeAll(async () => {
    database = await openTestPglite();
    server = await startTestServer({ database, environment: { ORACLE_SCHEDULER: 'true' } });
    apiKey = (await server.platform!.access.keys.create('api', 'risk dashboard', 100)).key;
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('answers every part in one request with an API key: stability, heat-check and each signal with its regime, dataQuality and as-of', async () => {
    const answer = await vi.waitFor(
      async () => {
        const once = await ask(server, DASHBOARD_QUERY, { 'x-api-key': apiKey });
        expect(once.errors, JSON.stringify(once.errors)).toBeUndefined();
        return once;
      },
      { timeout: 30_000, interval: 500 },
    );
    const dashboard = answer.data!.riskDashboard;
    expect(dashboard.id).toBe('current');
    expect(dashboard.stability).toMatchObject({ stability: { currentScore: expect.any(Number) }, dataQuality: expect.stringMatching(/^(LIVE|PARTIAL|ESTIMATED)$/), asOf: expect.any(String) });
    expect(dashboard.heatCheck.commodities).toHaveLength(11);
    expect(dashboard.macroStress).toMatchObject({
      regime: expect.stringMatching(/^(EXPANSION|LATE_CYCLE|STRESS|CRISIS)$/),
      dataQuality: 'ESTIMATED',
      stale: true,
      asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(dashboard.commodityStress.regime).toMatch(/^(CALM|MODERATE|STRESSED|CRISIS)$/);
    expect(dashboard.currencyStress.dollarRegime).toEqual(expect.any(String));
    // Sovereign debt is PARTIAL by design: the EU aggregate is not openly published (decision 0063).
    expect(dashboard.sovereignDebt).toMatchObject({ dataQuality: 'PARTIAL', missingInputs: expect.arrayContaining([expect.any(String)]) });
    expect(dashboard.supplyChain).toMatchObject({ gscpiZScore: expect.any(Number), regime: expect.any(String), asOf: expect.any(String) });
    // The cascade status and the systemic risk score (issue 24 item 7), PARTIAL: some layer inputs are not openly published.
    expect(dashboard.cascade).toMatchObject({
      nervousSystem: { systemicRiskScore: expect.any(Number), overallStatus: expect.stringMatching(/^(CRITICAL|HIGH|ELEVATED|STABLE|NO_DATA)$/), activeCascadeCount: expect.any(Number) },
      dataQuality: 'PARTIAL',
    });
    // The dashboard's figures are the standalone signal's, from the same cache.
    const alone = await ask(server, '{ macroStress { stressIndex regime } }', { 'x-api-key': apiKey });
    expect(alone.data!.macroStress).toEqual({ stressIndex: dashboard.macroStress.stressIndex, regime: dashboard.macroStress.regime });
  });
});

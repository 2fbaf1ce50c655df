import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../platform/db.js';
import { RULE_BASED_MODEL } from '../../platform/synthesis.js';
import { graphql, openTestPglite, startTestServer, TEST_NOW, type TestServer } from '../../test/helpers.js';

/** The oracles through the all-in-one server on a database of the test's own, the first run made in start(). */
describe('the stability and ESG oracles over REST and GraphQL', () => {
  let database: DatabaseHandle;
  let server: TestServer;
  beforeAll(async () => {
    database = await openTestPglite();
    server = await startTestServer({ database, subgraphs: ['fees'], environment: { ORACLE_SCHEDULER: 'true' } });
  });
  afterAll(async () => {
    await server.close();
    await database.close();
  });
  const get = async (url: string) => {
    const response = await server.app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json<Record<string, any>>() };
  };

  it('GET /stability/reliability: every documented field from the first run, on the shipped snapshot', async () => {
    const { status, body } = await get('/stability/reliability');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['asOf', 'confidence', 'dataQuality', 'intelligence', 'isHealthy', 'oracle', 'peg', 'schema', 'stability', 'timestamp', 'usdHealth'].sort());
    expect(body.oracle).toEqual({ status: 'SUCCESS', lastUpdate: TEST_NOW, uptimeSeconds: 0, uptimePct: 100, updateFrequencySeconds: 300 });
    expect(body.stability.threshold).toEqual({ stable: 90, caution: 75, unstable: 0 });
    expect(body.stability.currentScore).toBeGreaterThanOrEqual(0);
    expect(body.stability.averageScore24h).toBe(body.stability.currentScore);
    expect(body.peg).toMatchObject({ deviationBps: null, deviationThresholdBps: 50, verificationCycleSeconds: 60 });
    expect(Object.keys(body.peg.basketWeights).sort()).toEqual(['DAI', 'USDC', 'USDT']);
    expect(body.confidence.scale).toBe('0-100');
    // Snapshot mode: the peg cannot be measured without live prices, so the data is PARTIAL.
    expect(body.dataQuality).toBe('PARTIAL');
    expect(Object.keys(body.usdHealth)).toEqual(
      expect.arrayContaining([
        'score',
        'structuralOutlook',
        'confidenceInOfficialData',
        'usdStrengthConsensus',
        'tradeWeightedUsd',
        'yieldCurve',
        'breakevenInflation',
        'fedBalanceSheet',
        'gold',
        'stablecoinHealth',
        'indepInflationVsOfficial',
        'divergenceAlerts',
        'alerts',
      ]),
    );
    expect(body.usdHealth.independentSignals).toBe(12);
    // The shipped 10y-2y spread of 2026-10-07 is 0.51: NORMAL (flat below 0.5).
    expect(body.usdHealth.yieldCurve).toMatchObject({ spread: 0.51, state: 'NORMAL', recessionSignal: false });
    expect(body.intelligence).toMatchObject({ model: RULE_BASED_MODEL, outlook: expect.stringMatching(/^(IMPROVING|STABLE|DETERIORATING|UNCERTAIN)$/) });
    expect(body.intelligence.alerts.length).toBeLessThanOrEqual(3);
  });

  it('GET /stability/health, /api/status and /api/history from the record', async () => {
    const health = await get('/stability/health');
    expect(health.body).toMatchObject({ status: 'healthy', oracle: 'SUCCESS', uptimeSeconds: 0, uptimeHuman: '0h 0m 0s', network: 'base', chainId: 8453, feeds: [{ mode: 'snapshot', status: 'ok' }] });
    const status = await get('/stability/api/status');
    expect(status.body).toMatchObject({ timestamp: Date.parse(TEST_NOW) / 1000, status: 'SUCCESS', lastUpdate: TEST_NOW });
    expect(status.body.data.tiers).toHaveLength(7);
    const history = await server.app.inject({ method: 'GET', url: '/stability/api/history' });
    expect(history.json()).toEqual([{ timestamp: Date.parse(TEST_NOW) / 1000, stabilityScore: status.body.data.stabilityScore, overall: status.body.data.overall }]);
  });

  it('GET /esg/esg-score, /reliability and /health; quotes without esgScore use scores.average', async () => {
    const { body } = await get('/esg/esg-score');
    const { environmental, social, governance, average } = body.scores;
    expect(average).toBeCloseTo((environmental + social + governance) / 3, 1);
    expect(body.fee).toMatchObject({ bps: (100 - average) / 2, formula: '(100 - esgScore) / 200' });
    expect(body.dataQuality).toBe('PARTIAL');
    expect((await get('/esg/health')).body).toMatchObject({ status: 'healthy', esgOracle: 'SUCCESS' });
    expect((await get('/esg/reliability')).body).toMatchObject({ oracle: { status: 'SUCCESS' }, scores: { current: average, history: [{ average }] } });
    const quote = await get('/stability/quote?amountUsd=1000');
    expect(quote.body.input).toMatchObject({ esgScore: average, esgScoreSource: 'oracle' });
    expect(quote.body.esgImpact.railScores).toMatchObject({ average });
    expect((await get('/esg/quote?amountUsd=1000')).body.input).toMatchObject({ esgScore: average, esgScoreSource: 'oracle' });
  });

  it('the graph: reliability with its decision, USD health, history and the ESG scores', async () => {
    const result = await graphql<{ stabilityReliability: any; usdHealth: any; stabilityHistory: any[]; railEsgScore: any }>(
      server,
      '{ stabilityReliability { isHealthy stability { currentScore } peg { deviationBps basketWeights { asset weight } } decision { action reasons } } usdHealth { score yieldCurve { state } gold { debasementSignal } } stabilityHistory { stabilityScore overall } railEsgScore { scores { average } fee { tier } } }',
      {},
      '/subgraphs/fees/graphql',
    );
    expect(result.errors).toBeUndefined();
    const data = result.data!;
    const score = data.stabilityReliability.stability.currentScore;
    const expected = score >= 90 ? (data.stabilityReliability.isHealthy ? 'proceed' : 'caution') : score >= 75 ? 'caution' : 'defer';
    expect(data.stabilityReliability.decision.action).toBe(expected);
    expect(data.stabilityReliability.peg.basketWeights.map((entry: { asset: string }) => entry.asset).sort()).toEqual(['DAI', 'USDC', 'USDT']);
    expect(data.usdHealth.yieldCurve.state).toBe('NORMAL');
    expect(data.stabilityHistory).toHaveLength(1);
    expect(data.railEsgScore.scores.average).toBeGreaterThan(0);
  });
});

describe('the recorded output keeps its key order', () => {
  it('usdHealth is served in the order the spec lists its fields', async () => {
    const database = await openTestPglite();
    const server = await startTestServer({ database, subgraphs: ['fees'], gateway: false, environment: { ORACLE_SCHEDULER: 'true' } });
    try {
      const body = (await server.app.inject({ method: 'GET', url: '/stability/reliability' })).json<{ usdHealth: Record<string, unknown> }>();
      expect(Object.keys(body.usdHealth).slice(0, 4)).toEqual(['score', 'structuralOutlook', 'scoreChange90d', 'confidenceInOfficialData']);
    } finally {
      await server.close();
      await database.close();
    }
  });
});

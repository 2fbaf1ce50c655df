import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['forecast'] });
});
afterAll(async () => {
  await server.close();
});

const SYMBOLS = ['WHEAT', 'CORN', 'SOYB', 'COFFEE', 'COCOA', 'COTTON', 'SUGAR', 'WTI', 'NG', 'COPPER', 'LUMBER'];

async function get(url: string) {
  const response = await server.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

async function post(url: string, payload: unknown) {
  const response = await server.app.inject({ method: 'POST', url, payload: payload as object });
  return { status: response.statusCode, body: response.json() };
}

describe('GET /forecast/heat-check', () => {
  it('lists all 11 commodities with status and a one-line signal', async () => {
    const { status, body } = await get('/forecast/heat-check');
    expect(status).toBe(200);
    expect(body.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(body.dataQuality).toBe('ESTIMATED');
    expect(body.commodities.map((entry: { symbol: string }) => entry.symbol)).toEqual(SYMBOLS);
    for (const entry of body.commodities) {
      expect(Object.keys(entry).sort()).toEqual(['signal', 'status', 'symbol']);
      expect(['GREEN', 'YELLOW', 'RED']).toContain(entry.status);
      expect(entry.signal).toMatch(/\/100/);
    }
  });
});

describe('GET /forecast/commodity/{symbol}', () => {
  it.each(SYMBOLS)('%s has every documented outlook field', async (symbol) => {
    const { status, body } = await get(`/forecast/commodity/${symbol}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      symbol,
      currentPrice: expect.any(Number),
      climateRiskScore: expect.any(Number),
      status: expect.stringMatching(/^(GREEN|YELLOW|RED)$/),
      signals: {
        temperatureAnomaly: expect.any(Number),
        droughtIndex: expect.any(Number),
        wildfireActivity: expect.any(Number),
        extremeWeatherEvents: expect.any(Number),
      },
      outlook: expect.stringMatching(/^(IMPROVING|STABLE|DETERIORATING|UNCERTAIN)$/),
      reasoning: expect.stringContaining(symbol),
      reasoningModel: expect.stringMatching(/rule-based/),
      confidence: expect.any(Number),
      productionRegions: expect.any(Array),
    });
    expect(body.currentPrice).toBeGreaterThan(0);
    expect(body.climateRiskScore).toBeGreaterThanOrEqual(0);
    expect(body.climateRiskScore).toBeLessThanOrEqual(100);
    expect(body.confidence).toBeGreaterThanOrEqual(0);
    expect(body.confidence).toBeLessThanOrEqual(1);
    expect(body.productionRegions.length).toBeGreaterThan(0);
  });

  it('accepts a lower-case symbol', async () => {
    expect((await get('/forecast/commodity/wti')).body.symbol).toBe('WTI');
  });

  it('answers 404 with a message for a well-formed but unsupported symbol', async () => {
    const { status, body } = await get('/forecast/commodity/GOLD');
    expect(status).toBe(404);
    expect(body).toEqual({ message: expect.stringMatching(/GOLD is not supported/), code: 'FCT_ERR_UNSUPPORTED_SYMBOL' });
  });

  it.each(['W1', 'WHEAT%20', 'ABCDEFGHIJKLMN'])('answers 400 with a message for the malformed symbol %s', async (symbol) => {
    const { status, body } = await get(`/forecast/commodity/${symbol}`);
    expect(status).toBe(400);
    expect(body).toEqual({ message: expect.stringMatching(/symbol/), code: 'FCT_ERR_INVALID_SYMBOL' });
  });
});

describe('GET /forecast/regions and /forecast/calendar', () => {
  it('ranks regions by climate risk, highest first, with every documented field', async () => {
    const { status, body } = await get('/forecast/regions');
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(5);
    const scores = body.map((entry: { climateRiskScore: number }) => entry.climateRiskScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const entry of body) {
      expect(entry).toMatchObject({
        region: expect.any(String),
        commodities: expect.any(Array),
        climateRiskScore: expect.any(Number),
        activeAlerts: expect.any(Number),
        primaryThreat: expect.stringMatching(/^(drought|wildfire|flood|heat stress|storm)$/),
        outlook: expect.stringMatching(/^(IMPROVING|STABLE|DETERIORATING)$/),
      });
    }
  });

  it('has 12 months starting at the current month', async () => {
    const { status, body } = await get('/forecast/calendar');
    expect(status).toBe(200);
    expect(body).toHaveLength(12);
    // TEST_NOW is 2026-11-22: November 2026 to October 2027
    expect(body[0].month).toBe('2026-11');
    expect(body[11].month).toBe('2027-10');
    for (const entry of body) {
      expect(entry.events.length).toBeGreaterThan(0);
      for (const symbol of entry.commoditiesAtRisk) expect(SYMBOLS).toContain(symbol);
      expect(['LOW', 'MODERATE', 'HIGH']).toContain(entry.historicalSeverity);
    }
  });
});

const positions = [
  { symbol: 'WHEAT', notionalUsd: 1_000_000 },
  { symbol: 'COFFEE', notionalUsd: 500_000 },
  { symbol: 'WTI', notionalUsd: 2_000_000 },
];

describe('POST /forecast/portfolio', () => {
  it('returns the weighted score, tier exposure, drawdown, per-position results and recommendations', async () => {
    const { status, body } = await post('/forecast/portfolio', { positions, label: 'treasury hedge book' });
    expect(status).toBe(200);
    expect(body.label).toBe('treasury hedge book');
    expect(body.positions).toHaveLength(3);
    // portfolioRiskScore is the notional-weighted mean of the positions' scores
    const weighted = body.positions.reduce((sum: number, p: { notionalUsd: number; climateRiskScore: number }) => sum + p.notionalUsd * p.climateRiskScore, 0) / 3_500_000;
    expect(body.portfolioRiskScore).toBeCloseTo(weighted, 0);
    const tiers = body.exposureByTier;
    expect(tiers.GREEN + tiers.YELLOW + tiers.RED).toBe(3_500_000);
    expect(body.worstCaseDrawdown.usd).toBeGreaterThan(0);
    expect(body.worstCaseDrawdown.usd).toBeLessThan(3_500_000);
    expect(body.recommendations.length).toBeGreaterThan(0);
    for (const position of body.positions) expect(position).toMatchObject({ climateRiskScore: expect.any(Number), status: expect.any(String), outlook: expect.any(String) });
  });

  it.each([
    { name: 'no positions', payload: { positions: [] }, message: /at least one position/ },
    { name: 'missing positions', payload: { label: 'x' }, message: /positions/ },
    { name: 'an unknown symbol', payload: { positions: [{ symbol: 'GOLD', notionalUsd: 1 }] }, message: /positions\.0\.symbol: must be one of/ },
    { name: 'a negative notional', payload: { positions: [{ symbol: 'WTI', notionalUsd: -5 }] }, message: /notionalUsd: must be greater than 0/ },
    { name: 'a notional as a string', payload: { positions: [{ symbol: 'WTI', notionalUsd: '5' }] }, message: /notionalUsd: must be a number/ },
  ])('answers 400 with a message for $name', async ({ payload, message }) => {
    const { status, body } = await post('/forecast/portfolio', payload);
    expect(status).toBe(400);
    expect(body).toEqual({ message: expect.stringMatching(message), code: 'FCT_ERR_INVALID_BODY' });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/forecast/portfolio', headers: { 'content-type': 'application/json' }, payload: '{"positions": [' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.any(String), code: 'FCT_ERR_INVALID_BODY' });
  });
});

describe('POST /forecast/scenario', () => {
  const SCENARIOS = ['la_nina', 'gulf_hurricane', 'black_sea_disruption', 'amazon_drought', 'sahel_heatwave', 'us_midwest_drought', 'arctic_blast', 'pacific_typhoon', 'global_heatwave'];

  it.each(SCENARIOS)('%s: description, probability, affected commodities, impact ranges, horizon and synthesis', async (scenario) => {
    const { status, body } = await post('/forecast/scenario', { scenario, positions });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      scenario,
      description: expect.any(String),
      probability: expect.any(Number),
      horizonMonths: expect.any(Number),
      reasoning: expect.any(String),
      priceImpactPct: { low: expect.any(Number), high: expect.any(Number) },
      supplyReductionPct: { low: expect.any(Number), high: expect.any(Number) },
    });
    expect(body.affectedCommodities.length).toBeGreaterThan(0);
    expect(body.priceImpactPct.low).toBeLessThanOrEqual(body.priceImpactPct.high);
    expect(body.probability).toBeGreaterThan(0);
    expect(body.probability).toBeLessThanOrEqual(1);
  });

  it('answers 400 with a message for an unknown scenario', async () => {
    const { status, body } = await post('/forecast/scenario', { scenario: 'asteroid' });
    expect(status).toBe(400);
    expect(body).toEqual({ message: expect.stringMatching(/Unknown scenario "asteroid"/), code: 'FCT_ERR_UNKNOWN_SCENARIO' });
  });
});

describe('POST /forecast/tcfd-report', () => {
  it('has every documented section', async () => {
    const { status, body } = await post('/forecast/tcfd-report', { positions, entityName: 'Acme Treasury', reportingPeriod: 'FY2026' });
    expect(status).toBe(200);
    expect(body.entityName).toBe('Acme Treasury');
    expect(body.reportingPeriod).toBe('FY2026');
    expect(body.governance).toBeTypeOf('object');
    expect(body.strategy.physicalRisks).toHaveLength(3);
    expect(body.strategy.scenarioAnalysis).toMatchObject({ moderate: expect.any(Object), severe: expect.any(Object) });
    expect(Object.keys(body.riskManagement.exposureByTier).sort()).toEqual(['GREEN', 'RED', 'YELLOW']);
    expect(body.riskManagement.worstCase).toBeTypeOf('object');
    expect(body.metrics.portfolioRiskScore).toBeGreaterThanOrEqual(0);
    expect(body.metrics.notionalAtRisk).toBe(body.riskManagement.exposureByTier.YELLOW + body.riskManagement.exposureByTier.RED);
    expect(body.metrics.topRisks.length).toBeLessThanOrEqual(3);
    expect(body.disclosure).toMatchObject({ dataSources: expect.any(Array), methodology: expect.any(String) });
    expect(body.disclosure.confidenceLevels).toBeDefined();
  });

  it('answers 400 without positions', async () => {
    const { status, body } = await post('/forecast/tcfd-report', { entityName: 'Acme' });
    expect(status).toBe(400);
    expect(body.code).toBe('FCT_ERR_INVALID_BODY');
  });
});

describe('determinism', () => {
  it('the same request at the same clock gives the same body', async () => {
    const first = await post('/forecast/portfolio', { positions });
    const second = await post('/forecast/portfolio', { positions });
    expect(second.body).toEqual(first.body);
  });
});

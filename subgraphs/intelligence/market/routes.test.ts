import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers.js';
import { getSignal, querySignal, startSignalServer } from '../shared/testing.js';

/**
 * The market family through its two front doors: each body and its own X-Rail-* headers over REST,
 * and the GraphQL shape (lists where REST keys objects by name, change30d for 30dChange). The
 * payment, cache and envelope of every signal are shared/signal-routes.test.ts's.
 */
let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('GET /v1/intelligence/macro-stress', () => {
  it('answers the credit regime with X-Rail-Stress-Index and X-Rail-Regime', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/macro-stress', key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ stressIndex: 25.4, regime: 'EXPANSION', leadSignals: { lookAheadWeeks: 12, fxImplication: expect.any(String) } });
    expect(Object.keys(body.components)).toEqual(['igSpread', 'hySpread', 'tedSpread', 'vix', 'lendingStandards']);
    expect(headers['x-rail-stress-index']).toBe('25.4');
    expect(headers['x-rail-regime']).toBe('EXPANSION');
  });

  it('answers the GraphQL field', async () => {
    const { data, errors } = await querySignal(server, '{ macroStress { stressIndex regime components { vix { value score asOf } } leadSignals { lookAheadWeeks } } }', key);
    expect(errors).toBeUndefined();
    expect(data?.macroStress).toMatchObject({ stressIndex: 25.4, regime: 'EXPANSION', components: { vix: { value: 15.01, score: 33.6 } } });
  });
});

describe('GET /v1/intelligence/commodity', () => {
  it('answers the commodity board with X-Rail-Commodity-Stress and X-Rail-Commodity-Regime', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/commodity', key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ stressIndex: 61.1, regime: 'MODERATE', crossCommoditySignal: expect.any(String), inflationLeadSignal: expect.any(String), narrative: expect.any(String) });
    expect(Object.keys(body.commodities)).toEqual(['oil', 'gas', 'gold', 'wheat', 'corn', 'copper']);
    expect(body.commodities.gold).toMatchObject({ value: 4073, monthlyChange: -3.67, flightToSafety: 'ABSENT' });
    expect(body.commodities.copper.demandRegime).toBe('EXPANDING');
    expect(body.commodities.wheat.droughtExposure).toMatch(/^UNKNOWN/);
    expect(body.dataQuality).toBe('PARTIAL');
    expect(headers['x-rail-commodity-stress']).toBe('61.1');
    expect(headers['x-rail-commodity-regime']).toBe('MODERATE');
  });

  it('answers the GraphQL field', async () => {
    const query = '{ commodityStress { stressIndex regime commodities { oil { value wti brentWtiSpread } gold { flightToSafety realYield10y } corn { droughtExposure } } missingInputs } }';
    const { data, errors } = await querySignal(server, query, key);
    expect(errors).toBeUndefined();
    expect(data?.commodityStress).toMatchObject({
      stressIndex: 61.1,
      regime: 'MODERATE',
      commodities: { oil: { value: 95.29, wti: 86.48, brentWtiSpread: 8.81 }, gold: { flightToSafety: 'ABSENT', realYield10y: 2.35 } },
    });
    expect(data?.commodityStress.missingInputs).toHaveLength(1);
  });
});

describe('GET /v1/intelligence/sovereign-debt', () => {
  it('answers the sovereigns keyed by name with X-Rail-Sovereign-Regime', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/sovereign-debt', key);
    expect(status).toBe(200);
    expect(body.systemicSignals).toMatchObject({ globalDebtRegime: 'STRAINED', contagionRisk: expect.stringMatching(/^ELEVATED: /), settlementImpact: expect.any(String) });
    expect(Object.keys(body.sovereigns)).toEqual(['United States', 'European Union', 'United Kingdom', 'Japan', 'Germany', 'Italy']);
    expect(body.sovereigns['United States']).toMatchObject({ debtToGdp: 122.6, sustainabilityScore: 42.4 });
    expect(body.sovereigns['European Union']).toMatchObject({ debtToGdp: null, sustainabilityScore: null });
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toContain('European Union: Eurostat gov_10dd_edpt1 EU27_2020/EA20 gross debt and net lending (% of GDP)');
    expect(headers['x-rail-sovereign-regime']).toBe('STRAINED');
  });

  it('answers the GraphQL field with the sovereigns as a list naming each', async () => {
    const { data, errors } = await querySignal(server, '{ sovereignDebt { systemicSignals { globalDebtRegime } sovereigns { sovereign debtToGdp sustainabilityScore signal memberOf } } }', key);
    expect(errors).toBeUndefined();
    const sovereigns = data?.sovereignDebt.sovereigns as Array<Record<string, unknown>>;
    expect(sovereigns.map((entry) => entry.sovereign)).toEqual(['United States', 'European Union', 'United Kingdom', 'Japan', 'Germany', 'Italy']);
    expect(sovereigns[1]).toMatchObject({ sovereign: 'European Union', debtToGdp: null, sustainabilityScore: null });
    expect(sovereigns[5]).toMatchObject({ sovereign: 'Italy', debtToGdp: 137.1, memberOf: 'European Union' });
  });
});

describe('GET /v1/intelligence/currency-stress', () => {
  it('answers the currencies keyed by code with X-Rail-Dollar-Regime and X-Rail-Currency-Stress', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/currency-stress', key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ dollarRegime: 'WEAKENING', stressIndex: 40 });
    expect(Object.keys(body.g10)).toHaveLength(10);
    expect(Object.keys(body.emergingMarkets)).toHaveLength(10);
    expect(body.g10.EUR).toMatchObject({ '30dChange': '+1.26%', capitalFlowDirection: 'BALANCED' });
    expect(body.g10.JPY.interventionRisk).toMatch(/^ELEVATED: /);
    expect(body.emergingMarkets.CNY.pbocPressure).toMatch(/^LOW: /);
    expect(body.emergingMarkets.BRL.carryRisk).toMatch(/^ELEVATED: /);
    expect(body.settlementCorridorImpact.USD_EUR).toMatch(/^NORMAL: /);
    expect(headers['x-rail-dollar-regime']).toBe('WEAKENING');
    expect(headers['x-rail-currency-stress']).toBe('40');
  });

  it('answers the GraphQL field: lists of currencies and corridors, change30d for 30dChange', async () => {
    const query =
      '{ currencyStress { dollarRegime stressIndex g10 { currency change30d capitalFlowDirection interventionRisk } emergingMarkets { currency change30d pbocPressure carryRisk } settlementCorridorImpact { corridor impact } } }';
    const { data, errors } = await querySignal(server, query, key);
    expect(errors).toBeUndefined();
    const { g10, emergingMarkets, settlementCorridorImpact } = data?.currencyStress as Record<string, Array<Record<string, unknown>>>;
    expect(g10![0]).toEqual({ currency: 'USD', change30d: '-1.17%', capitalFlowDirection: 'BALANCED', interventionRisk: null });
    expect(g10!.find((entry) => entry.currency === 'JPY')).toMatchObject({ change30d: '+1.83%', capitalFlowDirection: null, interventionRisk: expect.stringMatching(/^ELEVATED/) });
    expect(emergingMarkets!.map((entry) => entry.currency)).toEqual(['CNY', 'INR', 'BRL', 'MXN', 'KRW', 'ZAR', 'THB', 'MYR', 'SGD', 'TWD']);
    expect(settlementCorridorImpact![0]).toMatchObject({ corridor: 'USD_EUR', impact: expect.stringMatching(/^NORMAL: /) });
  });
});

describe('GET /v1/intelligence/fx-settlement', () => {
  it('answers every corridor', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/fx-settlement', key);
    expect(status).toBe(200);
    expect(body.horizonHours).toBe(48);
    expect(Object.keys(body.corridors)).toContain('USD_MXN');
    expect(body.corridors.USD_EUR).toMatchObject({ settlementBufferBps: 105, recommendation: 'SETTLE_NOW', rateAgeDays: 100, carry: { differentialBps: 146.5 } });
    expect(body.summary).toMatchObject({ stagger: ['USD_JPY', 'USD_CHF'], defer: ['USD_KRW'], widestBuffer: { corridor: 'USD_ZAR', settlementBufferBps: 259 } });
  });

  it('narrows to ?corridor=, in any case, cached apart from the full answer', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/fx-settlement?corridor=usd_jpy', key);
    expect(status).toBe(200);
    expect(Object.keys(body.corridors)).toEqual(['USD_JPY']);
    expect(body.cacheHit).toBe(false);
    expect(body.inputs.map((input: { id: string }) => input.id)).toEqual(['fx_daily_JPY_per_USD']);
  });

  it('answers 400 INT_ERR_INVALID_PARAMETER for a corridor it does not cover', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/fx-settlement?corridor=USD_XYZ', key);
    expect(status).toBe(400);
    expect(body.code).toBe('INT_ERR_INVALID_PARAMETER');
    expect(body.error).toMatch(/corridor/);
  });

  it('answers the GraphQL field, with the corridor argument validated alike', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ fxSettlement(corridor: "USD_GBP") { horizonHours corridors { corridor quote regime recommendation settlementBufferBps carry { quoteRateName differentialBps } } summary { settleNow } } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.fxSettlement).toMatchObject({
      horizonHours: 48,
      corridors: [{ corridor: 'USD_GBP', quote: 'GBP', regime: 'CALM', recommendation: 'SETTLE_NOW', carry: { quoteRateName: 'SONIA', differentialBps: -8.1 } }],
      summary: { settleNow: ['USD_GBP'] },
    });
    const unknown = await querySignal(server, '{ fxSettlement(corridor: "USD_XYZ") { horizonHours } }', key);
    expect(unknown.data?.fxSettlement).toBeNull();
    expect(unknown.errors?.[0]?.extensions?.code).toBe('INT_ERR_INVALID_PARAMETER');
  });
});

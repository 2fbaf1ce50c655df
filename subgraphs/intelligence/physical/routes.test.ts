import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers.js';
import { getSignal, querySignal, startSignalServer } from '../shared/testing.js';
import { energyTransitionSchema } from './energy-transition.js';
import { shippingStressSchema } from './shipping-stress.js';
import { supplyChainSchema } from './supply-chain.js';
import { waterRiskSchema } from './water-risk.js';

// The physical family through REST and GraphQL: each body by its documented fields and types, the
// endpoint's own X-Rail-* headers, and the GraphQL lists that stand for REST's objects keyed by name.
// Payment, cache and envelope are shared/signal-routes.test.ts's.
let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const ENVELOPE = {
  generatedAt: expect.any(String),
  cacheHit: expect.any(Boolean),
  dataQuality: expect.stringMatching(/^(LIVE|PARTIAL|ESTIMATED)$/),
  stale: true,
  inputs: expect.any(Array),
  missingInputs: expect.any(Array),
};

describe('GET /v1/intelligence/supply-chain', () => {
  it('answers the documented body with X-Rail-GSCPI and X-Rail-Regime', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/supply-chain', key);
    expect(status).toBe(200);
    expect(supplyChainSchema.parse(body)).toBeTruthy();
    expect(body).toMatchObject({ gscpiZScore: 1.25, regime: 'ELEVATED', goodsInflationLeadSignal: expect.any(String), ...ENVELOPE, dataQuality: 'PARTIAL' });
    for (const gauge of ['rhineKaub', 'mississippi'])
      expect(body.waterLevels[gauge]).toEqual(expect.objectContaining({ levelCm: expect.any(Number), status: expect.any(String), bottleneckRisk: expect.any(String) }));
    expect(body.waterLevels.panamaCanal).toMatchObject({ levelCm: null, status: 'DATA_UNAVAILABLE' });
    expect(body.missingInputs).toEqual([expect.stringMatching(/^waterLevels\.panamaCanal: /)]);
    expect(headers['x-rail-gscpi']).toBe('1.25');
    expect(headers['x-rail-regime']).toBe('ELEVATED');
  });

  it('answers GraphQL with the gauges as a list named by gauge', async () => {
    const answer = await querySignal(
      server,
      '{ supplyChain { gscpiZScore regime goodsInflationLeadSignal waterLevels { gauge levelCm status bottleneckRisk asOf stale seasonalPercentile } dataQuality } }',
      key,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.supplyChain).toMatchObject({ gscpiZScore: 1.25, regime: 'ELEVATED', dataQuality: 'PARTIAL' });
    expect(answer.data!.supplyChain.waterLevels).toEqual([
      { gauge: 'rhineKaub', levelCm: 25.9, status: 'EXTREME_LOW', bottleneckRisk: 'SEVERE', asOf: '2026-09-09', stale: true, seasonalPercentile: null },
      { gauge: 'mississippi', levelCm: -122.5, status: 'LOW', bottleneckRisk: 'MODERATE', asOf: '2026-01-21', stale: true, seasonalPercentile: null },
      { gauge: 'panamaCanal', levelCm: null, status: 'DATA_UNAVAILABLE', bottleneckRisk: 'UNKNOWN', asOf: null, stale: true, seasonalPercentile: null },
      { gauge: 'greatLakes', levelCm: 17602, status: 'NORMAL', bottleneckRisk: 'LOW', asOf: '2026-01-01', stale: true, seasonalPercentile: 26.6 },
    ]);
  });
});

describe('GET /v1/intelligence/energy-transition', () => {
  it('answers the documented body, stale, with grid carbon intensity in gCO2/kWh', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/energy-transition', key);
    expect(status).toBe(200);
    expect(energyTransitionSchema.parse(body)).toBeTruthy();
    expect(body).toMatchObject({ renewableSharePct: 20.9, renewableTrend: 'ACCELERATING', fossilDemandCurve: 'DECLINING', signal: 'TRANSITION_ACCELERATING', ...ENVELOPE, dataQuality: 'ESTIMATED' });
    expect(body.gridCarbonIntensity).toMatchObject({ us: 383.6, eu: 213, global: 472.9, unit: 'gCO2/kWh' });
    expect(body.inputs.every((input: { stale: boolean }) => input.stale)).toBe(true);
    expect(Object.keys(headers).filter((name) => name.startsWith('x-rail-'))).toEqual(['x-rail-cache-hit', 'x-rail-generated']);
  });

  it('answers GraphQL with the same shape', async () => {
    const answer = await querySignal(
      server,
      '{ energyTransition { renewableSharePct renewableTrend fossilDemandCurve signal fossilDemand { peakYear } gridCarbonIntensity { us eu global unit year } stale } }',
      key,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.energyTransition).toEqual({
      renewableSharePct: 20.9,
      renewableTrend: 'ACCELERATING',
      fossilDemandCurve: 'DECLINING',
      signal: 'TRANSITION_ACCELERATING',
      fossilDemand: { peakYear: 2007 },
      gridCarbonIntensity: { us: 383.6, eu: 213, global: 472.9, unit: 'gCO2/kWh', year: 2024 },
      stale: true,
    });
  });
});

describe('GET /v1/intelligence/water-risk', () => {
  it('answers the documented body with X-Rail-Water-Stress and X-Rail-TNFD-Rating', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/water-risk', key);
    expect(status).toBe(200);
    expect(waterRiskSchema.parse(body)).toBeTruthy();
    expect(body).toMatchObject({
      globalStressIndex: 43.6,
      tnfdAlignment: { physicalRiskRating: 'MEDIUM', disclosureRecommendation: expect.any(String) },
      narrative: expect.any(String),
      ...ENVELOPE,
      dataQuality: 'PARTIAL',
    });
    expect(body.regions['South Asia']).toMatchObject({
      droughtSeverity: expect.any(String),
      stressScore: 60.8,
      sectors: { agriculture: 'HIGH', semiconductors: 'HIGH', beverages: 'HIGH', energy: 'HIGH' },
    });
    expect(headers['x-rail-water-stress']).toBe('43.6');
    expect(headers['x-rail-tnfd-rating']).toBe('MEDIUM');
  });

  it('answers GraphQL with regions and sectors as lists', async () => {
    const answer = await querySignal(
      server,
      '{ waterRisk { globalStressIndex regions { region stressScore droughtSeverity sectors { sector rating } hazards { bws drr rfr } } tnfdAlignment { physicalRiskRating } } }',
      key,
    );
    expect(answer.errors).toBeUndefined();
    const risk = answer.data!.waterRisk;
    expect(risk.regions.map((region: { region: string }) => region.region)).toEqual(['US Southwest', 'US Midwest', 'Western Europe', 'South Asia', 'East Asia', 'Sub-Saharan Africa']);
    expect(risk.regions[4]).toEqual({
      region: 'East Asia',
      stressScore: 52,
      droughtSeverity: 'MEDIUM',
      sectors: [
        { sector: 'agriculture', rating: 'MEDIUM' },
        { sector: 'semiconductors', rating: 'MEDIUM' },
        { sector: 'beverages', rating: 'MEDIUM' },
        { sector: 'energy', rating: 'MEDIUM' },
      ],
      hazards: { bws: 2, drr: 2.2, rfr: 1.6 },
    });
  });
});

describe('GET /v1/intelligence/shipping-stress', () => {
  it('answers the designed body with X-Rail-Shipping-Stress and X-Rail-Shipping-Regime', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/shipping-stress', key);
    expect(status).toBe(200);
    expect(shippingStressSchema.parse(body)).toBeTruthy();
    expect(body).toMatchObject({ compositeIndex: 64.3, regime: 'STRESSED', settlementRelevance: { invoiceDelayRisk: 'HIGH', tradeFinanceStress: 'ELEVATED' }, ...ENVELOPE, dataQuality: 'PARTIAL' });
    expect(Object.keys(body.modes)).toEqual(['ocean', 'air', 'truck', 'rail', 'inlandWaterway']);
    expect(Object.keys(body.tradeRoutes)).toHaveLength(8);
    expect(headers['x-rail-shipping-stress']).toBe('64.3');
    expect(headers['x-rail-shipping-regime']).toBe('STRESSED');
  });

  it('answers GraphQL with modes and routes as lists', async () => {
    const answer = await querySignal(
      server,
      '{ shippingStress { compositeIndex regime modes { mode score status } tradeRoutes { route status corridors } settlementRelevance { affectedCorridors } } }',
      key,
    );
    expect(answer.errors).toBeUndefined();
    const stress = answer.data!.shippingStress;
    expect(stress.modes).toEqual([
      { mode: 'ocean', score: 74.4, status: 'STRESSED' },
      { mode: 'air', score: 91.4, status: 'SEVERE' },
      { mode: 'truck', score: 91.4, status: 'SEVERE' },
      { mode: 'rail', score: 3.5, status: 'CALM' },
      { mode: 'inlandWaterway', score: 51.7, status: 'NORMAL' },
    ]);
    expect(stress.tradeRoutes).toContainEqual({ route: 'greatLakesStLawrence', status: 'NORMAL', corridors: ['USD_CAD'] });
    expect(stress.settlementRelevance.affectedCorridors).toContain('USD_CNY');
  });
});

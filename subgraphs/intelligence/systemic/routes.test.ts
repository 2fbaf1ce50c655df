import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers.js';
import { signalResponseSchema } from '../shared/envelope.js';
import { getSignal, querySignal, startSignalServer } from '../shared/testing.js';
import { cascadeEndpoint, instabilityEndpoint, myceliumEndpoint, systemicEndpoints } from './endpoints.js';

/**
 * The systemic family through its two front doors over the shipped snapshot: each documented field
 * present and typed (the response schema parses the body), the X-Rail-* headers, 402 without
 * payment, and the GraphQL fields. The rules at their bounds are the domain tests'.
 */
let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('the family', () => {
  it('lists cascade, instability and mycelium, each a GET (mycelium: decision 0070)', () => {
    expect(systemicEndpoints.map((endpoint) => endpoint.id)).toEqual(['cascade', 'instability', 'mycelium']);
  });

  it.each(['cascade', 'instability', 'mycelium'])('GET /v1/intelligence/%s without payment is 402 with paymentRequirements', async (id) => {
    const { status, body } = await getSignal(server, `/v1/intelligence/${id}`);
    expect(status).toBe(402);
    expect(body.paymentRequirements ?? body.accepts).toBeDefined();
  });
});

describe('GET /v1/intelligence/cascade', () => {
  it('answers the nervous system, the listed cascades and the three headers', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/cascade', key);
    expect(status).toBe(200);
    signalResponseSchema(cascadeEndpoint.response).parse(body);
    expect(body.nervousSystem.layers.map((layer: { layer: number }) => layer.layer)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(body.evaluated).toHaveLength(8);
    expect(body.nervousSystem.activeCascadeCount).toBe(body.activeCascades.filter((cascade: { status: string }) => cascade.status === 'ACTIVE').length);
    expect(body.activeCascades[0]).toMatchObject({ type: 'FOOD_SUPPLY_CRISIS', status: 'ACTIVE', entryLayer: 2, historicalAnalog: expect.stringMatching(/^2007-2008 world food price crisis/) });
    for (const cascade of body.activeCascades) {
      expect(cascade.propagation[0].layer).toBe(cascade.entryLayer);
      for (const step of cascade.propagation) expect(['ACTIVE', 'FORMING', 'EXPECTED']).toContain(step.status);
    }
    expect(body.systemicNarrative).toContain(`Systemic risk ${body.nervousSystem.systemicRiskScore}`);
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toContain('L3: Baltic Dry Index (Baltic Exchange): proprietary');
    expect(headers['x-rail-systemic-risk']).toBe(String(body.nervousSystem.systemicRiskScore));
    expect(headers['x-rail-cascade-status']).toBe(body.nervousSystem.overallStatus);
    expect(headers['x-rail-active-cascades']).toBe(String(body.nervousSystem.activeCascadeCount));
  });

  it('answers the GraphQL field', async () => {
    const query =
      '{ cascade { nervousSystem { systemicRiskScore overallStatus activeCascadeCount layers { layer name status score } } activeCascades { type status confidence entryLayer triggers { id met value } propagation { layer status pricedIn typicalLag leadSignal } unpricedEffects historicalAnalog timelineNarrative } unpricedRisks systemicNarrative earlyWarningSignals dataQuality } }';
    const { data, errors } = await querySignal(server, query, key);
    expect(errors).toBeUndefined();
    expect(data?.cascade.nervousSystem.layers).toHaveLength(7);
    expect(data?.cascade.activeCascades[0]).toMatchObject({ type: 'FOOD_SUPPLY_CRISIS', status: 'ACTIVE' });
  });
});

describe('GET /v1/intelligence/instability', () => {
  it('answers the two scores, the actors, the scenarios, dataAsOf and the three headers', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/instability', key);
    expect(status).toBe(200);
    signalResponseSchema(instabilityEndpoint.response).parse(body);
    expect(body).toMatchObject({ usInstabilityScore: 74, fiscalDominanceScore: 65.6, overallIntensity: 'ACUTE' });
    expect(body.origins.map((origin: { actor: string }) => origin.actor)).toEqual(['United States', 'Russia']);
    expect(body.origins[1]).toMatchObject({ mode: 'ENERGY_WEAPONIZATION_AND_SANCTIONS_EVASION', ongoingSince: '2022-02-24' });
    expect(body.scenarios.map((scenario: { type: string }) => scenario.type)).toEqual(['US_POLICY_INSTABILITY', 'US_FISCAL_DOMINANCE_RISK']);
    expect(body.dataAsOf).toEqual({ epuDate: '2025-12-31', tradeDate: '2024-12-01', deficitDate: '2025-09-30' });
    expect(body.dataQuality).toBe('PARTIAL');
    expect(headers['x-rail-us-instability']).toBe('74');
    expect(headers['x-rail-fiscal-dominance']).toBe('65.6');
    expect(headers['x-rail-instability-intensity']).toBe('ACUTE');
  });

  it('answers the GraphQL field', async () => {
    const query =
      '{ instability { usInstabilityScore fiscalDominanceScore overallIntensity origins { actor mode intensity ongoingSince keySignals absorptionOutlook historicalComparisons } scenarios { type confidence entryLayer propagation { layer status } historicalAnalog } dataAsOf { epuDate tradeDate deficitDate } watchList } }';
    const { data, errors } = await querySignal(server, query, key);
    expect(errors).toBeUndefined();
    expect(data?.instability).toMatchObject({ usInstabilityScore: 74, overallIntensity: 'ACUTE', dataAsOf: { tradeDate: '2024-12-01' } });
  });
});

describe('GET /v1/intelligence/mycelium', () => {
  it('answers six nodes, the threads, the regime, the fruiting-body risk and the four headers', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/mycelium', key);
    expect(status).toBe(200);
    signalResponseSchema(myceliumEndpoint.response).parse(body);
    expect(Object.keys(body.nodes)).toEqual(['US_TREASURY_INTERBANK', 'EM_DOLLAR_FUNDING', 'EUROPEAN_SOVEREIGN', 'GLOBAL_TRADE_FINANCE', 'CRYPTO_DEFI_BRIDGE', 'ASIAN_CAPITAL_FLOWS']);
    expect(body).toMatchObject({ networkHealth: 46.6, regime: 'DEAD_ZONE_FORMING', threadHealth: { deadZones: ['GLOBAL_TRADE_FINANCE', 'CRYPTO_DEFI_BRIDGE'] } });
    expect(body.fruitingBodyRisk).toMatchObject({ probability: 0.37, leadTimeWeeks: 11, mostLikelyType: 'TRADE_WAR_ESCALATION' });
    expect(body.creditGaps.map((gap: { region: string }) => gap.region)).toEqual(['US', 'EU (euro area)', 'CN']);
    expect(headers['x-rail-network-health']).toBe('46.6');
    expect(headers['x-rail-network-regime']).toBe('DEAD_ZONE_FORMING');
    expect(headers['x-rail-fruiting-body-risk']).toBe('0.37');
    expect(headers['x-rail-lead-time-weeks']).toBe('11');
  });

  it('answers the GraphQL field with the nodes as a list naming each', async () => {
    const query =
      '{ mycelium { networkHealth regime nodes { id name connectivity nutrientFlow stressSignal status deadZones context } threadHealth { thinningThreads deadZones newConnections } fruitingBodyRisk { probability leadTimeWeeks mostLikelyType underground historicalAnalog } networkNarrative } }';
    const { data, errors } = await querySignal(server, query, key);
    expect(errors).toBeUndefined();
    expect(data?.mycelium.nodes).toHaveLength(6);
    expect(data?.mycelium.nodes[3]).toMatchObject({ id: 'GLOBAL_TRADE_FINANCE', status: 'DEAD_ZONE' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite, startTestServer, type TestServer } from '../../../test/helpers.js';
import { getSignal, querySignal } from '../shared/testing.js';

/**
 * The predictive family through REST and GraphQL on a database of its own (the ledger's calls are
 * rows no other test may add to), with the clock inside the shipped data: a Wednesday the 48-hour
 * call and the week's regime calls are issued, then the clock moves past their horizons.
 */
const ISSUED = '2026-06-10T12:00:00.000Z';
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['intelligence'], database: await openTestPglite() });
  server.clock.set(ISSUED);
  ({ key } = await server.platform!.access.keys.create('api', 'predictive tests', 10_000));
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const LEDGER = '/v1/intelligence/ledger';
const CALL = '/intelligence/48h-call';
const TRANSITION = '/v1/intelligence/transition-risk';

describe('402 without payment', () => {
  it.each([
    [LEDGER, '250000'],
    [CALL, '500000'],
    [TRANSITION, '750000'],
  ])('%s asks for its price', async (path, amount) => {
    const unpaid = await getSignal(server, path);
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.accepts[0]).toMatchObject({ maxAmountRequired: amount });
  });
});

describe('the 48-hour call and the ledger under a moving clock', () => {
  it('issues the business day call with its evidence and resolution rule, recorded in the ledger', async () => {
    const { status, body, headers } = await getSignal(server, CALL, key);
    expect(status).toBe(200);
    expect(body.call).toMatchObject({
      id: '48h-call:us-markets:2026-06-10',
      model: '48h-call',
      period: '2026-06-10',
      issuedAt: ISSUED,
      resolvesAt: '2026-06-13T00:00:00.000Z',
      statement: 'Cboe Volatility Index close (VIXCLS) on 2026-06-12 will be at or below 22.22 index points, its value of 2026-06-10.',
      probability: 0.6266,
      status: 'PENDING',
      resolution: null,
      resolutionRule: { quantity: 'VIXCLS value', series: 'VIXCLS', comparison: 'AT_OR_BELOW', threshold: 22.22, category: null, baseDate: '2026-06-10', targetDate: '2026-06-12' },
    });
    expect(body.call.evidence.map((evidence: { id: string }) => evidence.id)).toEqual(['VIXCLS', 'VIXCLS.levelPercentile', 'VIXCLS.momentum', 'history.samples', 'history.rises']);
    expect(body.call.method).toBe('179 of 480 past observations (HIGH level, RISING momentum) were higher 2 observations later: p(rise) = (179 + 1) / (480 + 2)');
    expect(body.targetDate).toBe('2026-06-12');
    expect(body.candidates.map((candidate: { series: string }) => candidate.series)).toEqual(['VIXCLS', 'brent_daily_eia', 'DTWEXBGS', 'T10Y2Y']);
    expect(body.track).toMatchObject({ calls: 1, pending: 1, resolved: 0, brierScore: null });
    expect(headers['x-rail-call-id']).toBe('48h-call:us-markets:2026-06-10');
    expect(headers['x-rail-call-probability']).toBe('0.6266');
  });

  it("lists every registered model and the week's regime calls, recorded by the 48-hour call's sweep, all pending", async () => {
    const { status, body, headers } = await getSignal(server, LEDGER, key);
    expect(status).toBe(200);
    expect(body.sweep).toEqual({ recorded: 0, resolved: 0 });
    expect(body.models.map((model: { model: string }) => model.model)).toEqual(['macro-stress-regime', 'commodity-regime', 'currency-dollar-regime', 'cascade-status', 'mycelium-regime', '48h-call']);
    expect(body.overall).toMatchObject({ calls: 6, pending: 6, resolved: 0, void: 0, brierScore: null, hitRate: null });
    expect(body.overall.reliability).toHaveLength(10);
    const regime = body.calls.find((call: { model: string }) => call.model === 'macro-stress-regime');
    expect(regime).toMatchObject({
      id: 'macro-stress-regime:regime:2026-06-08',
      probability: 0.5,
      resolvesAt: '2026-06-18T00:00:00.000Z',
      resolutionRule: { comparison: 'EQUALS', category: 'LATE_CYCLE', targetDate: '2026-06-17' },
    });
    expect(headers['x-rail-ledger-calls']).toBe('6');
    expect(headers['x-rail-brier-score']).toBe('none');
  });

  it('resolves the 48-hour call once its horizon passed, on the value of the target day, and scores it', async () => {
    server.clock.set('2026-06-13T09:00:00.000Z');
    const { body } = await getSignal(server, `${LEDGER}?model=48h-call&status=RESOLVED`, key);
    expect(body.sweep.resolved).toBe(1);
    expect(body.calls).toHaveLength(1);
    expect(body.calls[0]).toMatchObject({
      status: 'RESOLVED',
      resolution: { status: 'RESOLVED', outcome: true, observedValue: 17.68, observedAsOf: '2026-06-12', resolvedAt: '2026-06-13T09:00:00.000Z' },
    });
    const model = body.models.find((one: { model: string }) => one.model === '48h-call');
    // (0.6266 - 1)^2
    expect(model).toMatchObject({ resolved: 1, hits: 1, hitRate: 1, brierScore: 0.1394 });
    expect(body.overall).toMatchObject({ resolved: 1, brierScore: 0.1394 });
    expect(model.reliability[6]).toEqual({ from: 0.6, to: 0.7, resolved: 1, meanProbability: 0.6266, observedFrequency: 1 });
  });

  it('resolves the regime calls a week on by recomputing each model on the data of the target day, and the score moves', async () => {
    server.clock.set('2026-06-19T09:00:00.000Z');
    const { body } = await getSignal(server, LEDGER, key);
    // The five regime calls, and the 48-hour call Saturday's sweep recorded for Friday 2026-06-12 (target Tuesday 2026-06-16).
    expect(body.overall.resolved).toBe(7);
    expect(body.calls.find((call: { id: string }) => call.id === '48h-call:us-markets:2026-06-12')).toMatchObject({
      issuedAt: '2026-06-13T09:00:00.000Z',
      status: 'RESOLVED',
      resolutionRule: { targetDate: '2026-06-16' },
    });
    // The new week's calls and the new business day's 48-hour call were recorded by the same sweep.
    expect(body.overall.pending).toBe(6);
    const regimes = body.calls.filter((call: { model: string; period: string }) => call.model !== '48h-call' && call.period === '2026-06-08');
    expect(regimes).toHaveLength(5);
    for (const call of regimes) expect(call.resolution).toMatchObject({ status: 'RESOLVED', observedCategory: expect.any(String), observedAsOf: expect.stringMatching(/^2026-06-1[5-7]$/) });
    const expected = body.calls
      .filter((call: { status: string }) => call.status === 'RESOLVED')
      .map((call: { probability: number; resolution: { outcome: boolean } }) => (call.probability - (call.resolution.outcome ? 1 : 0)) ** 2);
    expect(body.overall.brierScore).toBeCloseTo(expected.reduce((sum: number, value: number) => sum + value, 0) / expected.length, 4);
    expect(body.overall.brierScore).not.toBe(0.1394);
  });

  it('refuses bad parameters with 400 INT_ERR_INVALID_PARAMETER naming the field', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['model=cascade', 'model'],
      ['status=OPEN', 'status'],
    ] as const) {
      const refused = await getSignal(server, `${LEDGER}?${query}`, key);
      expect(refused.status, query).toBe(400);
      expect(refused.body.code).toBe('INT_ERR_INVALID_PARAMETER');
      expect(refused.body.error).toContain(field);
    }
  });

  it('answers the GraphQL fields', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ predictionLedger(model: "48h-call", status: RESOLVED, limit: 5) { overall { calls brierScore } models { model brierScore } calls { id status probability resolution { outcome observedValue } resolutionRule { comparison threshold } evidence { id value } } } fortyEightHourCall { call { id statement } candidates { series direction probability } track { resolved } } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.predictionLedger.calls.find((call: { id: string }) => call.id.endsWith('2026-06-10'))).toMatchObject({
      id: '48h-call:us-markets:2026-06-10',
      status: 'RESOLVED',
      resolution: { outcome: true, observedValue: 17.68 },
      resolutionRule: { comparison: 'AT_OR_BELOW', threshold: 22.22 },
    });
    expect(data?.predictionLedger.models).toHaveLength(6);
    expect(data?.fortyEightHourCall.candidates).toHaveLength(4);
  });

  it('finding: with a clock weeks past the data, it made calls on a stale base that could only go VOID; now it makes none and says so (call null)', async () => {
    // The shipped daily series end in October 2026: on 2026-12-21 every dating series is stale (over 10 days old).
    server.clock.set('2026-12-21T09:00:00.000Z');
    const before = (await getSignal(server, `${LEDGER}?limit=200`, key)).body;
    expect(before.sweep.recorded).toBe(0);
    const { status, body } = await getSignal(server, CALL, key);
    expect(status).toBe(200);
    expect(body.call).toBeNull();
    expect(body.stale).toBe(true);
    const after = (await getSignal(server, `${LEDGER}?limit=200`, key)).body;
    expect(after.overall.calls).toBe(before.overall.calls);
  });
});

describe('GET /v1/intelligence/transition-risk', () => {
  it('prices six sectors at the scenario, scores the oil-product sectors against Brent, and says PARTIAL for the market carbon price', async () => {
    const { status, body, headers } = await getSignal(server, `${TRANSITION}?carbonPrice=100`, key);
    expect(status).toBe(200);
    expect(Object.keys(body.sectors)).toEqual(['power', 'steel', 'cement', 'aviation', 'shipping', 'autos']);
    expect(body.carbonPrice).toMatchObject({ scenarioEurPerTonne: 100, marketEurPerTonne: null });
    expect(body.sectors.shipping).toMatchObject({ emissionFactorTco2PerTj: 77.4, status: expect.stringMatching(/^(SEVERE|HIGH|ELEVATED|MODERATE|LOW)$/), carbonCost: { unit: 'USD per barrel' } });
    expect(body.sectors.steel).toMatchObject({ status: 'UNSCORED', exposureScore: null, emissionFactorTco2PerTj: 94.6 });
    expect(body.sectors.power.carbonCost.unit).toBe('EUR per MWh (world grid)');
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs.some((input: string) => input.startsWith('EU ETS allowance'))).toBe(true);
    expect(body.inputs.map((input: { id: string }) => input.id)).toContain('ipcc_2006_fuel_factors');
    expect(headers['x-rail-transition-regime']).toBe(body.regime);
  });

  it('a dearer carbon price raises every scored exposure', async () => {
    const low = (await getSignal(server, `${TRANSITION}?carbonPrice=50`, key)).body;
    const high = (await getSignal(server, `${TRANSITION}?carbonPrice=200`, key)).body;
    for (const sector of ['aviation', 'shipping', 'autos']) expect(high.sectors[sector].exposureScore).toBeGreaterThan(low.sectors[sector].exposureScore);
  });

  it.each(['0', '1001', 'abc'])('refuses carbonPrice=%s with 400 naming the field', async (value) => {
    const refused = await getSignal(server, `${TRANSITION}?carbonPrice=${value}`, key);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'INT_ERR_INVALID_PARAMETER', error: expect.stringContaining('carbonPrice') });
  });

  it('answers the GraphQL field with sectors as a list', async () => {
    const { data, errors } = await querySignal(server, '{ transitionRisk(carbonPrice: 80) { carbonPrice { scenarioEurPerTonne } regime sectors { sector status exposureScore } missingInputs } }', key);
    expect(errors).toBeUndefined();
    expect(data?.transitionRisk.sectors.map((sector: { sector: string }) => sector.sector)).toEqual(['power', 'steel', 'cement', 'aviation', 'shipping', 'autos']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers.js';
import { getSignal, postSignal, querySignal, startSignalServer } from '../shared/testing.js';

/**
 * The simulations through their front doors: the POST bodies and their GraphQL queries, the free GET
 * node listings, 402 without payment, and a 400 naming the field for each limit (before any payment
 * is asked) and for an unknown node.
 */
let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const BUTTERFLY = '/v1/intelligence/butterfly';
const AFTERSHOCK = '/v1/intelligence/aftershock';
const CONTAGION = '/v1/intelligence/contagion';
const butterflyBody = { origin: 'geo.conflict', eventType: 'Strait of Hormuz closure', magnitude: 60 };
const aftershockBody = { origin: 'commodity.oil', eventType: 'Oil supply shock', magnitude: 70 };
const contagionBody = { origin: 'fin.us_banking', magnitude: 70 };

describe('POST /v1/intelligence/butterfly', () => {
  it('answers the cascade, time-ordered, with the documented fields and the default horizon of 168 hours', async () => {
    const { status, body, headers } = await postSignal(server, BUTTERFLY, butterflyBody, key);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      origin: { id: 'geo.conflict', label: 'Armed conflict', domain: 'geopolitical', description: expect.any(String) },
      eventType: 'Strait of Hormuz closure',
      inputMagnitude: 60,
      horizonHours: 168,
      computedAt: server.clock.now().toISOString(),
      cacheHit: false,
      dataQuality: 'ESTIMATED',
      inputs: [],
      missingInputs: [],
    });
    expect(body.cascade[0]).toEqual({
      node: { id: 'commodity.oil', label: 'Crude oil', domain: 'commodity' },
      magnitude: 42,
      arrivalHours: 12,
      via: ['geo.conflict'],
      mechanism: 'a supply-risk premium enters crude when producers or shipping routes are near the fighting',
    });
    expect(body.cascade.map((step: { node: { id: string } }) => step.node.id)).toEqual([
      'commodity.oil',
      'commodity.gas',
      'commodity.food',
      'geo.port_blockade',
      'macro.currency_crisis',
      'macro.rate_decision',
      'geo.sanctions',
    ]);
    expect(body.synthesis).toMatch(/^Strait of Hormuz closure \(Armed conflict, magnitude 60\) reaches 7 of 24 nodes within 168 hours/);
    expect(headers['x-rail-cache-hit']).toBe('false');
  });

  it('reaches further over a longer horizon', async () => {
    const { body } = await postSignal(server, BUTTERFLY, { ...butterflyBody, horizonHours: 720 }, key);
    expect(body.horizonHours).toBe(720);
    expect(body.cascade.at(-1)).toMatchObject({ node: { id: 'macro.sovereign_debt' }, arrivalHours: 708, via: ['geo.conflict', 'commodity.oil', 'macro.inflation', 'macro.rate_decision'] });
  });

  it('answers 402 without payment', async () => {
    const unpaid = await postSignal(server, BUTTERFLY, butterflyBody);
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.accepts[0]).toMatchObject({ maxAmountRequired: '750000' });
  });

  it('lists its 25 nodes free at GET', async () => {
    const { status, body } = await getSignal(server, BUTTERFLY);
    expect(status).toBe(200);
    expect(body).toMatchObject({ model: 'butterfly', count: 25 });
    expect(body.domains).toEqual([
      { domain: 'climate', prefix: 'climate', label: 'Climate', count: 6 },
      { domain: 'geopolitical', prefix: 'geo', label: 'Geopolitical', count: 6 },
      { domain: 'economic', prefix: 'macro', label: 'Economic', count: 6 },
      { domain: 'commodity', prefix: 'commodity', label: 'Commodity', count: 7 },
    ]);
    expect(body.nodes).toContainEqual({ id: 'macro.rate_decision', label: 'Central bank rate decision', domain: 'economic', description: expect.any(String) });
  });
});

describe('POST /v1/intelligence/aftershock', () => {
  it('answers the three waves after the default 24 elapsed hours up to the default 4320', async () => {
    const { status, body } = await postSignal(server, AFTERSHOCK, aftershockBody, key);
    expect(status).toBe(200);
    expect(body.primaryEvent).toEqual({ origin: 'commodity.oil', eventType: 'Oil supply shock', inputMagnitude: 70, elapsedHours: 24 });
    expect(body.summary).toEqual({ totalAftershocks: 13, amplified: 9, rebounds: 2, structural: 2 });
    expect(body.waves.wave1).toEqual({ label: 'Immediate secondary effects (0-72 hours)', count: 0, events: [] });
    expect(body.waves.wave2.events[0]).toEqual({
      node: { id: 'macro.currency_crisis', label: 'Currency crisis' },
      magnitude: 14,
      offsetHours: 168,
      type: 'amplified',
      mechanism: "oil importers' trade balances and currencies weaken",
    });
    expect(body.waves.wave2.events[2]).toMatchObject({ node: { id: 'macro.rate_decision' }, offsetHours: 672, type: 'rebound' });
    expect(body.waves.wave3.count).toBe(10);
    expect(body.synthesis).toMatch(/^Oil supply shock \(Crude oil, magnitude 70\), 24 hours on: 13 aftershocks/);
    expect(body.computedAt).toBe(server.clock.now().toISOString());
  });

  it('answers 402 without payment', async () => {
    expect((await postSignal(server, AFTERSHOCK, aftershockBody)).status).toBe(402);
  });
});

describe('POST /v1/intelligence/contagion', () => {
  it('answers the epidemic week by week with its regime and superspreaders (8 weeks, no intervention by default)', async () => {
    const { status, body } = await postSignal(server, CONTAGION, contagionBody, key);
    expect(status).toBe(200);
    expect(body.origin).toEqual({ id: 'fin.us_banking', label: 'US banking', domain: 'financial' });
    expect(body.regime).toBe('EPIDEMIC');
    expect(body.summary).toMatchObject({ peakSystemR: 2.03, peakAtWeek: 1, contained: false });
    expect(body.epochs).toHaveLength(8);
    expect(body.epochs[0]).toEqual({ epoch: 1, systemR: 2.03, activeInfections: 1.31, newInfections: 0.61, recovered: 0.3 });
    expect(body.superspreaders[0]).toEqual({ id: 'fin.us_banking', label: 'US banking', outboundPotential: 2.03 });
    expect(body.synthesis).toMatch(/^A magnitude-70 shock to US banking without intervention: systemR peaks at 2.03 in week 1 \(EPIDEMIC\)/);
  });

  it('is suppressed by a maximum intervention', async () => {
    const { body } = await postSignal(server, CONTAGION, { ...contagionBody, epochs: 12, interventionStrength: 1 }, key);
    expect(body.epochs).toHaveLength(12);
    expect(body.regime).toBe('SUPPRESSED');
    expect(body.summary.contained).toBe(true);
  });

  it('answers 402 without payment and lists its 30 nodes free at GET', async () => {
    expect((await postSignal(server, CONTAGION, contagionBody)).status).toBe(402);
    const { status, body } = await getSignal(server, CONTAGION);
    expect(status).toBe(200);
    expect(body).toMatchObject({ model: 'contagion', count: 30 });
    expect(body.domains.map((domain: { count: number }) => domain.count)).toEqual([7, 5, 4, 5, 4, 5]);
  });
});

describe('400 before payment: each limit of §8 (and decision 0071) names its field', () => {
  it.each([
    [BUTTERFLY, { ...butterflyBody, magnitude: 0.99 }, 'magnitude'],
    [BUTTERFLY, { ...butterflyBody, magnitude: 100.01 }, 'magnitude'],
    [BUTTERFLY, { ...butterflyBody, magnitude: '50' }, 'magnitude'],
    [BUTTERFLY, { ...butterflyBody, horizonHours: 0.5 }, 'horizonHours'],
    [BUTTERFLY, { ...butterflyBody, horizonHours: 721 }, 'horizonHours'],
    [BUTTERFLY, { ...butterflyBody, eventType: '  ' }, 'eventType'],
    [BUTTERFLY, { ...butterflyBody, eventType: 'x'.repeat(201) }, 'eventType'],
    [BUTTERFLY, { origin: 'geo.conflict', magnitude: 50 }, 'eventType'],
    [BUTTERFLY, { ...butterflyBody, horizon: 100 }, 'horizon'],
    [AFTERSHOCK, { ...aftershockBody, magnitude: 0 }, 'magnitude'],
    [AFTERSHOCK, { ...aftershockBody, magnitude: 101 }, 'magnitude'],
    [AFTERSHOCK, { ...aftershockBody, elapsedHours: -1 }, 'elapsedHours'],
    [AFTERSHOCK, { ...aftershockBody, elapsedHours: 4321 }, 'elapsedHours'],
    [AFTERSHOCK, { ...aftershockBody, elapsedHours: 100, horizonHours: 100 }, 'elapsedHours'],
    [AFTERSHOCK, { ...aftershockBody, horizonHours: 0 }, 'horizonHours'],
    [AFTERSHOCK, { ...aftershockBody, horizonHours: 4321 }, 'horizonHours'],
    [CONTAGION, { ...contagionBody, magnitude: 0 }, 'magnitude'],
    [CONTAGION, { ...contagionBody, magnitude: 101 }, 'magnitude'],
    [CONTAGION, { ...contagionBody, epochs: 0 }, 'epochs'],
    [CONTAGION, { ...contagionBody, epochs: 13 }, 'epochs'],
    [CONTAGION, { ...contagionBody, epochs: 2.5 }, 'epochs'],
    [CONTAGION, { ...contagionBody, interventionStrength: -0.01 }, 'interventionStrength'],
    [CONTAGION, { ...contagionBody, interventionStrength: 1.01 }, 'interventionStrength'],
  ])('%s %j: 400 INT_ERR_INVALID_PARAMETER naming %s, even unpaid', async (path, body, field) => {
    for (const caller of [key, undefined]) {
      const refused = await postSignal(server, path, body, caller);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: expect.stringContaining(field), code: 'INT_ERR_INVALID_PARAMETER' });
    }
  });

  it.each([
    [BUTTERFLY, { ...butterflyBody, magnitude: 1, horizonHours: 1 }],
    [BUTTERFLY, { ...butterflyBody, magnitude: 100, horizonHours: 720 }],
    [AFTERSHOCK, { ...aftershockBody, magnitude: 1, elapsedHours: 0, horizonHours: 1 }],
    [AFTERSHOCK, { ...aftershockBody, magnitude: 100, elapsedHours: 4319, horizonHours: 4320 }],
    [CONTAGION, { ...contagionBody, magnitude: 1, epochs: 1, interventionStrength: 0 }],
    [CONTAGION, { ...contagionBody, magnitude: 100, epochs: 12, interventionStrength: 1 }],
  ])('%s %j: the bounds themselves are accepted', async (path, body) => {
    expect((await postSignal(server, path, body, key)).status).toBe(200);
  });

  it.each([
    [BUTTERFLY, { ...butterflyBody, origin: 'geo.war' }, 'butterfly', 25],
    [AFTERSHOCK, { ...aftershockBody, origin: 'fin.us_banking' }, 'butterfly', 25],
    [CONTAGION, { ...contagionBody, origin: 'commodity.oil' }, 'contagion', 30],
  ])('%s: an unknown origin is 400 INT_ERR_UNKNOWN_NODE naming the field, the id and the free listing', async (path, body, model, count) => {
    for (const caller of [key, undefined]) {
      const refused = await postSignal(server, path, body, caller);
      expect(refused.status).toBe(400);
      const discovery = `/v1/intelligence/${model}`;
      expect(refused.body).toEqual({ error: `origin: '${body.origin}' is not a node of the ${model} catalogue; GET ${discovery} (free) lists its ${count} node ids`, code: 'INT_ERR_UNKNOWN_NODE' });
    }
  });

  it('a body that is not a JSON object is 400', async () => {
    const refused = await postSignal(server, BUTTERFLY, [butterflyBody], key);
    expect(refused.status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('answers the butterfly query with arguments, the same cascade as REST', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ butterfly(origin: "geo.conflict", eventType: "Strait of Hormuz closure", magnitude: 60) { origin { id label } inputMagnitude horizonHours cascade { node { id } magnitude arrivalHours via mechanism } synthesis computedAt dataQuality } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.butterfly).toMatchObject({ origin: { id: 'geo.conflict', label: 'Armed conflict' }, inputMagnitude: 60, horizonHours: 168, dataQuality: 'ESTIMATED' });
    expect(data?.butterfly.cascade[0]).toEqual({ node: { id: 'commodity.oil' }, magnitude: 42, arrivalHours: 12, via: ['geo.conflict'], mechanism: expect.any(String) });
  });

  it('answers the aftershock query', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ aftershock(origin: "commodity.oil", eventType: "Oil supply shock", magnitude: 70, elapsedHours: 24, horizonHours: 4320) { primaryEvent { origin elapsedHours } summary { totalAftershocks amplified rebounds structural } waves { wave2 { label count events { node { id label } magnitude offsetHours type mechanism } } } } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.aftershock.summary).toEqual({ totalAftershocks: 13, amplified: 9, rebounds: 2, structural: 2 });
    expect(data?.aftershock.waves.wave2.events[2]).toMatchObject({ node: { id: 'macro.rate_decision' }, type: 'rebound' });
  });

  it('answers the contagion query', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ contagion(origin: "fin.us_banking", magnitude: 70, epochs: 8, interventionStrength: 0) { origin { id } regime summary { peakSystemR peakAtWeek finalSystemR finalActive finalRecovered contained } superspreaders { id outboundPotential } epochs { epoch systemR activeInfections newInfections recovered } synthesis } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.contagion).toMatchObject({ origin: { id: 'fin.us_banking' }, regime: 'EPIDEMIC', summary: { peakSystemR: 2.03, peakAtWeek: 1 } });
    expect(data?.contagion.epochs).toHaveLength(8);
  });

  it('refuses out-of-range arguments and unknown nodes with the same codes, and unpaid with GEN_ERR_PAYMENT_REQUIRED', async () => {
    const range = await querySignal(server, '{ contagion(origin: "fin.us_banking", magnitude: 70, epochs: 13) { regime } }', key);
    expect(range.data?.contagion).toBeNull();
    expect(range.errors?.[0]).toMatchObject({ message: expect.stringContaining('epochs'), extensions: { code: 'INT_ERR_INVALID_PARAMETER' } });
    const unknown = await querySignal(server, '{ butterfly(origin: "geo.war", eventType: "x", magnitude: 50) { horizonHours } }', key);
    expect(unknown.errors?.[0]).toMatchObject({ message: expect.stringContaining("origin: 'geo.war'"), extensions: { code: 'INT_ERR_UNKNOWN_NODE' } });
    const unpaid = await querySignal(server, '{ butterfly(origin: "geo.conflict", eventType: "x", magnitude: 50) { horizonHours } }');
    expect(unpaid.errors?.[0]?.extensions?.code).toBe('GEN_ERR_PAYMENT_REQUIRED');
  });

  it('lists both node catalogues free', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ butterflyNodes { model count domains { domain prefix count } nodes { id label domain description } } contagionNodes { count nodes { id } } }',
    );
    expect(errors).toBeUndefined();
    expect(data?.butterflyNodes).toMatchObject({ model: 'butterfly', count: 25 });
    expect(data?.butterflyNodes.nodes).toHaveLength(25);
    expect(data?.contagionNodes.count).toBe(30);
  });
});

describe('OpenAPI', () => {
  it('documents the three POSTs and the two free listings', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/openapi.json');
    expect(status).toBe(200);
    expect(Object.keys(body.paths[BUTTERFLY]).sort()).toEqual(['get', 'post']);
    expect(Object.keys(body.paths[CONTAGION]).sort()).toEqual(['get', 'post']);
    expect(Object.keys(body.paths[AFTERSHOCK])).toEqual(['post']);
    // Each POST documents its request body from the same schema that validates it.
    for (const path of [BUTTERFLY, AFTERSHOCK, CONTAGION]) {
      const schema = body.paths[path].post.requestBody.content['application/json'].schema;
      expect(schema.required, path).toEqual(expect.arrayContaining(['origin', 'magnitude']));
      expect(schema.properties.magnitude, path).toMatchObject({ minimum: 1, maximum: 100 });
    }
  });
});

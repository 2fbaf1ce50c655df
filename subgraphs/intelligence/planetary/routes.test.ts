import { GraphQLNonNull, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeShapeDisagreements } from '../../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../../platform/subgraph.js';
import type { TestServer } from '../../../test/helpers.js';
import { signalResponseSchema } from '../shared/envelope.js';
import { getSignal, querySignal, startSignalServer } from '../shared/testing.js';
import { biodiversityGraphQLSchema } from './biodiversity.js';
import { climateSchema } from './climate.js';
import { climatePulseSchema } from './climate-pulse.js';
import { earthSystemsSchema } from './earth-systems.js';

let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('GET /v1/intelligence/earth-systems', () => {
  it('answers the documented body and X-Rail-Earth-Health-Index', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/earth-systems', key);
    expect(status).toBe(200);
    expect(headers['x-rail-earth-health-index']).toBe('37.3');
    expect(body.sustainability).toEqual({ earthHealthIndex: 37.3, planetaryStatus: 'DEGRADED', tippingPointAlert: expect.stringMatching(/^WARNING: 4 of 9 /) });
    expect(body.atmosphere).toEqual({ co2: { currentPpm: 431.44, signal: expect.any(String) }, temperature: { currentAnomalyC: 1.53, distanceToParisC: -0.03 } });
    expect(body.tippingPoints).toHaveLength(9);
    for (const point of body.tippingPoints) expect(point).toEqual({ name: expect.any(String), proximityRisk: expect.any(String), threshold: expect.any(String) });
    expect(body.dataQuality).toBe('ESTIMATED');
    expect(body.inputs.map((input: { id: string }) => input.id)).toContain('armstrong_mckay_2022_tipping_points');
  });
});

describe('GET /v1/intelligence/biodiversity', () => {
  it('answers the documented body, X-Rail-Biodiversity-Risk and X-Rail-TNFD-Rating, PARTIAL for the IUCN counts', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/biodiversity', key);
    expect(status).toBe(200);
    expect(headers['x-rail-biodiversity-risk']).toBe('54');
    expect(headers['x-rail-tnfd-rating']).toBe('HIGH');
    expect(body.globalBiodiversityIndex).toBe(30.9);
    expect(body.tnfdRating).toBe('HIGH');
    expect(body.iucnSignals).toMatchObject({ criticallyEndangered: null, endangered: null, trend: expect.stringMatching(/^SEVERE_DECLINE/) });
    expect(body.iucnSignals.hotspots).toHaveLength(3);
    expect(body.sectorDependencyMatrix.agriculture).toEqual({ dependencyScore: 60.8, exposureLevel: 'VERY_HIGH', isicCode: 'A_1_11_111', materialDependencies: expect.any(Array) });
    expect(body.pai7).toEqual({
      biodiversitySensitiveAreaExposure: expect.stringMatching(/^HIGH: /),
      disclosureFlag: true,
      affectedRegions: ['Latin America and the Caribbean', 'Africa', 'Asia and Pacific'],
    });
    expect(typeof body.narrative).toBe('string');
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toEqual([expect.stringMatching(/^IUCN Red List counts/)]);
  });
});

describe('GET /v1/intelligence/climate', () => {
  it('answers the documented body and X-Rail-Climate-Score, with every zone missing from the snapshot', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/climate', key);
    expect(status).toBe(200);
    expect(headers['x-rail-climate-score']).toBe('74.2');
    expect(body.summary).toEqual({
      globalFoodSystemRisk: 'HIGH',
      regionsAtRisk: 0,
      criticalCommodities: [],
      cascadeSignals: [expect.stringMatching(/^wheat \+27.8%/), expect.stringMatching(/^soybeans \+14.5%/)],
    });
    expect(body.regions).toEqual([]);
    expect(body.transmission).toEqual({ foodInflationPressure: expect.stringMatching(/^ELEVATED: /), migrationPressure: expect.stringMatching(/^UNKNOWN: /) });
    expect(body.coverage).toMatchObject({ regionsAssessed: 0, regionsRequired: 10 });
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toHaveLength(10);
  });
});

describe('GET /v1/intelligence/climate-pulse', () => {
  it('answers the documented body and its three headers: NO_DATA without the live overlay', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/climate-pulse', key);
    expect(status).toBe(200);
    expect(headers['x-rail-climate-signal']).toBe('NO_DATA');
    expect(headers['x-rail-heat-regions']).toBe('0');
    expect(headers['x-rail-drought-regions']).toBe('0');
    expect(body.summary).toEqual({
      overallSignal: 'NO_DATA',
      regionsWithHeatAnomaly: 0,
      regionsWithDrought: 0,
      commoditySignal: expect.any(String),
      laborProductivityImpact: expect.stringMatching(/^UNKNOWN: /),
    });
    expect(body.regions).toHaveLength(8);
    expect(body.regions[0]).toEqual({ name: 'Pacific Northwest', tempAnomaly: null, droughtSeverity: 'NO_DATA', commodityImpact: [], signal: 'NO_DATA' });
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toHaveLength(16);
  });
});

describe('the planetary GraphQL fields', () => {
  it('earthSystems answers the same figures as REST', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ earthSystems { sustainability { earthHealthIndex planetaryStatus } atmosphere { temperature { currentAnomalyC distanceToParisC } } tippingPoints { name proximityRisk } } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.earthSystems.sustainability).toEqual({ earthHealthIndex: 37.3, planetaryStatus: 'DEGRADED' });
    expect(data?.earthSystems.atmosphere.temperature).toEqual({ currentAnomalyC: 1.53, distanceToParisC: -0.03 });
    expect(data?.earthSystems.tippingPoints[0]).toEqual({ name: 'Greenland Ice Sheet collapse', proximityRisk: 'CRITICAL' });
  });

  it('biodiversity lists the sector matrix with the sector as a field', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ biodiversity { tnfdRating iucnSignals { criticallyEndangered hotspots { region } } sectorDependencyMatrix { sector dependencyScore exposureLevel } pai7 { disclosureFlag } } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.biodiversity.tnfdRating).toBe('HIGH');
    expect(data?.biodiversity.iucnSignals.criticallyEndangered).toBeNull();
    expect(data?.biodiversity.sectorDependencyMatrix).toHaveLength(14);
    expect(data?.biodiversity.sectorDependencyMatrix[0]).toEqual({ sector: 'agriculture', dependencyScore: 60.8, exposureLevel: 'VERY_HIGH' });
    expect(data?.biodiversity.pai7.disclosureFlag).toBe(true);
  });

  it('climate and climatePulse answer their coverage and regions', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ climate { climateScore regions { name } coverage { regionsAssessed missingRegions } } climatePulse { summary { overallSignal } regions { name tempAnomaly signal } } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.climate).toMatchObject({ climateScore: 74.2, regions: [], coverage: { regionsAssessed: 0 } });
    expect(data?.climate.coverage.missingRegions).toHaveLength(10);
    expect(data?.climatePulse.summary.overallSignal).toBe('NO_DATA');
    expect(data?.climatePulse.regions[7]).toEqual({ name: 'Northeast', tempAnomaly: null, signal: 'NO_DATA' });
  });
});

describe('each planetary answer is one shape in REST and GraphQL', () => {
  const schema = buildFederatedSchema(loadSubgraphTypeDefs('intelligence'), {});
  const bodies: Array<[string, z.ZodObject<z.ZodRawShape>]> = [
    ['EarthSystems', earthSystemsSchema],
    ['Climate', climateSchema],
    ['ClimatePulse', climatePulseSchema],
    ['Biodiversity', biodiversityGraphQLSchema],
  ];
  it.each(bodies)('%s', (typeName, body) => {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
    expect(describeShapeDisagreements(signalResponseSchema(body), new GraphQLNonNull(type))).toEqual([]);
  });
});

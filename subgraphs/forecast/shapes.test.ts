import { GraphQLList, GraphQLNonNull, type GraphQLOutputType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeShapeDisagreements } from '../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import {
  calendarResponseSchema,
  commodityOutlookResponseSchema,
  heatCheckResponseSchema,
  portfolioResponseSchema,
  regionsResponseSchema,
  scenarioResponseSchema,
  tcfdResponseSchema,
} from './responses.js';

const schema = buildFederatedSchema(loadSubgraphTypeDefs('forecast'), {});

function objectType(name: string): GraphQLNonNull<GraphQLOutputType> {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type of schema/forecast.graphql`);
  // A REST body is never null; root fields are nullable only so that a failure stays local.
  return new GraphQLNonNull(type);
}
const listOf = (name: string) => new GraphQLNonNull(new GraphQLList(objectType(name)));

const pairs: Array<{ path: string; graphQLType: string; response: z.ZodType; type: GraphQLOutputType }> = [
  { path: 'GET /forecast/heat-check', graphQLType: 'HeatCheck', response: heatCheckResponseSchema, type: objectType('HeatCheck') },
  { path: 'GET /forecast/commodity/{symbol}', graphQLType: 'CommodityOutlook', response: commodityOutlookResponseSchema, type: objectType('CommodityOutlook') },
  { path: 'GET /forecast/regions', graphQLType: '[ClimateRegion]', response: regionsResponseSchema, type: listOf('ClimateRegion') },
  { path: 'GET /forecast/calendar', graphQLType: '[CalendarEntry]', response: calendarResponseSchema, type: listOf('CalendarEntry') },
  { path: 'POST /forecast/portfolio', graphQLType: 'PortfolioStress', response: portfolioResponseSchema, type: objectType('PortfolioStress') },
  { path: 'POST /forecast/scenario', graphQLType: 'ScenarioAnalysis', response: scenarioResponseSchema, type: objectType('ScenarioAnalysis') },
  { path: 'POST /forecast/tcfd-report', graphQLType: 'TcfdReport', response: tcfdResponseSchema, type: objectType('TcfdReport') },
];

describe('forecast REST response schemas and GraphQL types describe one shape', () => {
  it.each(pairs)('$path and GraphQL $graphQLType have the same fields, nullability and kinds', ({ response, type }) => {
    expect(describeShapeDisagreements(response, type)).toEqual([]);
  });

  it('finding: forecast had JSON! outputs; no forecast field is typed JSON any more', () => {
    expect(schema.getType('JSON')).toBeUndefined();
  });

  it('every root Query field is nullable, so one failing field never wipes the others', () => {
    const fields = Object.values(schema.getQueryType()!.getFields()).filter((field) => !field.name.startsWith('_'));
    expect(fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name)).toEqual([]);
  });
});

describe('GET /forecast/openapi.json', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['forecast'] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('finding: forecast had no OpenAPI document; it documents its seven paths with their response schemas', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/forecast/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.servers).toEqual([{ url: '/' }]);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/forecast/calendar',
      '/forecast/commodity/{symbol}',
      '/forecast/heat-check',
      '/forecast/mcp',
      '/forecast/portfolio',
      '/forecast/regions',
      '/forecast/scenario',
      '/forecast/tcfd-report',
    ]);
    const outlook = document.paths['/forecast/commodity/{symbol}'].get.responses;
    expect(Object.keys(outlook).sort()).toEqual(['200', '400', '404', '503']);
    expect(Object.keys(outlook['200'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['symbol', 'currentPrice', 'climateRiskScore', 'status', 'signals', 'outlook', 'reasoning', 'confidence', 'productionRegions', 'evaluatedAt', 'dataAgeDays']),
    );
  });
});

import { type GraphQLSchema, isObjectType, Kind } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedCapabilities, type DocumentedOperation, documentedOperations } from '../platform/capabilities.js';
import { startTestServer, type TestServer } from './helpers.js';

/**
 * Every documented capability (platform/capabilities.ts: an operation of a published OpenAPI
 * document that is not health, discovery, a widget or a protocol endpoint) has a GraphQL field
 * that names it in `@rest(routes: [...])`. Both sides are read from the running server: the
 * OpenAPI documents its routes publish and the SDL of the subgraphs it serves.
 */

/** "METHOD /route" -> the fields (Query.x, Mutation.y, LegalEntity.z) whose @rest names it. */
function restRoutesOfGraph(schemas: readonly GraphQLSchema[]): Map<string, string[]> {
  const fieldsByRoute = new Map<string, string[]>();
  for (const schema of schemas) {
    for (const root of Object.values(schema.getTypeMap())) {
      if (!isObjectType(root) || root.name.startsWith('__')) continue;
      for (const field of Object.values(root.getFields())) {
        const rest = field.astNode?.directives?.find((directive) => directive.name.value === 'rest');
        const routes = rest?.arguments?.find((argument) => argument.name.value === 'routes')?.value;
        if (!routes) continue;
        const values = routes.kind === Kind.LIST ? routes.values : [routes];
        for (const value of values) {
          if (value.kind !== Kind.STRING) continue;
          fieldsByRoute.set(value.value, [...(fieldsByRoute.get(value.value) ?? []), `${root.name}.${field.name}`]);
        }
      }
    }
  }
  return fieldsByRoute;
}

const SERVICES_OF_SUBGRAPH: Record<string, readonly string[]> = {
  fees: ['/stability/openapi.json', '/esg/openapi.json'],
  compliance: ['/compliance/openapi.json'],
  payments: ['/integration/openapi.json', '/agent/openapi.json'],
  forecast: ['/forecast/openapi.json'],
  intelligence: ['/v1/intelligence/openapi.json', '/reports/openapi.json'],
};

describe('every documented capability in the graph', () => {
  let server: TestServer;
  let capabilities: DocumentedOperation[];
  let fieldsByRoute: Map<string, string[]>;

  beforeAll(async () => {
    server = await startTestServer();
    capabilities = await documentedCapabilities(server.app);
    fieldsByRoute = restRoutesOfGraph(server.subgraphs.map((subgraph) => subgraph.schema));
  }, 120_000);
  afterAll(async () => server?.close());

  it('reads every OpenAPI document of the server, each owned by one subgraph', async () => {
    const documents = new Set((await documentedOperations(server.app)).map((operation) => operation.documentUrl));
    expect([...documents].sort()).toEqual(Object.values(SERVICES_OF_SUBGRAPH).flat().sort());
  });

  it.each(Object.keys(SERVICES_OF_SUBGRAPH))('each capability documented by %s has a GraphQL field', (subgraph) => {
    const owned = capabilities.filter((operation) => SERVICES_OF_SUBGRAPH[subgraph]!.includes(operation.documentUrl));
    expect(owned.length).toBeGreaterThan(0);
    expect(owned.filter((operation) => !fieldsByRoute.has(operation.key)).map((operation) => operation.key)).toEqual([]);
  });

  it('every @rest route names a documented capability (no typo stands for coverage)', () => {
    const known = new Set(capabilities.map((operation) => operation.key));
    expect([...fieldsByRoute.keys()].filter((route) => !known.has(route))).toEqual([]);
  });
});

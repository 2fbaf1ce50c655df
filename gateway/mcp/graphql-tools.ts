import { buildASTSchema, GraphQLSchema, isSpecifiedDirective, parse, printSchema } from 'graphql';
import { AppError } from '../../platform/errors.js';
import { readSupergraph } from '../compose.js';
import { runRouteRequest, toolRefusal } from './call-route.js';
import { anyStructuredError, type RailTool, toolResult } from './tool.js';

/**
 * The graph as two tools, in the manner of Apollo's MCP server (introspect, execute): composed
 * views (vendorAssessment, riskDashboard) are one operation away. Both go through this process's
 * /graphql with the caller's headers, so the gateway's limits (depth, cost, aliases, no batches),
 * its introspection switch (off in production) and every field's authority and price apply.
 */

const GRAPHQL_PATH = '/graphql';
const FEDERATION_MACHINERY = /^(join|link)__/;

/**
 * The API schema of the supergraph the gateway serves (schema/supergraph.graphql, which a test
 * keeps equal to the composition), without the federation machinery (join__ and link__ types,
 * their directives). Introspection through /graphql would answer the same, but its query is far
 * above the gateway's cost limit, which this tool must not lift.
 */
export function apiSchemaSdl(supergraphSdl: string = readSupergraph()): string {
  const config = buildASTSchema(parse(supergraphSdl), { assumeValidSDL: true }).toConfig();
  const api = new GraphQLSchema({
    ...config,
    types: config.types.filter((type) => !FEDERATION_MACHINERY.test(type.name)),
    directives: config.directives.filter(isSpecifiedDirective),
  });
  return printSchema(api);
}

let cachedSdl: string | undefined;
function schemaSdl(): string {
  cachedSdl ??= apiSchemaSdl();
  return cachedSdl;
}

export function graphqlTools(options: { introspection: boolean }): RailTool[] {
  const schemaTool: RailTool = {
    name: 'graphql.schema',
    title: 'GraphQL schema (SDL)',
    description:
      "The supergraph's API schema in SDL (what /graphql serves): every query and mutation with its arguments and types. Read it before graphql.execute. Off where introspection is off (NODE_ENV=production).",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { title: 'GraphQL schema (SDL)', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    errorUrl: GRAPHQL_PATH,
    structuredError: anyStructuredError,
    async run(_args, call) {
      if (!options.introspection)
        return toolRefusal(call.app, GRAPHQL_PATH, new AppError('GEN_ERR_NOT_FOUND', { message: 'The schema is not published here: introspection is off (NODE_ENV=production).' }));
      return toolResult({ sdl: schemaSdl() });
    },
  };
  const executeTool: RailTool = {
    name: 'graphql.execute',
    title: 'Run a GraphQL operation',
    description:
      'Runs one GraphQL operation (query or mutation) on the supergraph at /graphql with your credentials, and answers {data, errors} as GraphQL does. Paid fields are paid as on /graphql (an API key, or an x402 payment in _meta["x402/payment"]); a mutation acts as you.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'the operation document' },
        variables: { type: 'object', additionalProperties: true },
        operationName: { type: 'string' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { title: 'Run a GraphQL operation', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    errorUrl: GRAPHQL_PATH,
    structuredError: anyStructuredError,
    async run(args, call) {
      const answer = await runRouteRequest({ method: 'POST', url: GRAPHQL_PATH, body: args }, call);
      const body = answer.structuredContent as { data?: unknown; errors?: unknown[] } | undefined;
      // A GraphQL answer with errors and no data is a failed call; partial data with errors is an answer.
      if (!answer.isError && body?.errors && (body.data === null || body.data === undefined)) return { ...answer, isError: true };
      return answer;
    },
  };
  return [schemaTool, executeTool];
}

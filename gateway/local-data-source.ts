import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import { createCompiledExecutor, type CompiledExecutor } from '../platform/compiled-execution.js';
import { formatGraphQLError } from '../platform/graphql.js';
import type { Subgraph } from '../platform/subgraph.js';
import type { GatewayContext } from './gateway-context.js';

/**
 * Runs a subgraph fetch in-process, without HTTP.
 * 1. The gateway sends the same few subgraph operations over and over (one per query plan node),
 *    so each is parsed, validated and compiled (graphql-jit) once; LocalGraphQLDataSource
 *    re-parses, re-validates and interprets on every fetch.
 * 2. Each fetch gets a fresh subgraph context built from the gateway request's own RequestContext
 *    (the same one the subgraph's HTTP endpoint would build from the forwarded headers), so a
 *    resolver sees the same request in both layouts and DataLoaders batch within the fetch only.
 * 3. Errors are formatted exactly as the subgraph's own HTTP endpoint would format them.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  readonly #subgraph: Subgraph;
  readonly #executor: CompiledExecutor;

  constructor(subgraph: Subgraph) {
    this.#subgraph = subgraph;
    this.#executor = createCompiledExecutor(subgraph.schema);
  }

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { query, variables, operationName } = options.request;
    if (!query) return { errors: [{ message: 'subgraph request without a query' }] };
    const result = await this.#executor.execute({
      query,
      operationName,
      variables,
      contextValue: this.#subgraph.createContext(options.context.request),
    });
    return {
      ...(result.data !== undefined ? { data: result.data as Record<string, unknown> | null } : {}),
      ...(result.errors ? { errors: result.errors.map((error) => formatGraphQLError(toGraphQLError(error).toJSON(), error)) } : {}),
    };
  }
}

function toGraphQLError(error: unknown): GraphQLError {
  return error instanceof GraphQLError ? error : new GraphQLError(String(error));
}

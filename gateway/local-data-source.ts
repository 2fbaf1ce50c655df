import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import { type CompiledExecutor, createCompiledExecutor } from '../platform/compiled-execution.js';
import { formatGraphQLError } from '../platform/graphql.js';
import type { Logger } from '../platform/log.js';
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
 * 3. Errors are formatted exactly as the subgraph's own HTTP endpoint would format them. The
 *    gateway only sees the formatted error, so a server-side one (5xx code) is logged here with
 *    the error behind it and its cause chain, as the subgraph's endpoint logs it (decision 0054).
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  readonly #subgraph: Subgraph;
  readonly #executor: CompiledExecutor;
  readonly #logger: Logger | undefined;

  constructor(subgraph: Subgraph, logger?: Logger) {
    this.#subgraph = subgraph;
    this.#executor = createCompiledExecutor(subgraph.schema);
    this.#logger = logger;
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
      ...(result.errors ? { errors: result.errors.map((error) => this.#formatted(error, options.context.request.requestId)) } : {}),
    };
  }

  #formatted(error: unknown, requestId: string) {
    const graphQLError = toGraphQLError(error);
    const formatted = formatGraphQLError(graphQLError.toJSON(), error);
    if (typeof formatted.extensions?.httpStatus === 'number' && formatted.extensions.httpStatus >= 500) {
      const err = graphQLError.originalError ?? graphQLError;
      this.#logger?.error({ requestId, subgraph: this.#subgraph.name, code: formatted.extensions.code, path: formatted.path?.join('.'), err }, `subgraph ${this.#subgraph.name} error`);
    }
    return formatted;
  }
}

function toGraphQLError(error: unknown): GraphQLError {
  return error instanceof GraphQLError ? error : new GraphQLError(String(error));
}

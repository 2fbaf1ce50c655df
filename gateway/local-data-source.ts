import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute, GraphQLError, parse, validate, type DocumentNode, type GraphQLFormattedError } from 'graphql';
import { formatGraphQLError } from '../platform/graphql.js';
import type { Subgraph } from '../platform/subgraph.js';
import type { GatewayContext } from './gateway-context.js';

const MAX_CACHED_DOCUMENTS = 1000;

/**
 * Runs a subgraph fetch in-process, without HTTP.
 * 1. The gateway sends the same few subgraph operations over and over (one per query plan node),
 *    so each is parsed and validated once and its document kept; LocalGraphQLDataSource re-parses
 *    and re-validates on every fetch.
 * 2. Each fetch gets a fresh subgraph context built from the gateway request's own RequestContext
 *    (the same one the subgraph's HTTP endpoint would build from the forwarded headers), so a
 *    resolver sees the same request in both layouts and DataLoaders batch within the fetch only.
 * 3. Errors are formatted exactly as the subgraph's own HTTP endpoint would format them.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  readonly #subgraph: Subgraph;
  readonly #documents = new Map<string, DocumentNode>();

  constructor(subgraph: Subgraph) {
    this.#subgraph = subgraph;
  }

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { query, variables } = options.request;
    if (!query) return { errors: [{ message: 'subgraph request without a query' }] };
    const document = this.#documentFor(query);
    if ('errors' in document) return { errors: document.errors };
    const result = await execute({
      schema: this.#subgraph.schema,
      document: document.document,
      variableValues: variables ?? {},
      contextValue: this.#subgraph.createContext(options.context.request),
    });
    return {
      ...(result.data !== undefined ? { data: result.data as Record<string, unknown> | null } : {}),
      ...(result.errors ? { errors: result.errors.map((error) => formatGraphQLError(error.toJSON(), error)) } : {}),
    };
  }

  #documentFor(query: string): { document: DocumentNode } | { errors: GraphQLFormattedError[] } {
    const cached = this.#documents.get(query);
    if (cached) return { document: cached };
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return { errors: [(error as GraphQLError).toJSON()] };
    }
    const errors = validate(this.#subgraph.schema, document);
    if (errors.length > 0) return { errors: errors.map((error) => error.toJSON()) };
    if (this.#documents.size >= MAX_CACHED_DOCUMENTS) this.#documents.clear();
    this.#documents.set(query, document);
    return { document };
  }
}

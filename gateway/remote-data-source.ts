import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import { headersForSubgraph } from '../platform/request-context.js';
import type { GatewayContext } from './gateway-context.js';

export interface ForwardingDataSourceOptions {
  name: string;
  url: string;
  /** Longest wait for the subgraph; past it the fetch fails and the field reads SUBGRAPH_UNAVAILABLE. */
  timeoutMs: number;
}

/**
 * Reaches a subgraph in another process.
 * 1. The request context travels as headers (the platform's named headers and X-Request-Id), so
 *    the subgraph's endpoint rebuilds the same context an in-process subgraph is handed.
 * 2. Every fetch is bounded: a stopped or stuck subgraph costs one timeout, not a hung request.
 * 3. A subgraph that cannot be reached (refused, timed out, 5xx) becomes one error coded
 *    SUBGRAPH_UNAVAILABLE naming the subgraph only: never its URL or the network error.
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  readonly #name: string;

  constructor(options: ForwardingDataSourceOptions) {
    super({
      url: options.url,
      fetcher: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(options.timeoutMs) } as RequestInit),
    });
    this.#name = options.name;
  }

  override async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    try {
      return await super.process(options);
    } catch (error) {
      if (!isUnavailability(error)) throw error;
      throw new GraphQLError(`The ${this.#name} part of the graph is unavailable; the other fields were answered. Retry later.`, {
        extensions: { code: 'SUBGRAPH_UNAVAILABLE' },
        originalError: error instanceof Error ? error : undefined,
      });
    }
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const request = options.context.request;
    if (!request) return;
    for (const [name, value] of Object.entries(headersForSubgraph(request))) options.request.http?.headers.set(name, value);
  }
}

/** Network failures and timeouts throw plain errors; a 5xx answer throws a GraphQLError carrying the status. */
function isUnavailability(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return true;
  const status = (error.extensions.response as { status?: number } | undefined)?.status;
  return typeof status === 'number' && status >= 500;
}

import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { headersForSubgraph } from '../platform/request-context.js';
import type { GatewayContext } from './gateway-context.js';

export interface ForwardingDataSourceOptions {
  url: string;
  /** Longest wait for the subgraph; past it the fetch fails and the field reads SUBGRAPH_UNAVAILABLE. */
  timeoutMs: number;
}

/**
 * Reaches a subgraph in another process.
 * 1. The request context travels as headers (the platform's named headers and X-Request-Id), so
 *    the subgraph's endpoint rebuilds the same context an in-process subgraph is handed.
 * 2. Every fetch is bounded: a stopped or stuck subgraph costs one timeout, not a hung request.
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(options: ForwardingDataSourceOptions) {
    super({
      url: options.url,
      fetcher: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(options.timeoutMs) } as RequestInit),
    });
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const request = options.context.request;
    if (!request) return;
    for (const [name, value] of Object.entries(headersForSubgraph(request))) options.request.http?.headers.set(name, value);
  }
}

import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import { Pool } from 'undici';
import { headersForSubgraph, RELAYED_RESPONSE_HEADERS } from '../platform/request-context.js';
import type { GatewayContext } from './gateway-context.js';

export interface ForwardingDataSourceOptions {
  name: string;
  url: string;
  /** Longest wait for the subgraph's headers, and again for its body; past it the field reads SUBGRAPH_UNAVAILABLE. */
  timeoutMs: number;
  /** Keep-alive connections kept open to the subgraph. */
  connections?: number;
}

const DEFAULT_CONNECTIONS = 64;

/**
 * Reaches a subgraph in another process.
 * 1. Over a pool of keep-alive connections (undici), with undici's request API rather than fetch:
 *    no stream objects or abort signals made per fetch, so load does not pile up in the gateway.
 * 2. The request context travels as headers (the platform's named headers and X-Request-Id), so
 *    the subgraph's endpoint rebuilds the same context an in-process subgraph is handed.
 * 3. Every fetch is bounded: a stopped or stuck subgraph costs one timeout, not a hung request.
 * 4. The response headers a subgraph sets for the caller (a payment's X-PAYMENT-RESPONSE, the
 *    rate-limit headers of an API key) are relayed into the gateway's answer.
 * 5. A subgraph that cannot be reached (refused, timed out, 5xx, not GraphQL) becomes one error
 *    coded SUBGRAPH_UNAVAILABLE naming the subgraph only: never its URL or the network error. A
 *    4xx with GraphQL errors is the subgraph refusing the operation: its errors are passed on.
 */
export class ForwardingDataSource implements GraphQLDataSource<GatewayContext> {
  readonly #name: string;
  readonly #path: string;
  readonly #pool: Pool;

  constructor(options: ForwardingDataSourceOptions) {
    const url = new URL(options.url);
    this.#name = options.name;
    this.#path = `${url.pathname}${url.search}`;
    this.#pool = new Pool(url.origin, {
      connections: options.connections ?? DEFAULT_CONNECTIONS,
      connectTimeout: options.timeoutMs,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { query, variables, operationName } = options.request;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.context.request ? headersForSubgraph(options.context.request) : {}) };
    let answer: { statusCode: number; body: GatewayGraphQLResponse | undefined };
    try {
      const response = await this.#pool.request({ method: 'POST', path: this.#path, headers, body: JSON.stringify({ query, variables, operationName }) });
      const body = (await response.body.json()) as GatewayGraphQLResponse | undefined;
      relayResponseHeaders(response.headers, options.context.request?.responseHeaders);
      answer = { statusCode: response.statusCode, body };
    } catch (error) {
      throw this.#unavailable(error);
    }
    if (answer.statusCode >= 500 || !isGraphQLResponse(answer.body)) throw this.#unavailable(new Error(`answered HTTP ${answer.statusCode}`));
    return answer.body;
  }

  /** Closes the pooled connections (at shutdown). */
  close(): Promise<void> {
    return this.#pool.close();
  }

  #unavailable(cause: unknown): GraphQLError {
    return new GraphQLError(`The ${this.#name} part of the graph is unavailable; the other fields were answered. Retry later.`, {
      extensions: { code: 'SUBGRAPH_UNAVAILABLE' },
      originalError: cause instanceof Error ? cause : undefined,
    });
  }
}

function isGraphQLResponse(body: unknown): body is GatewayGraphQLResponse {
  return typeof body === 'object' && body !== null && ('data' in body || 'errors' in body);
}

function relayResponseHeaders(from: Record<string, string | string[] | undefined>, to: Map<string, string> | undefined): void {
  if (!to) return;
  for (const name of RELAYED_RESPONSE_HEADERS) {
    const value = from[name];
    if (typeof value === 'string') to.set(name, value);
  }
}

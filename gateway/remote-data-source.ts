import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';

/** Headers a subgraph needs from the client's request: identity, payment and tracing. */
const FORWARDED_HEADERS = ['authorization', 'x-api-key', 'x-payment', 'x-request-id', 'idempotency-key'];

export interface GatewayRequestContext {
  headers?: Record<string, string | string[] | undefined>;
}

/** Reaches a subgraph in another process and forwards the caller's auth and payment headers. */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayRequestContext> {
  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayRequestContext>): void {
    const incoming = options.context.headers ?? {};
    for (const name of FORWARDED_HEADERS) {
      const value = incoming[name];
      if (typeof value === 'string') options.request.http?.headers.set(name, value);
    }
  }
}

import type { ApolloServerOptions, BaseContext } from '@apollo/server';
import { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import { formatGraphQLError } from '../platform/graphql.js';
import type { HttpServer } from '../platform/http.js';
import type { BaseServices } from '../platform/subgraph.js';

export interface GraphQLServerRole {
  role: 'gateway' | 'subgraph';
  app: HttpServer;
}

/** The options every ApolloServer of ours shares, gateway and subgraph endpoints alike. */
export function createGraphQLServerOptions<Context extends BaseContext>(
  base: BaseServices,
  { app }: GraphQLServerRole,
): Omit<ApolloServerOptions<Context>, 'schema' | 'gateway' | 'typeDefs' | 'resolvers'> {
  const production = base.config.server.production;
  return {
    formatError: formatGraphQLError,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: production,
    introspection: !production,
    allowBatchedHttpRequests: false,
    // Apollo's own SIGTERM handler stops the server and re-raises the signal, killing the process
    // mid-drain; gateway/main.ts owns shutdown.
    stopOnTerminationSignals: false,
    plugins: [fastifyApolloDrainPlugin(app)],
  } as Omit<ApolloServerOptions<Context>, 'schema' | 'gateway' | 'typeDefs' | 'resolvers'>;
}

/** Route options of a GraphQL endpoint: Apollo's landing page loads its sandbox, so no CSP there. */
export function graphQLRouteOptions() {
  return { helmet: { contentSecurityPolicy: false } } as const;
}

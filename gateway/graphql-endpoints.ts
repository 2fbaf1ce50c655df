import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type BaseContext } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../platform/config.js';
import { formatGraphQLError } from '../platform/graphql.js';
import type { Subgraph } from '../platform/subgraph.js';
import { readSupergraph } from './compose.js';
import { InProcessDataSource } from './local-data-source.js';
import { ForwardingDataSource, type GatewayRequestContext } from './remote-data-source.js';

const GRAPHQL_METHODS = ['GET', 'POST', 'OPTIONS'] as const;

/** Serves one subgraph's schema over HTTP (for the gateway in another process, or Apollo Router). */
export async function mountSubgraphEndpoint(app: FastifyInstance, subgraph: Subgraph, path: string): Promise<ApolloServer<BaseContext>> {
  const server = new ApolloServer<BaseContext>({
    schema: subgraph.schema,
    formatError: formatGraphQLError,
    allowBatchedHttpRequests: false,
    plugins: [fastifyApolloDrainPlugin(app)],
  });
  await server.start();
  app.route({
    url: path,
    method: [...GRAPHQL_METHODS],
    handler: fastifyApolloHandler(server, { context: async () => subgraph.createContext() }),
  });
  return server;
}

/**
 * The federation gateway at /graphql over the checked-in supergraph. A subgraph built in this
 * process is reached in-process; one named in SUBGRAPH_URLS is reached over HTTP.
 */
export async function mountGateway(
  app: FastifyInstance,
  config: Config,
  localSubgraphs: Subgraph[],
  path = '/graphql',
): Promise<ApolloServer<GatewayRequestContext>> {
  const local = new Map(localSubgraphs.map((subgraph) => [subgraph.name, subgraph]));
  const gateway = new ApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name, url }) => {
      const remoteUrl = config.subgraphUrls[name as keyof Config['subgraphUrls']];
      const subgraph = local.get(name as Subgraph['name']);
      if (subgraph && !remoteUrl) return new InProcessDataSource(subgraph);
      return new ForwardingDataSource({ url: remoteUrl ?? url });
    },
  });
  const server = new ApolloServer<GatewayRequestContext>({
    gateway,
    formatError: formatGraphQLError,
    allowBatchedHttpRequests: false,
    plugins: [fastifyApolloDrainPlugin(app)],
  });
  await server.start();
  app.route({
    url: path,
    method: [...GRAPHQL_METHODS],
    handler: fastifyApolloHandler(server, {
      context: async (request) => ({ headers: request.headers }),
    }),
  });
  return server;
}

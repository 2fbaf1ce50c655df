import type { GraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import { execute, parse } from 'graphql';
import { compiledSchemaGateway } from '../platform/compiled-execution.js';
import type { Config } from '../platform/config.js';
import { AppError } from '../platform/errors.js';
import type { HttpServer } from '../platform/http.js';
import type { Logger } from '../platform/log.js';
import type { BaseServices, Subgraph, SubgraphContext } from '../platform/subgraph.js';
import { explorerOf } from '../web/explorer.js';
import { quietApolloGateway } from './apollo-gateway.js';
import { readSupergraph } from './compose.js';
import type { GatewayContext } from './gateway-context.js';
import { createGraphQLServerOptions, graphQLRouteOptions } from './graphql-options.js';
import { InProcessDataSource } from './local-data-source.js';
import { ForwardingDataSource } from './remote-data-source.js';
import { type SingleFetchOptions, SingleFetchRouter } from './single-fetch.js';
import { SUBGRAPH_NAMES } from './subgraphs.js';

const GRAPHQL_METHODS = ['GET', 'POST', 'OPTIONS'] as const;

/**
 * What a GraphQL client expects for anything that fails before Apollo sees the request (a body
 * that is not JSON, too large, a wrong method): GraphQL's own error shape, not a REST body.
 */
function registerGraphQLErrorShape(app: HttpServer, prefix: string): void {
  app.errorShapes.register({
    prefix,
    body: (error) => ({ errors: [{ message: error.message, extensions: { code: error.code } }] }),
  });
}

/** Serves one subgraph's schema over HTTP (for the gateway in another process, or Apollo Router). */
export async function mountSubgraphEndpoint(app: HttpServer, base: BaseServices, subgraph: Subgraph, path: string): Promise<ApolloServer<SubgraphContext>> {
  const server = new ApolloServer<SubgraphContext>({
    gateway: compiledSchemaGateway(subgraph.schema),
    ...createGraphQLServerOptions<SubgraphContext>(base, { role: 'subgraph', app }),
  });
  await server.start();
  registerGraphQLErrorShape(app, path);
  app.route({
    url: path,
    method: [...GRAPHQL_METHODS],
    ...graphQLRouteOptions(base, explorerOf(app)),
    handler: fastifyApolloHandler(server, { context: async (request) => subgraph.createContext(request.requestContext) }),
  });
  return server;
}

/**
 * Where the gateway reaches each subgraph: in-process when this process built it and SUBGRAPH_URLS
 * does not name it, over HTTP when SUBGRAPH_URLS names it. A subgraph that is neither is a
 * configuration error at start: falling back to the supergraph's placeholder URL would send
 * traffic to whatever listens on localhost:4000.
 */
export function planSubgraphRoutes(config: Config, localSubgraphs: readonly Subgraph[]): Map<string, { local: Subgraph } | { url: string }> {
  const routes = new Map<string, { local: Subgraph } | { url: string }>();
  const unknown = Object.keys(config.gateway.subgraphUrls).filter((name) => !SUBGRAPH_NAMES.includes(name as never));
  if (unknown.length > 0) throw new GatewayConfigError(`SUBGRAPH_URLS names unknown subgraphs: ${unknown.join(', ')}; known: ${SUBGRAPH_NAMES.join(', ')}`);
  const missing: string[] = [];
  for (const name of SUBGRAPH_NAMES) {
    const url = config.gateway.subgraphUrls[name];
    const local = localSubgraphs.find((subgraph) => subgraph.name === name);
    if (url) routes.set(name, { url });
    else if (local) routes.set(name, { local });
    else missing.push(name);
  }
  if (missing.length > 0) {
    throw new GatewayConfigError(`the gateway has no way to reach ${missing.join(', ')}: name ${missing.length === 1 ? 'it' : 'them'} in SUBGRAPH_URLS (name=url,...)`);
  }
  return routes;
}

/** The data source with each fetch counted in gateway_subgraph_fetches_total{subgraph}. */
function countedFetches(name: string, source: GraphQLDataSource<GatewayContext>, base: BaseServices): GraphQLDataSource<GatewayContext> {
  const fetches = base.metrics.subgraphFetches.labels(name);
  return {
    process(options) {
      fetches.inc();
      return source.process(options);
    },
  };
}

/** A layout the gateway cannot serve; reported at start, before anything listens. */
export class GatewayConfigError extends Error {
  override name = 'GatewayConfigError';
}

export interface GatewayMountOptions {
  path?: string;
  /** The single-fetch path (gateway/single-fetch.ts): on unless a test compares it with the planner's. */
  singleFetch?: SingleFetchOptions;
  /** The server's own gateway (default): it registers /health's subgraph checks and the explorer page, once per server. */
  primary?: boolean;
}

/** The federation gateway at /graphql over the checked-in supergraph. */
export async function mountGateway(app: HttpServer, base: BaseServices, localSubgraphs: readonly Subgraph[], options: GatewayMountOptions = {}): Promise<ApolloServer<GatewayContext>> {
  const path = options.path ?? '/graphql';
  const routes = planSubgraphRoutes(base.config, localSubgraphs);
  const primary = options.primary ?? true;
  if (primary) registerSubgraphHealthChecks(base, routes);
  const remotes: ForwardingDataSource[] = [];
  const singleFetch = new SingleFetchRouter(options.singleFetch);
  const sourceOf = (name: string): GraphQLDataSource<GatewayContext> => {
    const route = routes.get(name);
    if (!route) throw new GatewayConfigError(`the supergraph names subgraph ${name}, which is not registered`);
    if ('local' in route) return countedFetches(name, new InProcessDataSource(route.local, base.logger), base);
    const remote = new ForwardingDataSource({ name, url: route.url, timeoutMs: base.config.gateway.subgraphTimeoutMs });
    remotes.push(remote);
    return countedFetches(name, remote, base);
  };
  const apolloGateway = quietApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name }) => singleFetch.source(name, sourceOf(name)),
    experimental_didResolveQueryPlan: singleFetch.didResolveQueryPlan,
  });
  const gateway = singleFetch.gateway(apolloGateway);
  // After the last request has drained: the pooled subgraph connections go with the server.
  app.addHook('onClose', async () => {
    await Promise.all(remotes.map((remote) => remote.close()));
  });
  const server = new ApolloServer<GatewayContext>({ gateway, ...createGraphQLServerOptions<GatewayContext>(base, { role: 'gateway', app }) });
  await server.start();
  registerGraphQLErrorShape(app, path);
  app.route({
    url: path,
    method: [...GRAPHQL_METHODS],
    ...graphQLRouteOptions(base, explorerOf(app)),
    handler: fastifyApolloHandler(server, { context: async (request) => ({ request: request.requestContext }) }),
  });
  if (primary) explorerOf(app).addPage('/explorer');
  return server;
}

const TYPENAME_QUERY = '{ __typename }';

/** /health asks each subgraph a trivial query the way the gateway reaches it: in-process or over HTTP. */
function registerSubgraphHealthChecks(base: BaseServices, routes: Map<string, { local: Subgraph } | { url: string }>): void {
  for (const [name, route] of routes) {
    base.health.register({
      name: `subgraph ${name}`,
      check: 'local' in route ? () => checkLocalSubgraph(route.local) : () => checkRemoteSubgraph(route.url, base.logger),
    });
  }
}

async function checkLocalSubgraph(subgraph: Subgraph): Promise<void> {
  const result = await execute({ schema: subgraph.schema, document: parse(TYPENAME_QUERY) });
  if (result.errors?.length || (result.data as { __typename?: string } | null)?.__typename !== 'Query') {
    throw new AppError('GEN_ERR_UNAVAILABLE', { message: `subgraph ${subgraph.name} did not answer ${TYPENAME_QUERY}` });
  }
}

async function checkRemoteSubgraph(url: string, logger: Logger): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
    body: JSON.stringify({ query: TYPENAME_QUERY }),
    signal: AbortSignal.timeout(2000),
  });
  const body = (await response.json().catch(() => undefined)) as { data?: { __typename?: string } } | undefined;
  if (!response.ok || body?.data?.__typename !== 'Query') {
    logger.debug({ status: response.status }, 'subgraph health check answered unexpectedly');
    throw new Error(`answered HTTP ${response.status}`);
  }
}

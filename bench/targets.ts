import { readFileSync } from 'node:fs';
import { LocalGraphQLDataSource, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import mercuriusGateway from '@mercuriusjs/gateway';
import Fastify, { type FastifyInstance } from 'fastify';
import { quietApolloGateway } from '../gateway/apollo-gateway.js';
import { readSupergraph } from '../gateway/compose.js';
import { createBaseServices, createPlatformServices } from '../gateway/platform-services.js';
import { buildSubgraphs, SUBGRAPH_NAMES } from '../gateway/subgraphs.js';
import { systemClock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { createRequestContext } from '../platform/request-context.js';

/**
 * The baselines, one per child process (bench/processes.ts spawns them, pinned to the server core),
 * so the load generator never shares an event loop with what it measures. Each prints
 * `listening on http://127.0.0.1:<port>` once it listens, like gateway/main.ts does.
 *
 *   targets.ts bare-fastify <routes.json>   the captured rail responses, from bare Fastify routes
 *   targets.ts naive-apollo                 @apollo/server + @apollo/gateway over in-process subgraphs
 *   targets.ts stock-apollo-gateway         @apollo/gateway + RemoteGraphQLDataSource to SUBGRAPH_URLS
 *   targets.ts mercurius-gateway <a,b>      @mercuriusjs/gateway over the named services of SUBGRAPH_URLS (their SDL in Federation 1 form)
 */

/** One route of the bare Fastify baseline: the rail's response, captured at the same method and path. */
export interface BareRoute {
  method: 'GET' | 'POST';
  /** Path without the query string (Fastify routes on the path). */
  path: string;
  body: string;
}

const benchConfig = () => loadConfig({ DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: 'silent', PORT: '0' });

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

/** Bare Fastify routes returning the JSON of real rail responses: the ceiling for any REST handler. */
async function startBareFastify(routesFile: string): Promise<number> {
  const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as BareRoute[];
  const app = Fastify();
  for (const route of routes) {
    const payload = JSON.parse(route.body) as unknown;
    app.route({ method: route.method, url: route.path, handler: async () => payload });
  }
  return listen(app);
}

/** What a first attempt looks like: Apollo defaults, LocalGraphQLDataSource, standalone server. */
async function startNaiveApollo(): Promise<number> {
  const config = benchConfig();
  const { services } = await createPlatformServices(createBaseServices(config));
  const subgraphs = new Map(buildSubgraphs(services, SUBGRAPH_NAMES).map((subgraph) => [subgraph.name as string, subgraph]));
  const gateway = quietApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name }) => new LocalGraphQLDataSource(subgraphs.get(name)!.schema),
  });
  const server = new ApolloServer({ gateway });
  const { url } = await startStandaloneServer(server, {
    listen: { port: 0, host: '127.0.0.1' },
    context: async ({ req }) => ({ ...subgraphs.get('fees')!.createContext(createRequestContext(req.headers, systemClock)) }), // LocalGraphQLDataSource passes one context to every subgraph
  });
  return Number(new URL(url).port);
}

/** SUBGRAPH_URLS (`name=url,...`), read with the platform's own parser. */
function subgraphUrls(): Record<string, string> {
  return loadConfig({ SUBGRAPH_URLS: process.env.SUBGRAPH_URLS }).gateway.subgraphUrls;
}

/** Stock @apollo/gateway: the checked-in supergraph, RemoteGraphQLDataSource, @apollo/server standalone. */
async function startStockApolloGateway(): Promise<number> {
  const urls = subgraphUrls();
  const gateway = quietApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name }) => new RemoteGraphQLDataSource({ url: urls[name] }),
  });
  const { url } = await startStandaloneServer(new ApolloServer({ gateway }), { listen: { port: 0, host: '127.0.0.1' } });
  return Number(new URL(url).port);
}

/**
 * A subgraph's own SDL (`_service { sdl }`) in the Federation 1 form @mercuriusjs/gateway reads.
 * @apollo/subgraph prints a Federation 2 subgraph with the federation directives' definitions
 * (`directive @requires(fields: federation__FieldSet!)`, `@key`, `@link` ...); mercurius adds its
 * own Federation 1 definitions (`@requires(fields: _FieldSet!)`) and refuses two definitions of one
 * name ("Directive with a different definition but the same name"). Without the `@link` schema
 * extensions and those definitions, mercurius's stand; the types and fields are untouched.
 */
async function federationOneSdl(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  });
  const body = (await response.json()) as { data?: { _service?: { sdl?: string } } };
  const sdl = body.data?._service?.sdl;
  if (!sdl) throw new Error(`${url} did not answer _service { sdl } (HTTP ${response.status})`);
  const federationDirectives = /^directive @(key|requires|provides|external|extends|link|shareable|federation__\w+)\b/;
  return sdl
    .replace(/^schema\s*@link\([^)]*\)\s*\{[^}]*\}\s*/m, '')
    .replace(/^extend schema\s*@link\([^)]*\)\s*/m, '')
    .split('\n')
    .filter((line) => !federationDirectives.test(line))
    .join('\n');
}

/** @mercuriusjs/gateway on Fastify over the named services of SUBGRAPH_URLS, each given its SDL in Federation 1 form. */
async function startMercuriusGateway(names: string): Promise<number> {
  const urls = subgraphUrls();
  const services = await Promise.all(
    names.split(',').map(async (name) => {
      const url = urls[name];
      if (!url) throw new Error(`SUBGRAPH_URLS does not name ${name}`);
      return { name, url, schema: await federationOneSdl(url) };
    }),
  );
  const app = Fastify();
  await app.register(mercuriusGateway.default, { gateway: { services } }); // CommonJS: its typings put the plugin at .default (fastify-plugin sets it)
  return listen(app);
}

function start(kind: string | undefined, argument: string | undefined): Promise<number> {
  switch (kind) {
    case 'bare-fastify':
      return startBareFastify(argument ?? '');
    case 'naive-apollo':
      return startNaiveApollo();
    case 'stock-apollo-gateway':
      return startStockApolloGateway();
    case 'mercurius-gateway':
      return startMercuriusGateway(argument ?? '');
    default:
      return Promise.reject(new Error(`unknown target ${kind}`));
  }
}

process.once('SIGTERM', () => process.exit(0));

const [kind, argument] = process.argv.slice(2);
start(kind, argument).then(
  (port) => process.stdout.write(`listening on http://127.0.0.1:${port}\n`),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloGateway, LocalGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import Fastify from 'fastify';
import { loadConfig } from '../platform/config.js';
import { readSupergraph } from '../gateway/compose.js';
import { createBaseServices, createPlatformServices } from '../gateway/platform-services.js';
import { buildServer } from '../gateway/server.js';
import { buildSubgraphs, SUBGRAPH_NAMES } from '../gateway/subgraphs.js';
import { createRequestContext } from '../platform/request-context.js';
import { systemClock } from '../platform/clock.js';

/**
 * One benchmark target per child process, so the load generator never shares a core's event loop
 * with the server it measures. Prints `{"port": N}` once listening.
 */
const benchConfig = () =>
  loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'srg-bench-')), LOG_LEVEL: 'silent', PORT: '0' });

async function startRail(): Promise<number> {
  const server = await buildServer({ config: benchConfig() });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return (server.app.server.address() as { port: number }).port;
}

/** A bare Fastify route returning the JSON of one real quote: the ceiling for any REST handler. */
async function startBareFastify(body: string): Promise<number> {
  const app = Fastify();
  const payload = JSON.parse(body) as unknown;
  app.get('/stability/quote', async () => payload);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

/** What a first attempt looks like: Apollo defaults, LocalGraphQLDataSource, standalone server. */
async function startNaiveApollo(): Promise<number> {
  const config = benchConfig();
  const { services } = await createPlatformServices(createBaseServices(config));
  const subgraphs = new Map(buildSubgraphs(services, SUBGRAPH_NAMES).map((subgraph) => [subgraph.name as string, subgraph]));
  const gateway = new ApolloGateway({
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

process.once('SIGTERM', () => process.exit(0));

async function main(): Promise<void> {
  const [kind, argument] = process.argv.slice(2);
  const port =
    kind === 'rail' ? await startRail()
    : kind === 'bare-fastify' ? await startBareFastify(argument ?? '{}')
    : kind === 'naive-apollo' ? await startNaiveApollo()
    : Number.NaN;
  if (Number.isNaN(port)) throw new Error(`unknown target ${kind}`);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { FastifyPluginAsync } from 'fastify';
import { type DocumentNode, type GraphQLSchema, parse } from 'graphql';
import type { Access } from './access/admission.js';
import type { RailChain } from './chain/index.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db.js';
import type { Health } from './health.js';
import type { IdSource } from './ids.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import type { RequestContext } from './request-context.js';
import type { HmacSigner } from './signing.js';
import type { Synthesiser } from './synthesis.js';
import type { Upstream } from './upstream.js';

/** What every process has, the gateway alone included: no database, no keys. */
export interface BaseServices {
  config: Config;
  logger: Logger;
  clock: Clock;
  metrics: Metrics;
  health: Health;
}

/** Everything a subgraph may use from the platform; handed to each subgraph's build(). */
export interface PlatformServices extends BaseServices {
  ids: IdSource;
  database: DatabaseHandle;
  signer: HmacSigner;
  synthesiser: Synthesiser;
  /** The rail's chain (Base through RPC_URL, or the embedded EVM), connected on first use. */
  chain: RailChain;
  /** API keys and x402 payments for paid routes and fields (platform/access). */
  access: Access;
  /**
   * Other subgraphs' public REST interfaces (platform/upstream.ts): over HTTP for those SERVICE_URLS
   * names, else in-process through this server's routes, resolved at call time (the server is
   * built after the subgraphs).
   */
  upstream: Upstream;
}

/** What every resolver of every subgraph receives: the request, plus the subgraph's own per-request state. */
export interface SubgraphContext {
  request: RequestContext;
}

/** The public face every subgraph's index.ts returns from build(). */
export interface Subgraph {
  name: string;
  typeDefs: DocumentNode;
  schema: GraphQLSchema;
  /** The REST base paths the subgraph answers under (e.g. `/stability`), for the banner and the docs. */
  restPrefixes: readonly string[];
  /** Fastify plugin registering the subgraph's documented REST paths, prefixes included. */
  routes: FastifyPluginAsync;
  /**
   * A fresh per-request context (DataLoaders live here, so batching never leaks across requests),
   * built from the same RequestContext in every layout.
   */
  createContext(request: RequestContext): SubgraphContext;
  /** Start-time work after migrations and before the first request (e.g. compliance's reference-data import); a failure stops the start. */
  start?(): Promise<void>;
  /** Finishes background work (write-behind queues) at shutdown, after the last request and before the database closes. */
  close?(): Promise<void>;
}

/** What each subgraph's index.ts exports; gateway/subgraphs.ts lists them, and that list is all there is. */
export interface SubgraphModule<Name extends string = string> {
  name: Name;
  build(platform: PlatformServices): Subgraph;
}

export function loadSubgraphTypeDefs(name: string): DocumentNode {
  return parse(subgraphSdl(name));
}

/**
 * `@rest` on a field (a root field, or an entity's field such as LegalEntity.ownershipChain) names the documented REST routes it answers for, as "METHOD /path" with the
 * path as the all-in-one server mounts it (`GET /compliance/agent/:id`). test/capabilities.test.ts
 * reads it to prove every documented route has a field; composition leaves it out of the supergraph.
 */
export const REST_DIRECTIVE_SDL = 'directive @rest(routes: [String!]!) on FIELD_DEFINITION';

/** The SDL of a subgraph: the @rest definition, schema/<name>.graphql, then its families' files (familySchemas). */
export function subgraphSdl(name: string): string {
  const path = fileURLToPath(new URL(`../schema/${name}.graphql`, import.meta.url));
  return [REST_DIRECTIVE_SDL, readFileSync(path, 'utf8'), ...familySchemas(name)].join('\n');
}

/** schema/<name>/*.graphql: the SDL of a subgraph's families, one file each, appended in name order. */
function familySchemas(name: string): string[] {
  const folder = fileURLToPath(new URL(`../schema/${name}/`, import.meta.url));
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(join(folder, file), 'utf8'));
}

/**
 * buildSubgraphSchema types its resolver map loosely; our resolvers are plain objects whose
 * argument and context types are checked where they are written. The cast is confined here.
 */
export function buildFederatedSchema(typeDefs: DocumentNode, resolvers: Record<string, unknown>): GraphQLSchema {
  return buildSubgraphSchema([{ typeDefs, resolvers: resolvers as never }]);
}

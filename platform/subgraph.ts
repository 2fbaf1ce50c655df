import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Clock } from './clock.js';
import type { Config, SubgraphName } from './config.js';
import type { DatabaseHandle } from './db.js';
import type { IdSource } from './ids.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import type { HmacSigner } from './signing.js';
import type { Synthesiser } from './synthesis.js';


/** Everything a subgraph may use from the platform; handed to each subgraph's build(). */
export interface PlatformServices {
  config: Config;
  logger: Logger;
  clock: Clock;
  ids: IdSource;
  database: DatabaseHandle;
  metrics: Metrics;
  signer: HmacSigner;
  synthesiser: Synthesiser;
}

/** The public face every subgraph's index.ts returns from build(). */
export interface Subgraph {
  name: SubgraphName;
  typeDefs: DocumentNode;
  schema: GraphQLSchema;
  /** Fastify plugin registering the subgraph's documented REST paths, prefixes included. */
  routes: FastifyPluginAsync;
  /** A fresh per-request context (DataLoaders live here, so batching never leaks across requests). */
  createContext(): object;
}

export function loadSubgraphTypeDefs(name: SubgraphName): DocumentNode {
  const path = fileURLToPath(new URL(`../schema/${name}.graphql`, import.meta.url));
  return parse(readFileSync(path, 'utf8'));
}

/**
 * buildSubgraphSchema types its resolver map loosely; our resolvers are plain objects whose
 * argument and context types are checked where they are written. The cast is confined here.
 */
export function buildFederatedSchema(typeDefs: DocumentNode, resolvers: Record<string, unknown>): GraphQLSchema {
  return buildSubgraphSchema([{ typeDefs, resolvers: resolvers as never }]);
}

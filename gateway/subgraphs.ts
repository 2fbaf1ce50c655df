import type { PlatformServices, Subgraph, SubgraphModule } from '../platform/subgraph.js';
import * as compliance from '../subgraphs/compliance/index.js';
import * as fees from '../subgraphs/fees/index.js';
import * as forecast from '../subgraphs/forecast/index.js';
import * as intelligence from '../subgraphs/intelligence/index.js';
import * as payments from '../subgraphs/payments/index.js';

/**
 * Every subgraph, in composition order. This list is the registry: the gateway, the composition,
 * `serve <name>`, SUBGRAPH_URLS and the tests all read it. Adding a subgraph is one line here
 * (docs/subgraph-template.md).
 */
export const subgraphModules = [fees, forecast, intelligence, compliance, payments] as const satisfies readonly SubgraphModule[];

export type SubgraphName = (typeof subgraphModules)[number]['name'];
export const SUBGRAPH_NAMES: readonly SubgraphName[] = subgraphModules.map((module) => module.name);

export function isSubgraphName(name: string): name is SubgraphName {
  return (SUBGRAPH_NAMES as readonly string[]).includes(name);
}

export function buildSubgraphs(platform: PlatformServices, names: readonly SubgraphName[]): Subgraph[] {
  return names.map((name) => {
    const module = subgraphModules.find((candidate) => candidate.name === name);
    if (!module) throw new Error(`subgraph ${name} is not registered in gateway/subgraphs.ts`);
    return module.build(platform);
  });
}

import type { PlatformServices, Subgraph, SubgraphModule } from '../platform/subgraph.js';
import * as compliance from '../subgraphs/compliance/index.js';
import * as fees from '../subgraphs/fees/index.js';
import * as forecast from '../subgraphs/forecast/index.js';
import * as intelligence from '../subgraphs/intelligence/index.js';
import * as payments from '../subgraphs/payments/index.js';
import { SUBGRAPH_NAMES, type SubgraphName } from './subgraph-names.js';

export { isSubgraphName, SUBGRAPH_NAMES, type SubgraphName } from './subgraph-names.js';

/**
 * Every subgraph, in composition order. This list is the registry: the gateway, the composition,
 * `serve <name>`, SUBGRAPH_URLS and the tests all read it. Adding a subgraph is one line here and
 * its name in gateway/subgraph-names.ts, for the command line (docs/subgraph-template.md).
 */
export const subgraphModules = [fees, forecast, intelligence, compliance, payments] as const satisfies readonly SubgraphModule[];

// The same names as gateway/subgraph-names.ts (both ways, checked by tsc), in the same order (checked at load).
const moduleNames: readonly SubgraphName[] = subgraphModules.map((module) => module.name);
const listedNames: readonly (typeof subgraphModules)[number]['name'][] = SUBGRAPH_NAMES;
if (moduleNames.join(',') !== listedNames.join(',')) {
  throw new Error(`gateway/subgraph-names.ts lists ${SUBGRAPH_NAMES.join(', ')}; gateway/subgraphs.ts registers ${moduleNames.join(', ')}: the same names in the same order`);
}

export function buildSubgraphs(platform: PlatformServices, names: readonly SubgraphName[]): Subgraph[] {
  return names.map((name) => {
    const module = subgraphModules.find((candidate) => candidate.name === name);
    if (!module) throw new Error(`subgraph ${name} is not registered in gateway/subgraphs.ts`);
    return module.build(platform);
  });
}

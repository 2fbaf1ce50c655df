import type { SubgraphName } from '../platform/config.js';
import type { PlatformServices, Subgraph } from '../platform/subgraph.js';
import * as fees from '../subgraphs/fees/index.js';
import * as forecast from '../subgraphs/forecast/index.js';

/** Every subgraph module by name; the gateway and tests compose them from this one list. */
export const subgraphModules: Partial<Record<SubgraphName, { name: string; build(platform: PlatformServices): Subgraph }>> = {
  fees,
  forecast,
};

export function buildSubgraphs(platform: PlatformServices, names: SubgraphName[]): Subgraph[] {
  return names.map((name) => {
    const module = subgraphModules[name];
    if (!module) throw new Error(`subgraph ${name} is not implemented`);
    return module.build(platform);
  });
}

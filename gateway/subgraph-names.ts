/**
 * The subgraphs' names, in composition order, without their code: what the command line needs
 * (`npm start -- --help` lists them, `serve <name>` checks one) before it loads any subgraph.
 * gateway/subgraphs.ts, the registry, refuses to load when its modules and this list differ.
 */
export const SUBGRAPH_NAMES = ['fees', 'forecast', 'intelligence', 'compliance', 'payments'] as const;

export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

export function isSubgraphName(name: string): name is SubgraphName {
  return (SUBGRAPH_NAMES as readonly string[]).includes(name);
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { subgraphSdl } from '../platform/subgraph.js';
import { SUBGRAPH_NAMES } from './subgraphs.js';

export const supergraphPath = fileURLToPath(new URL('../schema/supergraph.graphql', import.meta.url));

/** Where Apollo Router (or a gateway without in-process subgraphs) reaches each subgraph by default. */
export function defaultSubgraphUrl(name: string): string {
  return `http://localhost:4000/subgraphs/${name}/graphql`;
}

/** Composes every SDL in schema/ with @apollo/composition; throws with the composition errors. */
export function composeSupergraph(names: readonly string[] = SUBGRAPH_NAMES): string {
  const result = composeServices(names.map((name) => ({ name, url: defaultSubgraphUrl(name), typeDefs: parse(subgraphSdl(name)) })));
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => `- ${error.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}

export function readSupergraph(): string {
  return readFileSync(supergraphPath, 'utf8');
}

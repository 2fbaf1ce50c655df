import { z } from 'zod';
import { type CatalogueNode, catalogueNodes } from './catalogue.js';
import type { Network } from './domain/index.js';

/** What GET /butterfly and GET /contagion answer (free, decision 0072): every node a request may name. */
export interface NodeListing {
  model: string;
  count: number;
  domains: Array<{ domain: string; prefix: string; label: string; count: number }>;
  nodes: CatalogueNode[];
}

export const nodeListingSchema = z.object({
  model: z.string(),
  count: z.number().int(),
  domains: z.array(z.object({ domain: z.string(), prefix: z.string().describe('the part of a node id before the dot'), label: z.string(), count: z.number().int() })),
  nodes: z.array(z.object({ id: z.string().describe('`<prefix>.<name>`: the value of `origin`'), label: z.string(), domain: z.string(), description: z.string() })),
});

export function nodeListing(model: string, network: Network<unknown>): NodeListing {
  const nodes = catalogueNodes(network);
  return {
    model,
    count: nodes.length,
    domains: network.domains.map(({ domain, prefix, label }) => ({ domain, prefix, label, count: nodes.filter((node) => node.domain === domain).length })),
    nodes,
  };
}

import { z } from 'zod';
import butterflyJson from '../data/simulation/butterfly-network.json' with { type: 'json' };
import contagionJson from '../data/simulation/contagion-network.json' with { type: 'json' };
import { type ContagionNetwork, type Network, RESPONSE_CLASSES, type ShockNetwork } from './domain/index.js';

/**
 * The node and edge catalogues of the simulations (data/simulation/, decision 0071), checked at load:
 * ids `<prefix>.<name>` with the prefix of their domain, unique; every edge between two known nodes,
 * never a loop; weights and lags in range. Exported for any endpoint that lists the models' graph.
 */
const domainSchema = z.object({ domain: z.string().min(1), prefix: z.string().regex(/^[a-z]+$/), label: z.string().min(1) });
const nodeSchema = z.object({ id: z.string().regex(/^[a-z]+\.[a-z0-9_]+$/), label: z.string().min(1), domain: z.string().min(1), description: z.string().min(1) });
const edgeBase = { from: z.string(), to: z.string(), class: z.string().regex(/^[a-z]+(-[a-z]+)*$/), mechanism: z.string().min(1) };

export const shockEdgeSchema = z.object({
  ...edgeBase,
  // Strictly below 1 so that every step attenuates: a reached node never carries more than its parent.
  weight: z.number().gt(0).max(0.95),
  lagHours: z.number().int().min(1).max(8760),
  response: z.enum(RESPONSE_CLASSES),
});
export const contagionEdgeSchema = z.object({ ...edgeBase, weight: z.number().gt(0).max(1) });

type Checked = { domains: Array<z.infer<typeof domainSchema>>; nodes: Array<z.infer<typeof nodeSchema>>; edges: Array<{ from: string; to: string; response?: string }> };

function checkGraph(network: Checked, context: z.RefinementCtx): void {
  const prefixes = new Map(network.domains.map((domain) => [domain.domain, domain.prefix]));
  const ids = new Set<string>();
  network.nodes.forEach((node, position) => {
    if (ids.has(node.id)) context.addIssue({ code: 'custom', path: ['nodes', position, 'id'], message: `duplicate node id ${node.id}` });
    ids.add(node.id);
    const prefix = prefixes.get(node.domain);
    if (prefix === undefined) context.addIssue({ code: 'custom', path: ['nodes', position, 'domain'], message: `unknown domain ${node.domain}` });
    else if (!node.id.startsWith(`${prefix}.`)) context.addIssue({ code: 'custom', path: ['nodes', position, 'id'], message: `must start with ${prefix}.` });
  });
  const seen = new Set<string>();
  network.edges.forEach((edge, position) => {
    for (const end of ['from', 'to'] as const) if (!ids.has(edge[end])) context.addIssue({ code: 'custom', path: ['edges', position, end], message: `unknown node ${edge[end]}` });
    if (edge.from === edge.to) context.addIssue({ code: 'custom', path: ['edges', position], message: 'an edge never loops to its own node' });
    const key = JSON.stringify([edge.from, edge.to, edge.response ?? '']);
    if (seen.has(key)) context.addIssue({ code: 'custom', path: ['edges', position], message: 'duplicate edge' });
    seen.add(key);
  });
}

const networkShape = { description: z.string(), domains: z.array(domainSchema).min(1), nodes: z.array(nodeSchema).min(1) };
export const shockNetworkSchema = z.object({ ...networkShape, edges: z.array(shockEdgeSchema) }).superRefine(checkGraph);
export const contagionNetworkSchema = z.object({ ...networkShape, edges: z.array(contagionEdgeSchema) }).superRefine(checkGraph);

function loadOnce<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

/** The 25-node network of the butterfly and aftershock simulations. */
export const loadButterflyNetwork: () => ShockNetwork = loadOnce(() => shockNetworkSchema.parse(butterflyJson));

/** The 30-node network of the contagion simulation. */
export const loadContagionNetwork: () => ContagionNetwork = loadOnce(() => contagionNetworkSchema.parse(contagionJson));

/** A node as the discovery listings show it. */
export interface CatalogueNode {
  id: string;
  label: string;
  domain: string;
  description: string;
}

export function catalogueNodes(network: Network<unknown>): CatalogueNode[] {
  return network.nodes.map(({ id, label, domain, description }) => ({ id, label, domain, description }));
}

/** The aftershock event types of Document 3 §3, carried by each edge of the shock network as the kind of response it produces. */
export const RESPONSE_CLASSES = ['amplified', 'rebound', 'structural'] as const;
export type ResponseClass = (typeof RESPONSE_CLASSES)[number];

export interface NetworkDomain {
  domain: string;
  /** The part of a node id before the dot (`geo` for geopolitical). */
  prefix: string;
  label: string;
}

export interface NetworkNode {
  /** `<prefix>.<name>`, e.g. `geo.conflict`. */
  id: string;
  label: string;
  domain: string;
  description: string;
}

/** A directed channel of the butterfly and aftershock network. */
export interface ShockEdge {
  from: string;
  to: string;
  /** Share of the parent's magnitude that reaches the child, in (0, 0.95]: a shock only attenuates. */
  weight: number;
  /** Hours from the parent being hit to the effect showing in the child. */
  lagHours: number;
  response: ResponseClass;
  /** Evidence class, cited in docs/intelligence/network-catalogue.md. */
  class: string;
  mechanism: string;
}

/** A directed channel of the contagion network. */
export interface ContagionEdge {
  from: string;
  to: string;
  /** Weekly transmission propensity at full magnitude, in (0, 1], before the model's transmission scale. */
  weight: number;
  class: string;
  mechanism: string;
}

export interface Network<Edge> {
  domains: readonly NetworkDomain[];
  nodes: readonly NetworkNode[];
  edges: readonly Edge[];
}

export type ShockNetwork = Network<ShockEdge>;
export type ContagionNetwork = Network<ContagionEdge>;

export function nodeById(network: Network<unknown>, id: string): NetworkNode {
  const node = network.nodes.find((candidate) => candidate.id === id);
  if (!node) throw new Error(`no node ${id} in the network`);
  return node;
}

/** Rounded for an answer; the computation keeps full precision. */
export function rounded(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

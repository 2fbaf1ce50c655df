import type { ShockEdge, ShockNetwork } from './network.js';

/**
 * Where a shock stands when it reaches a state of the network: a node (butterfly) or a node with the
 * response that reached it (aftershock).
 */
export interface Reach {
  state: string;
  node: string;
  /** Attenuated magnitude on the 1-100 scale of the input. */
  magnitude: number;
  arrivalHours: number;
  /** Node ids from the origin to the parent, origin first (empty for the origin). */
  via: string[];
  /** The edge that delivered the shock (null for the origin). */
  edge: ShockEdge | null;
}

export interface PropagationRequest {
  origin: string;
  magnitude: number;
  horizonHours: number;
  /** Below this magnitude a shock is dropped. */
  floor: number;
  /** The state an edge leads to: its target node, or the target with the edge's response. */
  stateOf(edge: ShockEdge): string;
  /** The state of the origin. */
  originState: string;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The out-edges of each node, in a fixed order so that ties resolve the same way every run. */
function outEdgesByNode(network: ShockNetwork): Map<string, ShockEdge[]> {
  const byNode = new Map<string, ShockEdge[]>();
  const sorted = [...network.edges].sort((a, b) => compareText(a.from, b.from) || compareText(a.to, b.to) || compareText(a.response, b.response));
  for (const edge of sorted) byNode.set(edge.from, [...(byNode.get(edge.from) ?? []), edge]);
  return byNode;
}

/** The stronger reach first; at equal magnitude the earlier, then by state and path: one order, whatever the input order. */
function strength(a: Reach, b: Reach): number {
  return b.magnitude - a.magnitude || a.arrivalHours - b.arrivalHours || compareText(a.state, b.state) || compareText(a.via.join('>'), b.via.join('>'));
}

function strongestOpen(open: Map<string, Reach>): Reach | undefined {
  let best: Reach | undefined;
  for (const reach of open.values()) if (!best || strength(reach, best) < 0) best = reach;
  return best;
}

/**
 * DebtRank-style propagation with attenuation (Battiston et al. 2012, "DebtRank: too central to
 * fail?", Scientific Reports 2:541): the shock leaves the origin along weighted directed edges, each
 * state is reached once and passes the shock on once (so no cycle amplifies it), magnitude = parent
 * magnitude × edge weight (≤ 0.95) and arrival = parent arrival + edge lag. A state takes the
 * strongest shock that reaches it (settled in order of decreasing magnitude, as a widest-path
 * search); a shock below `floor` or arriving after `horizonHours` stops. Returns the states reached,
 * origin first, in the order they settled.
 */
export function propagateShock(network: ShockNetwork, request: PropagationRequest): Reach[] {
  const outEdges = outEdgesByNode(network);
  const open = new Map<string, Reach>([[request.originState, { state: request.originState, node: request.origin, magnitude: request.magnitude, arrivalHours: 0, via: [], edge: null }]]);
  const settled = new Map<string, Reach>();
  for (let next = strongestOpen(open); next; next = strongestOpen(open)) {
    open.delete(next.state);
    settled.set(next.state, next);
    for (const edge of outEdges.get(next.node) ?? []) {
      const candidate: Reach = {
        state: request.stateOf(edge),
        node: edge.to,
        magnitude: next.magnitude * edge.weight,
        arrivalHours: next.arrivalHours + edge.lagHours,
        via: [...next.via, next.node],
        edge,
      };
      if (candidate.magnitude < request.floor || candidate.arrivalHours > request.horizonHours || settled.has(candidate.state)) continue;
      const incumbent = open.get(candidate.state);
      if (!incumbent || strength(candidate, incumbent) < 0) open.set(candidate.state, candidate);
    }
  }
  return [...settled.values()];
}

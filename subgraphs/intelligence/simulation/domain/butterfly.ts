import { type NetworkNode, nodeById, rounded, type ShockNetwork } from './network.js';
import { propagateShock, type Reach } from './propagation.js';

export interface ButterflyParameters {
  /** A shock below this magnitude (1-100 scale) is lost in ordinary variation and stops. */
  magnitudeFloor: number;
  magnitudeDecimals: number;
}

export interface ButterflyRequest {
  origin: string;
  eventType: string;
  magnitude: number;
  horizonHours: number;
}

export interface CascadeStep {
  node: { id: string; label: string; domain: string };
  magnitude: number;
  arrivalHours: number;
  via: string[];
  mechanism: string;
}

export interface Butterfly {
  origin: { id: string; label: string; domain: string; description: string };
  eventType: string;
  inputMagnitude: number;
  horizonHours: number;
  cascade: CascadeStep[];
  synthesis: string;
  computedAt: string;
}

function stepOf(network: ShockNetwork, reach: Reach, decimals: number): CascadeStep {
  const { id, label, domain } = nodeById(network, reach.node);
  return { node: { id, label, domain }, magnitude: rounded(reach.magnitude, decimals), arrivalHours: reach.arrivalHours, via: reach.via, mechanism: reach.edge!.mechanism };
}

/** Time order: earliest first; at the same hour the stronger, then by id. */
function byArrival(a: CascadeStep, b: CascadeStep): number {
  return a.arrivalHours - b.arrivalHours || b.magnitude - a.magnitude || (a.node.id < b.node.id ? -1 : 1);
}

/** The cascade of a shock at `origin` over the network, in time order (the origin itself is not a step). */
export function butterflyCascade(network: ShockNetwork, request: ButterflyRequest, parameters: ButterflyParameters): CascadeStep[] {
  const reached = propagateShock(network, {
    origin: request.origin,
    originState: request.origin,
    magnitude: request.magnitude,
    horizonHours: request.horizonHours,
    floor: parameters.magnitudeFloor,
    stateOf: (edge) => edge.to,
  });
  return reached
    .slice(1)
    .map((reach) => stepOf(network, reach, parameters.magnitudeDecimals))
    .sort(byArrival);
}

function pathText(network: ShockNetwork, step: CascadeStep): string {
  return [...step.via, step.node.id].map((id) => nodeById(network, id).label).join(' → ');
}

/** The synthesis, composed from the computed cascade. */
function butterflySynthesis(network: ShockNetwork, origin: NetworkNode, request: ButterflyRequest, cascade: CascadeStep[], parameters: ButterflyParameters): string {
  const shock = `${request.eventType} (${origin.label}, magnitude ${request.magnitude})`;
  if (cascade.length === 0) return `${shock}: no other node is reached at magnitude ${parameters.magnitudeFloor} or more within ${request.horizonHours} hours.`;
  const domains = [...new Set(cascade.map((step) => step.node.domain))];
  const first = cascade[0]!;
  const strongest = [...cascade].sort((a, b) => b.magnitude - a.magnitude || a.arrivalHours - b.arrivalHours)[0]!;
  const last = cascade.at(-1)!;
  const sentences = [
    `${shock} reaches ${cascade.length} of ${network.nodes.length - 1} nodes within ${request.horizonHours} hours, across ${domains.length} domain${domains.length === 1 ? '' : 's'} (${domains.join(', ')}).`,
    `First: ${first.node.label} after ${first.arrivalHours} hours at magnitude ${first.magnitude}, as ${first.mechanism}.`,
  ];
  if (strongest !== first) sentences.push(`Strongest: ${strongest.node.label} at magnitude ${strongest.magnitude} after ${strongest.arrivalHours} hours (${pathText(network, strongest)}).`);
  if (last !== first && last !== strongest) sentences.push(`Last inside the horizon: ${last.node.label} after ${last.arrivalHours} hours at magnitude ${last.magnitude}.`);
  return sentences.join(' ');
}

/** POST /butterfly (Document 3 §4): where a shock at one node travels, how strong and how soon. */
export function computeButterfly(network: ShockNetwork, request: ButterflyRequest, parameters: ButterflyParameters, now: Date): Butterfly {
  const origin = nodeById(network, request.origin);
  const cascade = butterflyCascade(network, request, parameters);
  return {
    origin: { id: origin.id, label: origin.label, domain: origin.domain, description: origin.description },
    eventType: request.eventType,
    inputMagnitude: request.magnitude,
    horizonHours: request.horizonHours,
    cascade,
    synthesis: butterflySynthesis(network, origin, request, cascade, parameters),
    computedAt: now.toISOString(),
  };
}

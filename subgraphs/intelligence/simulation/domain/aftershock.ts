import { nodeById, type ResponseClass, rounded, type ShockNetwork } from './network.js';
import { propagateShock, type Reach } from './propagation.js';

export const WAVE_IDS = ['wave1', 'wave2', 'wave3'] as const;
export type WaveId = (typeof WAVE_IDS)[number];

export interface AftershockParameters {
  magnitudeFloor: number;
  magnitudeDecimals: number;
  /** A wave holds the events after the previous wave's bound up to its own `untilHours` (wave1 from hour 0). */
  waves: Record<WaveId, { label: string; untilHours: number }>;
}

export interface AftershockRequest {
  origin: string;
  eventType: string;
  magnitude: number;
  elapsedHours: number;
  horizonHours: number;
}

export interface AftershockEvent {
  node: { id: string; label: string };
  magnitude: number;
  offsetHours: number;
  type: ResponseClass;
  mechanism: string;
}

export interface AftershockWave {
  label: string;
  count: number;
  events: AftershockEvent[];
}

export interface Aftershock {
  primaryEvent: { origin: string; eventType: string; inputMagnitude: number; elapsedHours: number };
  summary: { totalAftershocks: number; amplified: number; rebounds: number; structural: number };
  waves: Record<WaveId, AftershockWave>;
  synthesis: string;
  computedAt: string;
}

const ORIGIN_STATE = 'origin';

/**
 * Every aftershock of the primary event up to the horizon: the shock network propagated as for the
 * butterfly, but a node may be hit once per response class (an oil shock's price spike, the rate
 * rebound it provokes and the structural demand shift it leaves are three events), each typed by the
 * edge that delivered it.
 */
export function aftershockEvents(network: ShockNetwork, request: AftershockRequest, parameters: AftershockParameters): AftershockEvent[] {
  const reached = propagateShock(network, {
    origin: request.origin,
    originState: ORIGIN_STATE,
    magnitude: request.magnitude,
    horizonHours: request.horizonHours,
    floor: parameters.magnitudeFloor,
    stateOf: (edge) => `${edge.to}#${edge.response}`,
  });
  return reached
    .filter((reach) => reach.edge !== null && reach.arrivalHours > request.elapsedHours)
    .map((reach) => eventOf(network, reach, parameters.magnitudeDecimals))
    .sort((a, b) => a.offsetHours - b.offsetHours || b.magnitude - a.magnitude || (a.node.id < b.node.id ? -1 : a.node.id > b.node.id ? 1 : a.type < b.type ? -1 : 1));
}

function eventOf(network: ShockNetwork, reach: Reach, decimals: number): AftershockEvent {
  const { id, label } = nodeById(network, reach.node);
  return { node: { id, label }, magnitude: rounded(reach.magnitude, decimals), offsetHours: reach.arrivalHours, type: reach.edge!.response, mechanism: reach.edge!.mechanism };
}

export function waveOf(offsetHours: number, parameters: AftershockParameters): WaveId {
  const wave = WAVE_IDS.find((id) => offsetHours <= parameters.waves[id].untilHours);
  if (!wave) throw new Error(`an aftershock at hour ${offsetHours} is past the last wave`);
  return wave;
}

function wavesOf(events: AftershockEvent[], parameters: AftershockParameters): Record<WaveId, AftershockWave> {
  const waves = Object.fromEntries(WAVE_IDS.map((id) => [id, { label: parameters.waves[id].label, count: 0, events: [] as AftershockEvent[] }])) as Record<WaveId, AftershockWave>;
  for (const event of events) {
    const wave = waves[waveOf(event.offsetHours, parameters)];
    wave.events.push(event);
    wave.count += 1;
  }
  return waves;
}

function countOf(events: AftershockEvent[], type: ResponseClass): number {
  return events.filter((event) => event.type === type).length;
}

function aftershockSynthesis(network: ShockNetwork, request: AftershockRequest, events: AftershockEvent[], waves: Record<WaveId, AftershockWave>, parameters: AftershockParameters): string {
  const origin = nodeById(network, request.origin);
  const primary = `${request.eventType} (${origin.label}, magnitude ${request.magnitude}), ${request.elapsedHours} hours on`;
  if (events.length === 0) return `${primary}: no aftershock of magnitude ${parameters.magnitudeFloor} or more remains between hour ${request.elapsedHours} and hour ${request.horizonHours}.`;
  const perWave = WAVE_IDS.map((id) => `${waves[id].count} in ${id} (${waves[id].label.toLowerCase()})`).join(', ');
  const strongest = [...events].sort((a, b) => b.magnitude - a.magnitude || a.offsetHours - b.offsetHours)[0]!;
  const sentences = [
    `${primary}: ${events.length} aftershock${events.length === 1 ? '' : 's'} expected by hour ${request.horizonHours}: ${countOf(events, 'amplified')} amplified, ${countOf(events, 'rebound')} rebound, ${countOf(events, 'structural')} structural; ${perWave}.`,
    `Strongest ahead: ${strongest.node.label} (${strongest.type}, magnitude ${strongest.magnitude}) at hour ${strongest.offsetHours}, as ${strongest.mechanism}.`,
  ];
  const rebound = events.find((event) => event.type === 'rebound');
  if (rebound) sentences.push(`First stabilising response: ${rebound.node.label} at hour ${rebound.offsetHours}.`);
  const structural = events.filter((event) => event.type === 'structural');
  if (structural.length > 0) sentences.push(`Lasting change: ${structural.map((event) => `${event.node.label} from hour ${event.offsetHours}`).join(', ')}.`);
  return sentences.join(' ');
}

/** POST /aftershock (Document 3 §4): the secondary events still ahead of a primary event, by wave and type. */
export function computeAftershock(network: ShockNetwork, request: AftershockRequest, parameters: AftershockParameters, now: Date): Aftershock {
  const events = aftershockEvents(network, request, parameters);
  const waves = wavesOf(events, parameters);
  return {
    primaryEvent: { origin: request.origin, eventType: request.eventType, inputMagnitude: request.magnitude, elapsedHours: request.elapsedHours },
    summary: { totalAftershocks: events.length, amplified: countOf(events, 'amplified'), rebounds: countOf(events, 'rebound'), structural: countOf(events, 'structural') },
    waves,
    synthesis: aftershockSynthesis(network, request, events, waves, parameters),
    computedAt: now.toISOString(),
  };
}

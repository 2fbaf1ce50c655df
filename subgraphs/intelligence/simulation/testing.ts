import aftershockJson from '../data/parameters/aftershock.json' with { type: 'json' };
import butterflyJson from '../data/parameters/butterfly.json' with { type: 'json' };
import contagionJson from '../data/parameters/contagion.json' with { type: 'json' };
import type { AftershockParameters, ButterflyParameters, ContagionNetwork, ContagionParameters, ShockEdge, ShockNetwork } from './domain/index.js';

/** The shipped parameters, typed, for the domain tests. */
export const butterflyParameters = butterflyJson as ButterflyParameters;
export const aftershockParameters = aftershockJson as AftershockParameters;
export const contagionParameters = contagionJson as ContagionParameters;

export const NOW = new Date('2026-11-26T09:00:00.000Z');

const testDomains = [{ domain: 'test', prefix: 't', label: 'Test' }];
const testNode = (id: string) => ({ id, label: id.toUpperCase(), domain: 'test', description: `node ${id}` });

/** A small shock network for a hand-checked case: edges [from, to, weight, lagHours, response?]. */
export function shockNetwork(edges: Array<[string, string, number, number, ShockEdge['response']?]>): ShockNetwork {
  const ids = [...new Set(edges.flatMap(([from, to]) => [from, to]))];
  return {
    domains: testDomains,
    nodes: ids.map(testNode),
    edges: edges.map(([from, to, weight, lagHours, response = 'amplified']) => ({ from, to, weight, lagHours, response, class: 'test', mechanism: `${from} moves ${to}` })),
  };
}

/** A small contagion network: edges [from, to, weight]. */
export function contagionNetwork(edges: Array<[string, string, number]>): ContagionNetwork {
  const ids = [...new Set(edges.flatMap(([from, to]) => [from, to]))];
  return { domains: testDomains, nodes: ids.map(testNode), edges: edges.map(([from, to, weight]) => ({ from, to, weight, class: 'test', mechanism: `${from} infects ${to}` })) };
}

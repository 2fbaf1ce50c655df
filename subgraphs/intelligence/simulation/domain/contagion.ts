import { climbLadder, type LadderRule } from '../../domain/index.js';
import { type ContagionNetwork, nodeById, rounded } from './network.js';

export const CONTAGION_REGIMES = ['PANDEMIC', 'EPIDEMIC', 'SPREADING', 'CONTAINED', 'SUPPRESSED'] as const;
export type ContagionRegime = (typeof CONTAGION_REGIMES)[number];

export interface ContagionParameters {
  /** β_ij = min(maxTransmission, weight_ij × transmissionScale × magnitude / 100) before intervention. */
  transmissionScale: number;
  maxTransmission: number;
  /** Weekly recovery probability γ of a node, by its domain. */
  recoveryPerWeek: Record<string, number>;
  intervention: {
    /** At interventionStrength s, β is multiplied by 1 − s × transmissionCut. */
    transmissionCut: number;
    /** At interventionStrength s, γ rises to γ + s × recoveryBoost × (1 − γ). */
    recoveryBoost: number;
  };
  /** `contained` when the final systemR is below this. */
  containedBelowR: number;
  superspreaderCount: number;
  regimes: LadderRule<ContagionRegime>[];
  rDecimals: number;
  countDecimals: number;
}

export interface ContagionRequest {
  origin: string;
  magnitude: number;
  epochs: number;
  interventionStrength: number;
}

/** The expected compartments of one epoch, summed over the nodes (full precision). */
export interface EpochState {
  epoch: number;
  susceptible: number;
  active: number;
  recovered: number;
  newInfections: number;
  recoveries: number;
  systemR: number;
}

export interface ContagionRun {
  epochs: EpochState[];
  /** Per node: 1 − S, the probability it was infected at some point in the run. */
  everInfected: Map<string, number>;
  /** Per node: expected onward infections over its infectious period in a susceptible network (its row of β / γ). */
  nodeReproduction: Map<string, number>;
}

export interface Contagion {
  origin: { id: string; label: string; domain: string };
  regime: ContagionRegime;
  summary: { peakSystemR: number; peakAtWeek: number; finalSystemR: number; finalActive: number; finalRecovered: number; contained: boolean };
  superspreaders: Array<{ id: string; label: string; outboundPotential: number }>;
  epochs: Array<{ epoch: number; systemR: number; activeInfections: number; newInfections: number; recovered: number }>;
  synthesis: string;
  computedAt: string;
}

interface Rates {
  /** β of each edge, indexed like the network's edges. */
  transmission: number[];
  recovery: number[];
}

function ratesOf(network: ContagionNetwork, request: ContagionRequest, parameters: ContagionParameters): Rates {
  const damping = 1 - request.interventionStrength * parameters.intervention.transmissionCut;
  const transmission = network.edges.map((edge) => Math.min(parameters.maxTransmission, (edge.weight * parameters.transmissionScale * request.magnitude) / 100) * damping);
  const recovery = network.nodes.map((node) => {
    const gamma = parameters.recoveryPerWeek[node.domain];
    if (gamma === undefined) throw new Error(`no recovery rate for the ${node.domain} domain`);
    return gamma + request.interventionStrength * parameters.intervention.recoveryBoost * (1 - gamma);
  });
  return { transmission, recovery };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * The expected-value SIR on the weighted directed network, one step a week: the discrete-time
 * microscopic Markov-chain approach of Gómez et al. (2010, EPL 89:38009), the individual-based
 * mean-field of Pastor-Satorras et al. (2015, Rev. Mod. Phys. 87:925 §V). Each node i has the
 * probabilities S_i + I_i + R_i = 1; a susceptible node escapes infection from each infected
 * neighbour j independently: q_i = 1 − Π_j (1 − β_ji I_j); then ΔI_i = S_i q_i, recoveries γ_i I_i.
 * systemR of an epoch is its new infections over its recoveries: with the SIR's geometric infectious
 * period this is the instantaneous reproduction number of Cori et al. (2013, Am. J. Epidemiol.
 * 178:1505), above 1 exactly when the active infections grow.
 */
export function runContagion(network: ContagionNetwork, request: ContagionRequest, parameters: ContagionParameters): ContagionRun {
  const index = new Map(network.nodes.map((node, position) => [node.id, position]));
  const { transmission, recovery } = ratesOf(network, request, parameters);
  const edges = network.edges.map((edge, position) => ({ from: index.get(edge.from)!, to: index.get(edge.to)!, beta: transmission[position]! }));
  const origin = index.get(request.origin)!;
  const susceptible = network.nodes.map((_, position) => (position === origin ? 0 : 1));
  const infected = network.nodes.map((_, position) => (position === origin ? 1 : 0));
  const recovered = network.nodes.map(() => 0);
  const epochs: EpochState[] = [];
  for (let epoch = 1; epoch <= request.epochs; epoch += 1) {
    const escape = network.nodes.map(() => 1);
    for (const edge of edges) escape[edge.to]! *= 1 - edge.beta * infected[edge.from]!;
    const infections = susceptible.map((s, i) => s * (1 - escape[i]!));
    const recoveries = infected.map((x, i) => x * recovery[i]!);
    for (let i = 0; i < network.nodes.length; i += 1) {
      susceptible[i]! -= infections[i]!;
      infected[i]! += infections[i]! - recoveries[i]!;
      recovered[i]! += recoveries[i]!;
    }
    const newInfections = sum(infections);
    const recoveredThisEpoch = sum(recoveries);
    epochs.push({
      epoch,
      susceptible: sum(susceptible),
      active: sum(infected),
      recovered: sum(recovered),
      newInfections,
      recoveries: recoveredThisEpoch,
      systemR: recoveredThisEpoch > 0 ? newInfections / recoveredThisEpoch : 0,
    });
  }
  const nodeReproduction = new Map(network.nodes.map((node, i) => [node.id, sum(edges.filter((edge) => edge.from === i).map((edge) => edge.beta)) / recovery[i]!]));
  return { epochs, everInfected: new Map(network.nodes.map((node, i) => [node.id, 1 - susceptible[i]!])), nodeReproduction };
}

/** The first epoch of the highest systemR. */
function peakOf(epochs: readonly EpochState[]): EpochState {
  return epochs.reduce((peak, epoch) => (epoch.systemR > peak.systemR ? epoch : peak));
}

/** Outbound potential: how far a node was infected times its onward reproduction (its row of the next-generation matrix). */
function superspreadersOf(network: ContagionNetwork, run: ContagionRun, parameters: ContagionParameters): Contagion['superspreaders'] {
  return network.nodes
    .map((node) => ({ id: node.id, label: node.label, outboundPotential: rounded(run.everInfected.get(node.id)! * run.nodeReproduction.get(node.id)!, parameters.rDecimals) }))
    .filter((node) => node.outboundPotential > 0)
    .sort((a, b) => b.outboundPotential - a.outboundPotential || (a.id < b.id ? -1 : 1))
    .slice(0, parameters.superspreaderCount);
}

export function contagionRegime(peakSystemR: number, parameters: ContagionParameters): ContagionRegime {
  return climbLadder(parameters.regimes, peakSystemR);
}

function contagionSynthesis(network: ContagionNetwork, request: ContagionRequest, body: Omit<Contagion, 'synthesis' | 'computedAt'>, run: ContagionRun): string {
  const reached = [...run.everInfected.values()].filter((level) => level >= 0.5).length;
  const { summary } = body;
  const intervention = request.interventionStrength > 0 ? `with intervention at ${request.interventionStrength}` : 'without intervention';
  const sentences = [
    `A magnitude-${request.magnitude} shock to ${body.origin.label} ${intervention}: systemR peaks at ${summary.peakSystemR} in week ${summary.peakAtWeek} (${body.regime}).`,
    `After ${request.epochs} week${request.epochs === 1 ? '' : 's'} (expected node counts): ${summary.finalActive} of ${network.nodes.length} nodes active, ${summary.finalRecovered} recovered, ${reached} infected with probability 0.5 or more; systemR ${summary.finalSystemR}, ${summary.contained ? 'contained (below 1)' : 'still spreading (1 or more)'}.`,
  ];
  if (body.superspreaders.length > 0) sentences.push(`Superspreaders: ${body.superspreaders.map((node) => `${node.label} (${node.outboundPotential})`).join(', ')}.`);
  return sentences.join(' ');
}

/** POST /contagion (Document 3 §4): the epidemic of a shock at one node over the 30-node network, week by week. */
export function computeContagion(network: ContagionNetwork, request: ContagionRequest, parameters: ContagionParameters, now: Date): Contagion {
  const run = runContagion(network, request, parameters);
  const peak = peakOf(run.epochs);
  const final = run.epochs.at(-1)!;
  const peakSystemR = rounded(peak.systemR, parameters.rDecimals);
  const finalSystemR = rounded(final.systemR, parameters.rDecimals);
  const origin = nodeById(network, request.origin);
  const body = {
    origin: { id: origin.id, label: origin.label, domain: origin.domain },
    regime: contagionRegime(peakSystemR, parameters),
    summary: {
      peakSystemR,
      peakAtWeek: peak.epoch,
      finalSystemR,
      finalActive: rounded(final.active, parameters.countDecimals),
      finalRecovered: rounded(final.recovered, parameters.countDecimals),
      contained: finalSystemR < parameters.containedBelowR,
    },
    superspreaders: superspreadersOf(network, run, parameters),
    epochs: run.epochs.map((epoch) => ({
      epoch: epoch.epoch,
      systemR: rounded(epoch.systemR, parameters.rDecimals),
      activeInfections: rounded(epoch.active, parameters.countDecimals),
      newInfections: rounded(epoch.newInfections, parameters.countDecimals),
      recovered: rounded(epoch.recovered, parameters.countDecimals),
    })),
  };
  return { ...body, synthesis: contagionSynthesis(network, request, body, run), computedAt: now.toISOString() };
}

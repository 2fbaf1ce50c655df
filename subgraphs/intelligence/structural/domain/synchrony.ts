import { wrapAngle } from './spectral.js';

/**
 * Synchrony of a set of phases. The Kuramoto order parameter (Kuramoto 1984, "Chemical Oscillations,
 * Waves, and Turbulence"): r = |(1/N) Σ e^{iθ}|, 1 when all phases agree, near 0 when they are spread
 * round the circle; ψ = arg of the same sum is the mean phase. r² of N phases drawn at random is
 * about 1/N, so the system-wide measure uses the pairwise phase consistency of Vinck et al. (2010,
 * NeuroImage 51): PPC = (N r² − 1) / (N − 1), the mean cosine of every pairwise phase difference,
 * unbiased by N (0 expected for unrelated phases).
 */
export interface OrderParameter {
  r: number;
  meanPhase: number;
}

export function orderParameter(phases: readonly number[], weights?: readonly number[]): OrderParameter {
  let re = 0;
  let im = 0;
  let total = 0;
  phases.forEach((phase, index) => {
    const weight = weights?.[index] ?? 1;
    re += weight * Math.cos(phase);
    im += weight * Math.sin(phase);
    total += weight;
  });
  return total === 0 ? { r: 0, meanPhase: 0 } : { r: Math.hypot(re, im) / total, meanPhase: Math.atan2(im, re) };
}

export function pairwisePhaseConsistency(phases: readonly number[]): number {
  const n = phases.length;
  if (n < 2) return 0;
  const { r } = orderParameter(phases);
  return (n * r * r - 1) / (n - 1);
}

/** |θa − θb| wrapped to [0, π]. */
export function phaseDistance(a: number, b: number): number {
  return Math.abs(wrapAngle(a - b));
}

/**
 * Single-linkage clustering on phase distance cut at `threshold`: two signals share a cluster when a
 * chain of pairs each closer than the threshold joins them (the connected components of the graph
 * of resonant pairs). Groups of one are left out. Members keep the order of `phases`.
 */
export function singleLinkageClusters(phases: readonly number[], threshold: number): number[][] {
  const parent = phases.map((_, index) => index);
  const root = (index: number): number => (parent[index] === index ? index : (parent[index] = root(parent[index]!)));
  for (let a = 0; a < phases.length; a++) {
    for (let b = a + 1; b < phases.length; b++) {
      if (phaseDistance(phases[a]!, phases[b]!) <= threshold) parent[root(b)] = root(a);
    }
  }
  const groups = new Map<number, number[]>();
  phases.forEach((_, index) => groups.set(root(index), [...(groups.get(root(index)) ?? []), index]));
  return [...groups.values()].filter((group) => group.length > 1);
}

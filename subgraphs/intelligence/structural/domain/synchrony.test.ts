import { describe, expect, it } from 'vitest';
import { orderParameter, pairwisePhaseConsistency, phaseDistance, singleLinkageClusters } from './synchrony.js';

const degrees = (value: number) => (value * Math.PI) / 180;

describe('Kuramoto order parameter', () => {
  it('is 1 for equal phases, with their phase as the mean', () => {
    const { r, meanPhase } = orderParameter([0.4, 0.4, 0.4, 0.4]);
    expect(r).toBeCloseTo(1, 12);
    expect(meanPhase).toBeCloseTo(0.4, 12);
  });

  it('is about 0 for phases spread evenly round the circle', () => {
    for (const n of [2, 3, 7, 28]) expect(orderParameter(Array.from({ length: n }, (_, k) => (2 * Math.PI * k) / n)).r).toBeLessThan(1e-12);
  });

  it('is cos(δ/2) for two phases δ apart', () => {
    expect(orderParameter([0, degrees(60)]).r).toBeCloseTo(Math.cos(degrees(30)), 12);
  });

  it('weights phasors by amplitude', () => {
    expect(orderParameter([0, Math.PI], [3, 1]).r).toBeCloseTo(0.5, 12);
  });
});

describe('pairwise phase consistency', () => {
  it('is 1 for equal phases and the mean pairwise cosine otherwise', () => {
    expect(pairwisePhaseConsistency([1, 1, 1])).toBeCloseTo(1, 12);
    const phases = [0, degrees(90), degrees(200)];
    const pairs = [
      [0, 1],
      [0, 2],
      [1, 2],
    ].map(([a, b]) => Math.cos(phases[a!]! - phases[b!]!));
    expect(pairwisePhaseConsistency(phases)).toBeCloseTo(pairs.reduce((sum, value) => sum + value, 0) / 3, 12);
  });
});

describe('single-linkage clusters on phase distance', () => {
  it('measures distance round the circle', () => {
    expect(phaseDistance(degrees(170), degrees(-170))).toBeCloseTo(degrees(20), 12);
  });

  it('chains pairs each within the threshold and leaves singletons out', () => {
    const phases = [0, 15, 30, 100, 180, -170].map(degrees);
    expect(singleLinkageClusters(phases, degrees(20))).toEqual([
      [0, 1, 2],
      [4, 5],
    ]);
  });

  it('joins at the threshold and not just above it', () => {
    expect(singleLinkageClusters([0, degrees(20)], degrees(20))).toEqual([[0, 1]]);
    expect(singleLinkageClusters([0, degrees(20.01)], degrees(20))).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContagionNetwork } from '../catalogue.js';
import { contagionNetwork, contagionParameters, NOW } from '../testing.js';
import { computeContagion, contagionRegime, runContagion } from './index.js';

const network = loadContagionNetwork();
const request = fc.record({
  origin: fc.constantFrom(...network.nodes.map((node) => node.id)),
  magnitude: fc.double({ min: 1, max: 100, noNaN: true }),
  epochs: fc.integer({ min: 1, max: 12 }),
  interventionStrength: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** Expected number of nodes ever infected, epoch by epoch. */
const everInfected = (epochs: Array<{ susceptible: number }>) => epochs.map((epoch) => network.nodes.length - epoch.susceptible);

describe('contagion: invariants over the shipped network (fast-check)', () => {
  it('conserves the nodes: S + I + R = 30 every epoch, each compartment within [0, 30]', () => {
    fc.assert(
      fc.property(request, (input) => {
        for (const epoch of runContagion(network, input, contagionParameters).epochs) {
          expect(epoch.susceptible + epoch.active + epoch.recovered).toBeCloseTo(network.nodes.length, 9);
          for (const count of [epoch.susceptible, epoch.active, epoch.recovered, epoch.newInfections]) {
            expect(count).toBeGreaterThanOrEqual(-1e-12);
            expect(count).toBeLessThanOrEqual(network.nodes.length + 1e-9);
          }
        }
      }),
    );
  });

  it('never spreads further with interventionStrength 1 than with 0, at any epoch', () => {
    fc.assert(
      fc.property(request, (input) => {
        const free = everInfected(runContagion(network, { ...input, interventionStrength: 0 }, contagionParameters).epochs);
        const contained = everInfected(runContagion(network, { ...input, interventionStrength: 1 }, contagionParameters).epochs);
        contained.forEach((reach, epoch) => expect(reach).toBeLessThanOrEqual(free[epoch]! + 1e-12));
      }),
    );
  });

  it('answers one epoch per week asked, the peak among them and the regime of the peak', () => {
    fc.assert(
      fc.property(request, (input) => {
        const answer = computeContagion(network, input, contagionParameters, NOW);
        expect(answer.epochs.map((epoch) => epoch.epoch)).toEqual(Array.from({ length: input.epochs }, (_, week) => week + 1));
        expect(answer.summary.peakSystemR).toBe(Math.max(...answer.epochs.map((epoch) => epoch.systemR)));
        expect(answer.epochs[answer.summary.peakAtWeek - 1]!.systemR).toBe(answer.summary.peakSystemR);
        expect(answer.regime).toBe(contagionRegime(answer.summary.peakSystemR, contagionParameters));
        expect(answer.summary.contained).toBe(answer.summary.finalSystemR < 1);
        expect(answer.superspreaders.length).toBeLessThanOrEqual(contagionParameters.superspreaderCount);
      }),
    );
  });

  it('gives the same answer to the same input', () => {
    fc.assert(
      fc.property(request, (input) => {
        expect(JSON.stringify(computeContagion(network, input, contagionParameters, NOW))).toBe(JSON.stringify(computeContagion(network, input, contagionParameters, NOW)));
      }),
    );
  });
});

describe('contagion regime ladder (Document 3 §3), at each boundary', () => {
  it.each([
    [3, 'PANDEMIC'],
    [2.5, 'PANDEMIC'],
    [2.499, 'EPIDEMIC'],
    [1.5, 'EPIDEMIC'],
    [1.499, 'SPREADING'],
    [1.0, 'SPREADING'],
    [0.999, 'CONTAINED'],
    [0.5, 'CONTAINED'],
    [0.499, 'SUPPRESSED'],
    [0, 'SUPPRESSED'],
  ])('peak systemR %s is %s', (peak, regime) => {
    expect(contagionRegime(peak, contagionParameters)).toBe(regime);
  });
});

describe('contagion: a hand-checked network', () => {
  // a -> b with weight 1; a is financial-like with the test domain's recovery.
  const small = contagionNetwork([['a', 'b', 1]]);
  const parameters = { ...contagionParameters, recoveryPerWeek: { test: 0.25 } };

  it('steps the expected-value SIR: week 1 infects b with probability β, a recovers with γ', () => {
    // β = 1 x 0.3 x 50 / 100 = 0.15; γ = 0.25.
    const [week1, week2] = runContagion(small, { origin: 'a', magnitude: 50, epochs: 2, interventionStrength: 0 }, parameters).epochs;
    expect(week1!.newInfections).toBeCloseTo(0.15, 12);
    expect(week1!.recoveries).toBeCloseTo(0.25, 12);
    expect(week1!.active).toBeCloseTo(0.9, 12);
    expect(week1!.recovered).toBeCloseTo(0.25, 12);
    expect(week1!.susceptible).toBeCloseTo(0.85, 12);
    expect(week1!.systemR).toBeCloseTo(0.6, 12);
    // week 2: b escapes with 1 - 0.15 x 0.75; new = 0.85 x 0.1125; recoveries 0.25 x (0.75 + 0.15).
    expect(week2!.newInfections).toBeCloseTo(0.85 * 0.1125, 12);
    expect(week2!.recoveries).toBeCloseTo(0.225, 12);
  });

  it('intervention cuts β and raises γ', () => {
    // strength 0.5: β = 0.15 x (1 - 0.5 x 0.6) = 0.105; γ = 0.25 + 0.5 x 0.5 x 0.75 = 0.4375.
    const [week1] = runContagion(small, { origin: 'a', magnitude: 50, epochs: 1, interventionStrength: 0.5 }, parameters).epochs;
    expect(week1!.newInfections).toBeCloseTo(0.105, 12);
    expect(week1!.recoveries).toBeCloseTo(0.4375, 12);
  });

  it('answers the summary, the superspreaders and the synthesis from the run', () => {
    const answer = computeContagion(small, { origin: 'a', magnitude: 50, epochs: 1, interventionStrength: 0 }, parameters, NOW);
    expect(answer).toMatchObject({
      origin: { id: 'a', label: 'A', domain: 'test' },
      regime: 'CONTAINED',
      summary: { peakSystemR: 0.6, peakAtWeek: 1, finalSystemR: 0.6, finalActive: 0.9, finalRecovered: 0.25, contained: true },
      superspreaders: [{ id: 'a', label: 'A', outboundPotential: 0.6 }],
      epochs: [{ epoch: 1, systemR: 0.6, activeInfections: 0.9, newInfections: 0.15, recovered: 0.25 }],
    });
    expect(answer.synthesis).toBe(
      'A magnitude-50 shock to A without intervention: systemR peaks at 0.6 in week 1 (CONTAINED). After 1 week (expected node counts): 0.9 of 2 nodes active, 0.25 recovered, 1 infected with probability 0.5 or more; systemR 0.6, contained (below 1). Superspreaders: A (0.6).',
    );
  });
});

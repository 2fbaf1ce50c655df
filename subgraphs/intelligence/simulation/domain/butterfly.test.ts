import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadButterflyNetwork } from '../catalogue.js';
import { butterflyParameters, NOW, shockNetwork } from '../testing.js';
import { butterflyCascade, computeButterfly } from './index.js';

const network = loadButterflyNetwork();
const origins = network.nodes.map((node) => node.id);
const request = fc.record({
  origin: fc.constantFrom(...origins),
  eventType: fc.constant('test event'),
  magnitude: fc.double({ min: 1, max: 100, noNaN: true }),
  horizonHours: fc.double({ min: 1, max: 720, noNaN: true }),
});

describe('butterfly propagation: invariants over the shipped network (fast-check)', () => {
  it('never gives a node a magnitude above the input, nor one below the floor, nor an arrival after the horizon', () => {
    fc.assert(
      fc.property(request, (input) => {
        for (const step of butterflyCascade(network, input, butterflyParameters)) {
          expect(step.magnitude).toBeLessThanOrEqual(input.magnitude);
          expect(step.magnitude).toBeGreaterThanOrEqual(butterflyParameters.magnitudeFloor);
          expect(step.arrivalHours).toBeLessThanOrEqual(input.horizonHours);
        }
      }),
    );
  });

  it('along every path (via) the magnitude never rises and the arrival never comes earlier', () => {
    fc.assert(
      fc.property(request, (input) => {
        const cascade = butterflyCascade(network, input, butterflyParameters);
        const byId = new Map(cascade.map((step) => [step.node.id, step]));
        for (const step of cascade) {
          expect(step.via[0]).toBe(input.origin);
          const path = step.via.slice(1).map((id) => byId.get(id)!);
          expect(path.every(Boolean)).toBe(true);
          const arrivals = [0, ...path.map((hop) => hop.arrivalHours), step.arrivalHours];
          const magnitudes = [input.magnitude, ...path.map((hop) => hop.magnitude), step.magnitude];
          for (let hop = 1; hop < arrivals.length; hop += 1) {
            expect(arrivals[hop]!).toBeGreaterThanOrEqual(arrivals[hop - 1]!);
            expect(magnitudes[hop]!).toBeLessThanOrEqual(magnitudes[hop - 1]!);
          }
        }
      }),
    );
  });

  it('reaches each node once, never the origin, in time order', () => {
    fc.assert(
      fc.property(request, (input) => {
        const cascade = butterflyCascade(network, input, butterflyParameters);
        const ids = cascade.map((step) => step.node.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).not.toContain(input.origin);
        for (let i = 1; i < cascade.length; i += 1) expect(cascade[i]!.arrivalHours).toBeGreaterThanOrEqual(cascade[i - 1]!.arrivalHours);
      }),
    );
  });

  it('gives the same answer to the same input', () => {
    fc.assert(
      fc.property(request, (input) => {
        expect(JSON.stringify(computeButterfly(network, input, butterflyParameters, NOW))).toBe(JSON.stringify(computeButterfly(network, input, butterflyParameters, NOW)));
      }),
    );
  });
});

describe('butterfly propagation: a hand-checked network', () => {
  // a -> b (0.5, 10h) -> c (0.5, 10h), and a faster, weaker a -> c (0.2, 5h).
  const small = shockNetwork([
    ['a', 'b', 0.5, 10],
    ['b', 'c', 0.5, 10],
    ['a', 'c', 0.2, 5],
  ]);
  const parameters = { magnitudeFloor: 5, magnitudeDecimals: 2 };

  it('takes the strongest channel to a node, with its arrival and path', () => {
    const cascade = butterflyCascade(small, { origin: 'a', eventType: 'x', magnitude: 100, horizonHours: 100 }, parameters);
    expect(cascade).toEqual([
      { node: { id: 'b', label: 'B', domain: 'test' }, magnitude: 50, arrivalHours: 10, via: ['a'], mechanism: 'a moves b' },
      { node: { id: 'c', label: 'C', domain: 'test' }, magnitude: 25, arrivalHours: 20, via: ['a', 'b'], mechanism: 'b moves c' },
    ]);
  });

  it('takes a weaker channel when the stronger one arrives after the horizon; the horizon itself is inside', () => {
    const at = (horizonHours: number) =>
      butterflyCascade(small, { origin: 'a', eventType: 'x', magnitude: 100, horizonHours }, parameters).map((step) => [step.node.id, step.magnitude, step.arrivalHours]);
    expect(at(20)).toEqual([
      ['b', 50, 10],
      ['c', 25, 20],
    ]);
    expect(at(19)).toEqual([
      ['c', 20, 5],
      ['b', 50, 10],
    ]);
    expect(at(9)).toEqual([['c', 20, 5]]);
    expect(at(4)).toEqual([]);
  });

  it('keeps a shock at the floor and drops one just below it', () => {
    // b at 10 x 0.5 = 5 (the floor); c at 5 x 0.5 = 2.5 and 10 x 0.2 = 2: dropped.
    expect(butterflyCascade(small, { origin: 'a', eventType: 'x', magnitude: 10, horizonHours: 100 }, parameters).map((step) => step.node.id)).toEqual(['b']);
    expect(butterflyCascade(small, { origin: 'a', eventType: 'x', magnitude: 9.99, horizonHours: 100 }, parameters)).toEqual([]);
  });

  it('composes the synthesis from the cascade', () => {
    const answer = computeButterfly(small, { origin: 'a', eventType: 'Refinery fire', magnitude: 100, horizonHours: 100 }, parameters, NOW);
    expect(answer.origin).toEqual({ id: 'a', label: 'A', domain: 'test', description: 'node a' });
    expect(answer.synthesis).toBe(
      'Refinery fire (A, magnitude 100) reaches 2 of 2 nodes within 100 hours, across 1 domain (test). First: B after 10 hours at magnitude 50, as a moves b. Last inside the horizon: C after 20 hours at magnitude 25.',
    );
    expect(computeButterfly(small, { origin: 'c', eventType: 'Quiet', magnitude: 50, horizonHours: 10 }, parameters, NOW).synthesis).toBe(
      'Quiet (C, magnitude 50): no other node is reached at magnitude 5 or more within 10 hours.',
    );
    expect(answer.computedAt).toBe(NOW.toISOString());
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadButterflyNetwork } from '../catalogue.js';
import { aftershockParameters, NOW, shockNetwork } from '../testing.js';
import { aftershockEvents, computeAftershock, WAVE_IDS, waveOf } from './index.js';

const network = loadButterflyNetwork();
const request = fc
  .record({
    origin: fc.constantFrom(...network.nodes.map((node) => node.id)),
    eventType: fc.constant('test event'),
    magnitude: fc.double({ min: 1, max: 100, noNaN: true }),
    elapsedHours: fc.double({ min: 0, max: 4320, noNaN: true }),
    horizonHours: fc.double({ min: 1, max: 4320, noNaN: true }),
  })
  .filter((input) => input.elapsedHours < input.horizonHours);

describe('aftershock: invariants over the shipped network (fast-check)', () => {
  it('answers only events after elapsedHours and up to the horizon, never above the input magnitude', () => {
    fc.assert(
      fc.property(request, (input) => {
        for (const event of aftershockEvents(network, input, aftershockParameters)) {
          expect(event.offsetHours).toBeGreaterThan(input.elapsedHours);
          expect(event.offsetHours).toBeLessThanOrEqual(input.horizonHours);
          expect(event.magnitude).toBeLessThanOrEqual(input.magnitude);
        }
      }),
    );
  });

  it('counts each event once: in its wave and in the summary', () => {
    fc.assert(
      fc.property(request, (input) => {
        const answer = computeAftershock(network, input, aftershockParameters, NOW);
        const waves = WAVE_IDS.map((id) => answer.waves[id]);
        expect(waves.map((wave) => wave.count)).toEqual(waves.map((wave) => wave.events.length));
        expect(answer.summary.totalAftershocks).toBe(waves.reduce((total, wave) => total + wave.count, 0));
        expect(answer.summary.amplified + answer.summary.rebounds + answer.summary.structural).toBe(answer.summary.totalAftershocks);
        for (const id of WAVE_IDS) for (const event of answer.waves[id].events) expect(waveOf(event.offsetHours, aftershockParameters)).toBe(id);
      }),
    );
  });

  it('gives the same answer to the same input', () => {
    fc.assert(
      fc.property(request, (input) => {
        expect(JSON.stringify(computeAftershock(network, input, aftershockParameters, NOW))).toBe(JSON.stringify(computeAftershock(network, input, aftershockParameters, NOW)));
      }),
    );
  });
});

describe('aftershock waves', () => {
  it.each([
    [0, 'wave1'],
    [72, 'wave1'],
    [72.5, 'wave2'],
    [672, 'wave2'],
    [673, 'wave3'],
    [4320, 'wave3'],
  ])('an event at hour %s is in %s', (offset, wave) => {
    expect(waveOf(offset, aftershockParameters)).toBe(wave);
  });
});

describe('aftershock: a hand-checked network', () => {
  // a shock at a: b amplified at 24h; c rebounds at 200h through b; c is also hit structurally at 1000h.
  const small = shockNetwork([
    ['a', 'b', 0.8, 24, 'amplified'],
    ['b', 'c', 0.5, 176, 'rebound'],
    ['a', 'c', 0.3, 1000, 'structural'],
  ]);
  const ask = (elapsedHours: number, horizonHours = 4320) => computeAftershock(small, { origin: 'a', eventType: 'Pipeline cut', magnitude: 50, elapsedHours, horizonHours }, aftershockParameters, NOW);

  it('types each event by the edge that delivered it, a node once per type, in its wave', () => {
    const answer = ask(0);
    expect(answer.primaryEvent).toEqual({ origin: 'a', eventType: 'Pipeline cut', inputMagnitude: 50, elapsedHours: 0 });
    expect(answer.summary).toEqual({ totalAftershocks: 3, amplified: 1, rebounds: 1, structural: 1 });
    expect(answer.waves.wave1.events).toEqual([{ node: { id: 'b', label: 'B' }, magnitude: 40, offsetHours: 24, type: 'amplified', mechanism: 'a moves b' }]);
    expect(answer.waves.wave2.events).toEqual([{ node: { id: 'c', label: 'C' }, magnitude: 20, offsetHours: 200, type: 'rebound', mechanism: 'b moves c' }]);
    expect(answer.waves.wave3.events).toEqual([{ node: { id: 'c', label: 'C' }, magnitude: 15, offsetHours: 1000, type: 'structural', mechanism: 'a moves c' }]);
    expect(answer.waves.wave1.label).toBe('Immediate secondary effects (0-72 hours)');
  });

  it('leaves out an event at or before elapsedHours, and after the horizon', () => {
    expect(ask(24).summary.totalAftershocks).toBe(2);
    expect(ask(23.9).summary.totalAftershocks).toBe(3);
    expect(ask(0, 999).summary).toEqual({ totalAftershocks: 2, amplified: 1, rebounds: 1, structural: 0 });
  });

  it('composes the synthesis from the events', () => {
    expect(ask(24).synthesis).toBe(
      'Pipeline cut (A, magnitude 50), 24 hours on: 2 aftershocks expected by hour 4320: 0 amplified, 1 rebound, 1 structural; 0 in wave1 (immediate secondary effects (0-72 hours)), 1 in wave2 (policy response distortions (1-4 weeks)), 1 in wave3 (structural realignment (1-6 months)). Strongest ahead: C (rebound, magnitude 20) at hour 200, as b moves c. First stabilising response: C at hour 200. Lasting change: C from hour 1000.',
    );
    expect(ask(1000).synthesis).toBe('Pipeline cut (A, magnitude 50), 1000 hours on: no aftershock of magnitude 5 or more remains between hour 1000 and hour 4320.');
  });
});

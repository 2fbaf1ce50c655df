import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyticSignal, bandBins, bandPassedAnalyticSignal, detrend, unwrap, wrapAngle } from './spectral.js';

/** n samples of A·cos(2π t / (periodYears · perYear) + φ0). */
function cosine(n: number, perYear: number, periodYears: number, amplitude: number, offset: number): number[] {
  return Array.from({ length: n }, (_, t) => amplitude * Math.cos((2 * Math.PI * t) / (periodYears * perYear) + offset));
}

describe('analyticSignal (band-passed Hilbert transform)', () => {
  it('recovers the known phase and amplitude of a pure sinusoid at every sample', () => {
    const n = 160;
    const signal = bandPassedAnalyticSignal(cosine(n, 4, 5, 3, 0.7), 4, { minYears: 3, maxYears: 8 });
    for (let t = 0; t < n; t++) {
      expect(signal.phase[t]).toBeCloseTo(wrapAngle((2 * Math.PI * t) / 20 + 0.7), 9);
      expect(signal.envelope[t]).toBeCloseTo(3, 9);
    }
  });

  it('puts phase 0 at a peak and ±π at a trough', () => {
    const signal = bandPassedAnalyticSignal(cosine(80, 4, 5, 1, 0), 4, { minYears: 3, maxYears: 8 });
    expect(signal.phase[0]).toBeCloseTo(0, 9);
    expect(Math.abs(signal.phase[10]!)).toBeCloseTo(Math.PI, 9);
  });

  it('recovers the phase of any in-band sinusoid with a whole number of cycles (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 12 }), fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: 0.1, max: 10, noNaN: true }), (cycles, offset, amplitude) => {
        const n = 120;
        const periodYears = n / 4 / cycles;
        const signal = bandPassedAnalyticSignal(cosine(n, 4, periodYears, amplitude, offset), 4, { minYears: periodYears * 0.9, maxYears: periodYears * 1.1 });
        expect(Math.abs(wrapAngle(signal.phase.at(-1)! - ((2 * Math.PI * (n - 1)) / (periodYears * 4) + offset)))).toBeLessThan(1e-6);
        expect(signal.envelope.at(-1)).toBeCloseTo(amplitude, 6);
      }),
    );
  });

  it('removes what lies outside the band: a slow cycle under a fast one leaves only the fast one', () => {
    const fast = cosine(200, 4, 2.5, 1, 0);
    const slow = cosine(200, 4, 25, 5, 1);
    const signal = bandPassedAnalyticSignal(
      fast.map((value, t) => value + slow[t]!),
      4,
      { minYears: 1.5, maxYears: 4 },
    );
    signal.filtered.forEach((value, t) => expect(value).toBeCloseTo(fast[t]!, 9));
  });
});

describe('the method with its detrending step', () => {
  it('recovers the phase of a sinusoid riding on a linear trend to within a few degrees at the last sample', () => {
    const n = 160;
    const trended = cosine(n, 4, 5, 3, 0.7).map((value, t) => value + 0.05 * t);
    const signal = analyticSignal(trended, 4, { minYears: 3, maxYears: 8 });
    expect(Math.abs(wrapAngle(signal.phase.at(-1)! - ((2 * Math.PI * (n - 1)) / 20 + 0.7)))).toBeLessThan(0.05);
    expect(Math.abs(signal.envelope.at(-1)! - 3)).toBeLessThan(0.1);
  });
});

describe('spectral helpers', () => {
  it('wraps angles to (-π, π]', () => {
    expect(wrapAngle(Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapAngle(-Math.PI)).toBeCloseTo(Math.PI, 12);
    expect(wrapAngle(3 * Math.PI + 0.1)).toBeCloseTo(-Math.PI + 0.1, 12);
    expect(wrapAngle(-0.5)).toBe(-0.5);
  });

  it('removes a straight line exactly', () => {
    detrend(Array.from({ length: 10 }, (_, t) => 3 + 2 * t)).forEach((value) => expect(value).toBeCloseTo(0, 12));
  });

  it('keeps the bins whose period lies in the band', () => {
    expect(bandBins(40, 4, { minYears: 2, maxYears: 5 })).toEqual([2, 3, 4, 5]);
  });

  it('unwraps a phase that steps across ±π', () => {
    expect(unwrap([3, -3, -2.5])).toEqual([3, 3 + (2 * Math.PI - 6), 3 + (2 * Math.PI - 6) + 0.5]);
  });
});

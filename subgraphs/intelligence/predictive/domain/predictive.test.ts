import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../../data/dataset.js';
import transitionJson from '../../data/parameters/transition-risk.json' with { type: 'json' };
import { seriesAsOf } from '../../domain/index.js';
import { testSeries } from '../../market/testing.js';
import { fortyEightHourParameters } from '../models.js';
import { fuelTable } from '../transition-risk.js';
import {
  addWeekdays,
  brierScore,
  calibrationOf,
  computeTransitionRisk,
  type DraftCall,
  fortyEightHourCalls,
  isoWeekStart,
  resolutionStep,
  type TransitionRiskParameters,
  weekdayOnOrBefore,
  weekdaysBetween,
} from './index.js';

describe('calendar', () => {
  it('weekdays skip Saturday and Sunday', () => {
    expect(weekdayOnOrBefore('2026-06-13')).toBe('2026-06-12');
    expect(weekdayOnOrBefore('2026-06-10')).toBe('2026-06-10');
    expect(addWeekdays('2026-06-11', 2)).toBe('2026-06-15');
    expect(weekdaysBetween('2026-06-12', '2026-06-16')).toBe(2);
    expect(isoWeekStart('2026-06-14')).toBe('2026-06-08');
    expect(isoWeekStart('2026-06-15')).toBe('2026-06-15');
  });
});

describe('calibration', () => {
  it('the Brier score is the mean squared distance between p and what happened', () => {
    expect(brierScore([])).toBeNull();
    expect(brierScore([{ probability: 0.8, outcome: true }])).toBeCloseTo(0.04, 10);
    expect(brierScore([{ probability: 0.8, outcome: false }])).toBeCloseTo(0.64, 10);
    expect(
      brierScore([
        { probability: 0.5, outcome: true },
        { probability: 0.5, outcome: false },
      ]),
    ).toBe(0.25);
  });

  it('counts pending, resolved and void; buckets by probability with 1 in the last bucket and a bound in the upper one', () => {
    const calibration = calibrationOf(
      [
        { probability: 0.6, status: 'RESOLVED', outcome: true },
        { probability: 0.599, status: 'RESOLVED', outcome: false },
        { probability: 1, status: 'RESOLVED', outcome: true },
        { probability: 0.7, status: 'PENDING', outcome: null },
        { probability: 0.7, status: 'VOID', outcome: null },
      ],
      10,
    );
    expect(calibration).toMatchObject({ calls: 5, pending: 1, resolved: 3, void: 1, hits: 2, hitRate: 0.6667 });
    expect(calibration.reliability[5]).toMatchObject({ from: 0.5, to: 0.6, resolved: 1, observedFrequency: 0 });
    expect(calibration.reliability[6]).toMatchObject({ from: 0.6, to: 0.7, resolved: 1, observedFrequency: 1 });
    expect(calibration.reliability[9]).toMatchObject({ resolved: 1, meanProbability: 1 });
  });
});

describe('when a due call resolves', () => {
  const TIMING = { settleDays: 3, voidAfterDays: 10 };
  const call = {
    resolvesAt: '2026-06-13T00:00:00.000Z',
    resolutionRule: { quantity: 'X', series: 'X', comparison: 'ABOVE', threshold: 1, category: null, baseDate: '2026-06-10', targetDate: '2026-06-12', text: '' },
  } as DraftCall;
  const dataset = (...dates: string[]) => ({
    series: new Map([
      [
        'X',
        testSeries(
          'X',
          dates.map((date) => [date, 2] as const),
        ),
      ],
    ]),
  });

  it('not a moment before resolvesAt', () => {
    expect(resolutionStep(call, dataset('2026-06-10', '2026-06-12'), new Date('2026-06-12T23:59:59.999Z'), TIMING).kind).toBe('WAIT');
    expect(resolutionStep(call, dataset('2026-06-10', '2026-06-12'), new Date('2026-06-13T00:00:00.000Z'), TIMING).kind).toBe('RESOLVE');
  });

  it('never on an observation after the target day: one dated later counts as no new data', () => {
    const later = dataset('2026-06-10', '2026-06-15');
    expect(resolutionStep(call, later, new Date('2026-06-20T00:00:00.000Z'), TIMING).kind).toBe('WAIT');
    expect(resolutionStep(call, later, new Date('2026-06-23T00:00:00.000Z'), TIMING).kind).toBe('VOID');
  });

  it("waits settleDays for the target day's own observation, then takes the last one before it", () => {
    const early = dataset('2026-06-10', '2026-06-11');
    expect(resolutionStep(call, early, new Date('2026-06-15T12:00:00.000Z'), TIMING).kind).toBe('WAIT');
    expect(resolutionStep(call, early, new Date('2026-06-16T00:00:00.000Z'), TIMING).kind).toBe('RESOLVE');
  });

  it('VOID when the series never moved past the base date, at voidAfterDays and not a day before', () => {
    const stalled = dataset('2026-06-10');
    expect(resolutionStep(call, stalled, new Date('2026-06-22T23:00:00.000Z'), TIMING).kind).toBe('WAIT');
    expect(resolutionStep(call, stalled, new Date('2026-06-23T00:00:00.000Z'), TIMING).kind).toBe('VOID');
  });
});

describe('the 48-hour call', () => {
  const now = new Date('2026-06-10T12:00:00.000Z');
  const series = seriesAsOf(snapshotSeries(), '2026-06-10');

  it('is the same for the same clock and dataset', () => {
    expect(JSON.stringify(fortyEightHourCalls(series, now, fortyEightHourParameters))).toBe(JSON.stringify(fortyEightHourCalls(series, now, fortyEightHourParameters)));
  });

  it('on the dataset as of the issue day (what the sweep hands it), every base is dated on or before that day', () => {
    for (const candidate of fortyEightHourCalls(series, now, fortyEightHourParameters).candidates) expect(candidate.baseDate <= '2026-06-10').toBe(true);
  });

  it('states the likelier side with its Laplace-smoothed frequency, and headlines the surest candidate', () => {
    const calls = fortyEightHourCalls(series, now, fortyEightHourParameters);
    for (const candidate of calls.candidates) {
      const rise = (candidate.rises + 1) / (candidate.samples + 2);
      expect(candidate.probability).toBeCloseTo(candidate.direction === 'ABOVE' ? rise : 1 - rise, 4);
      expect(candidate.probability).toBeGreaterThanOrEqual(0.5);
      expect(Math.abs(calls.headline!.probability - 0.5)).toBeGreaterThanOrEqual(Math.abs(candidate.probability - 0.5));
    }
    expect(calls).toMatchObject({ period: '2026-06-10', targetDate: '2026-06-12' });
  });

  it('a weekend serves the call of the Friday before, due the Tuesday after', () => {
    expect(fortyEightHourCalls(series, new Date('2026-06-14T08:00:00.000Z'), fortyEightHourParameters)).toMatchObject({ period: '2026-06-12', targetDate: '2026-06-16' });
  });
});

describe('transition risk', () => {
  const parameters = transitionJson as TransitionRiskParameters;
  const fuels = fuelTable();
  const series = snapshotSeries();

  it('prices a barrel of residual fuel oil: NCV x density x barrel volume x emission factor x carbon price', () => {
    const risk = computeTransitionRisk(series, fuels, 100, parameters).body;
    const tonnes = 40.4 * 0.944 * 0.158987294928 * 0.0774;
    expect(risk.sectors.shipping.carbonCost!.value).toBeCloseTo(tonnes * risk.carbonPrice.scenarioUsdPerTonne!, 1);
    expect(risk.sectors.shipping.carbonCostSharePct).toBeCloseTo((tonnes * risk.carbonPrice.scenarioUsdPerTonne! * 100) / risk.brent!.usdPerBarrel, 0);
  });

  it('the score is the mean exposure of the scored sectors; status ladder at its bounds', () => {
    const risk = computeTransitionRisk(series, fuels, 100, parameters).body;
    const scored = Object.values(risk.sectors).flatMap((sector) => (sector.exposureScore === null ? [] : [sector.exposureScore]));
    expect(scored).toHaveLength(3);
    expect(risk.transitionRiskScore).toBeCloseTo(scored.reduce((sum, score) => sum + score, 0) / 3, 1);
    const at = (price: number) => computeTransitionRisk(series, fuels, price, parameters).body.sectors.autos;
    expect(at(1000).exposureScore).toBeLessThanOrEqual(100);
  });

  it('names the missing market carbon price and process emissions (PARTIAL)', () => {
    const answer = computeTransitionRisk(series, fuels, 100, parameters);
    expect(answer.missing[0]).toMatch(/^EU ETS allowance/);
    expect(answer.missing.some((input) => input.startsWith('cement: process CO2'))).toBe(true);
  });
});

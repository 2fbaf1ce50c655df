import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { assessRegions, choosePrimaryThreat, directionOf, regionDirection, scoreObservation } from './score-region.js';
import { CURRENT_AT, observation } from './testing/fixtures.js';
import type { PrimaryThreat } from './types.js';

// Shipped parameters: weights T 0.25, D 0.35, F 0.15, A 0.25; ranges T 0-3 °C, D 0-3.5,
// F 0-20 fires, A 0-2 weighted alerts; alert kinds flood 1, storm 1, drought 1, other 0.5.
const params = snapshotDataset.parameters.regionScore;
const NONE = { flood: 0, storm: 0, drought: 0, other: 0 };

describe('scoreObservation', () => {
  it.each([
    // 100 × (0.25×0 + 0.35×0 + 0.15×0 + 0.25×0) = 0
    { name: 'calm', values: {}, score: 0 },
    // every signal at the top of its range: 100 × (0.25 + 0.35 + 0.15 + 0.25) = 100
    { name: 'all at max', values: { temperatureAnomalyC: 3, droughtIndex: 3.5, activeWildfires: 20, alerts: { ...NONE, flood: 2 } }, score: 100 },
    // beyond the ranges: clamped to 1 each, still 100
    { name: 'beyond max', values: { temperatureAnomalyC: 5, droughtIndex: 5, activeWildfires: 50, alerts: { ...NONE, storm: 4 } }, score: 100 },
    // cold anomalies do not score: normalise(-2, 0..3) = 0
    { name: 'cold', values: { temperatureAnomalyC: -2 }, score: 0 },
    // each signal at half its range: 100 × (0.25 + 0.35 + 0.15 + 0.25) × 0.5 = 50
    { name: 'half', values: { temperatureAnomalyC: 1.5, droughtIndex: 1.75, activeWildfires: 10, alerts: { ...NONE, flood: 1 } }, score: 50 },
    // two "other" alerts weigh 2 × 0.5 = 1 of 2: 100 × 0.25 × 0.5 = 12.5
    { name: 'other alerts', values: { alerts: { ...NONE, other: 2 } }, score: 12.5 },
    // Brazil grain belt 2024-10-08: 100 × (0.25×2.6/3 + 0.35×3.4/3.5 + 0.15×9/20 + 0.25×1/2)
    //   = 100 × (0.216667 + 0.34 + 0.0675 + 0.125) = 74.916667
    { name: 'Brazil grain belt', values: { temperatureAnomalyC: 2.6, droughtIndex: 3.4, activeWildfires: 9, alerts: { ...NONE, drought: 1 } }, score: 74.916667 },
  ])('$name scores $score', ({ values, score }) => {
    expect(scoreObservation(observation('r', CURRENT_AT, values), params).score).toBeCloseTo(score, 6);
  });

  it('splits the score into acute (fires, alerts) and chronic (heat, drought) indices', () => {
    const result = scoreObservation(
      observation('r', CURRENT_AT, {
        temperatureAnomalyC: 2.6,
        droughtIndex: 3.4,
        activeWildfires: 9,
        alerts: { ...NONE, drought: 1 },
      }),
      params,
    );
    // acute = 100 × (0.15×0.45 + 0.25×0.5) / 0.40 = 48.125
    expect(result.acuteIndex).toBeCloseTo(48.125, 6);
    // chronic = 100 × (0.25×0.866667 + 0.35×0.971429) / 0.60 = 92.777778
    expect(result.chronicIndex).toBeCloseTo(92.777778, 6);
    // 0.6 × chronic + 0.4 × acute = 55.666667 + 19.25 = 74.916667, the score
    expect(0.6 * result.chronicIndex + 0.4 * result.acuteIndex).toBeCloseTo(result.score, 9);
  });
});

describe('choosePrimaryThreat', () => {
  it.each<{ name: string; values: Parameters<typeof observation>[2]; threat: PrimaryThreat }>([
    // drought points 35 beat everything else at 0
    { name: 'drought only', values: { droughtIndex: 3.5 }, threat: 'drought' },
    { name: 'heat only', values: { temperatureAnomalyC: 3 }, threat: 'heat stress' },
    { name: 'fires only', values: { activeWildfires: 20 }, threat: 'wildfire' },
    { name: 'storm alerts', values: { alerts: { ...NONE, storm: 2 } }, threat: 'storm' },
    // flood 12.5 and storm 12.5 tie: storm comes first in threatTieBreakOrder
    { name: 'flood and storm tie', values: { alerts: { ...NONE, flood: 1, storm: 1 } }, threat: 'storm' },
    // a drought alert (12.5) ties heat at 1.5 °C (0.25 × 0.5 × 100 = 12.5): drought comes first
    { name: 'drought alert ties heat', values: { temperatureAnomalyC: 1.5, alerts: { ...NONE, drought: 1 } }, threat: 'drought' },
    // nothing at all: the first entry of the tie-break order
    { name: 'calm', values: {}, threat: 'drought' },
  ])('$name → $threat', ({ values, threat }) => {
    const result = scoreObservation(observation('r', CURRENT_AT, values), params);
    expect(choosePrimaryThreat(result.threats, params.threatTieBreakOrder)).toBe(threat);
  });
});

describe('directionOf (shared by regions and commodities)', () => {
  it.each([
    { change: 5, expected: 'DETERIORATING' },
    { change: 4.99, expected: 'STABLE' },
    { change: 0, expected: 'STABLE' },
    { change: -4.99, expected: 'STABLE' },
    { change: -5, expected: 'IMPROVING' },
  ])('change $change with a ±5 band is $expected', ({ change, expected }) => {
    expect(directionOf(change, 5)).toBe(expected);
  });

  it('treats a region without a previous observation as STABLE', () => {
    expect(regionDirection(80, undefined, 5)).toBe('STABLE');
  });
});

describe('assessRegions on the snapshot', () => {
  const assessed = assessRegions(snapshotDataset);

  it('assesses every region that has observations', () => {
    expect(assessed.size).toBe(snapshotDataset.regions.length);
  });

  it('pairs each region with its observation 30 days earlier', () => {
    const brazil = assessed.get('brazil_grain_belt');
    // previous 2024-09-08: 100 × (0.25×1.4/3 + 0.35×3.0/3.5 + 0.15×6/20 + 0.25×1/2)
    //   = 100 × (0.116667 + 0.3 + 0.045 + 0.125) = 58.666667
    expect(brazil?.previousScore).toBeCloseTo(58.666667, 6);
    // 74.916667 - 58.666667 = 16.25 ≥ 5
    expect(brazil?.outlook).toBe('DETERIORATING');
    expect(brazil?.primaryThreat).toBe('drought');
  });
});

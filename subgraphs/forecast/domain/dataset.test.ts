import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { withLiveInputs } from './dataset.js';
import { pairObservations } from './observations.js';
import { assessRegions } from './score-region.js';
import { CURRENT_AT, observation, PREVIOUS_AT } from './testing/fixtures.js';

const GAP = { comparisonMinGapDays: 20, comparisonMaxGapDays: 45 };

describe('pairObservations', () => {
  it.each([
    // newest is current; previous is the newest one 20-45 days older
    { name: 'snapshot pair', dates: [PREVIOUS_AT, CURRENT_AT], current: CURRENT_AT, previous: PREVIOUS_AT },
    // 2024-09-28 is only 10 days older: skipped in favour of 2024-09-08 (30 days)
    { name: 'too close skipped', dates: [PREVIOUS_AT, '2024-09-28T00:00:00Z', CURRENT_AT], current: CURRENT_AT, previous: PREVIOUS_AT },
    // 2024-08-01 is 68 days older: no previous at all
    { name: 'too old', dates: ['2024-08-01T00:00:00Z', CURRENT_AT], current: CURRENT_AT, previous: undefined },
    // input order does not matter
    { name: 'unordered input', dates: [CURRENT_AT, PREVIOUS_AT], current: CURRENT_AT, previous: PREVIOUS_AT },
  ])('$name', ({ dates, current, previous }) => {
    const pair = pairObservations(
      dates.map((d) => observation('r', d)),
      GAP,
    ).get('r');
    expect(pair?.current.observedAt).toBe(current);
    expect(pair?.previous?.observedAt).toBe(previous);
  });
});

describe('withLiveInputs', () => {
  it('makes a newer live observation current and leaves the snapshot untouched', () => {
    const live = observation('us_corn_belt', '2024-10-20T00:00:00Z', { droughtIndex: 3.5 });
    const dataset = withLiveInputs(snapshotDataset, { observations: [live] });
    const corn = assessRegions(dataset).get('us_corn_belt');
    // live: 100 × 0.35 × 3.5 / 3.5 = 35; previous is 2024-09-08 (42 days older), not 2024-10-08 (12 days)
    expect(corn?.current).toBe(live);
    expect(corn?.result.score).toBeCloseTo(35, 9);
    expect(corn?.previous?.observedAt).toBe(PREVIOUS_AT);
    expect(snapshotDataset.observations).not.toContain(live);
  });

  it('replaces a price series, sorted by date, and adds new sources once', () => {
    const prices = [
      { date: '2024-11-01', price: 250 },
      { date: '2024-10-01', price: 240 },
    ];
    const source = { source: 'FRED PWHEAMTUSDM', url: 'https://fred.stlouisfed.org/series/PWHEAMTUSDM', asOf: '2024-11-30' };
    const dataset = withLiveInputs(snapshotDataset, { prices: { WHEAT: prices }, sources: [source, source] });
    // PWHEAMTUSDM is already in USD/mt: factor 1
    expect(dataset.commodities.WHEAT.prices).toEqual([
      { date: '2024-10-01', price: 240 },
      { date: '2024-11-01', price: 250 },
    ]);
    expect(dataset.commodities.CORN).toBe(snapshotDataset.commodities.CORN);
    expect(dataset.sources.filter((s) => s.url === source.url)).toHaveLength(1);
  });

  it('converts a live series to the benchmark unit', () => {
    // PCOFFOTMUSDM is in US cents/lb: 280 × 0.0220462262 = 6.172943 USD/kg
    const dataset = withLiveInputs(snapshotDataset, { prices: { COFFEE: [{ date: '2024-10-01', price: 280 }] } });
    expect(dataset.commodities.COFFEE.prices[0]?.price).toBeCloseTo(6.172943, 6);
  });
});

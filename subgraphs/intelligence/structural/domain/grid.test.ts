import { describe, expect, it } from 'vitest';
import { testSeries } from '../../market/testing.js';
import { buildIndicator, dateInQuarters, periodLabel, periodMidQuarter, periodOf } from './grid.js';

const monthly = (id: string, start: number, values: number[]) =>
  testSeries(
    id,
    values.map((value, index) => [`${start + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`, value] as const),
    'monthly',
  );

describe('the calendar grid', () => {
  it('indexes quarters and years and dates their midpoints in quarters', () => {
    expect(periodOf('2024-05-17', 'quarterly')).toBe(2024 * 4 + 1);
    expect(periodOf('2024-05-17', 'annual')).toBe(2024);
    expect(periodLabel(2024 * 4 + 1, 'quarterly')).toBe('2024Q2');
    expect(periodMidQuarter(2024, 'annual')).toBe(2024 * 4 + 2);
    expect(dateInQuarters('2024-01-01')).toBe(2024 * 4);
  });
});

describe('buildIndicator', () => {
  it('averages a member per quarter', () => {
    const built = buildIndicator({ grid: 'quarterly', combine: 'mean', members: [{ series: 'A' }] }, new Map([['A', monthly('A', 2020, [1, 2, 3, 4, 5, 6])]]));
    expect(built?.series).toEqual({ grid: 'quarterly', periods: [2020 * 4, 2020 * 4 + 1], values: [2, 5] });
  });

  it('deflates, transforms, combines and takes the last run of consecutive periods', () => {
    const price = monthly('P', 2019, Array(36).fill(10));
    const cpi = monthly('CPI', 2019, [...Array(12).fill(100), ...Array(12).fill(200), ...Array(12).fill(400)]);
    const built = buildIndicator(
      { grid: 'annual', combine: 'mean', members: [{ series: 'P', deflateBy: 'CPI', transform: 'growthPct' }] },
      new Map([
        ['P', price],
        ['CPI', cpi],
      ]),
    );
    expect(built?.series.periods).toEqual([2020, 2021]);
    expect(built?.series.values).toEqual([-50, -50]);
    expect(built?.used.map((series) => series.id)).toEqual(['P', 'CPI']);
  });

  it('takes absolute deviations, weighted means and ratios', () => {
    const series = new Map([
      ['A', monthly('A', 2020, Array(12).fill(5))],
      ['B', monthly('B', 2020, Array(12).fill(1))],
    ]);
    expect(
      buildIndicator(
        {
          grid: 'annual',
          combine: 'mean',
          members: [
            { series: 'A', deviationFrom: 7, absolute: true },
            { series: 'B', deviationFrom: 2 },
          ],
        },
        series,
      )?.series.values,
    ).toEqual([0.5]);
    expect(
      buildIndicator(
        {
          grid: 'annual',
          combine: 'weightedMean',
          members: [
            { series: 'A', weight: 3 },
            { series: 'B', weight: 1 },
          ],
        },
        series,
      )?.series.values,
    ).toEqual([4]);
    expect(buildIndicator({ grid: 'annual', combine: 'ratio', members: [{ series: 'A' }, { series: 'B' }], transform: 'log' }, series)?.series.values).toEqual([Math.log(5)]);
  });

  it('carries a late member forward only as far as allowed', () => {
    const series = new Map([
      ['A', monthly('A', 2018, Array(48).fill(1))],
      ['B', monthly('B', 2018, Array(12).fill(3))],
    ]);
    const definition = { grid: 'annual' as const, combine: 'mean' as const, members: [{ series: 'A' }, { series: 'B' }] };
    expect(buildIndicator({ ...definition, carryForwardPeriods: 2 }, series)?.series.periods).toEqual([2018, 2019, 2020]);
    expect(buildIndicator(definition, series)?.series.periods).toEqual([2018]);
  });

  it('has nothing to build without a member', () => {
    expect(buildIndicator({ grid: 'annual', combine: 'mean', members: [{ series: 'NOPE' }] }, new Map())).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { weightedMean } from '../../domain/index.js';
import { testSeries } from '../testing.js';
import { changeOverMonths, daysBack, readMove, readVolatility, realisedVolatilities, shiftMonths, signedPercent } from './moves.js';
import { pickSeries, seriesAsOfDay } from './series-pick.js';

describe('shiftMonths', () => {
  it.each([
    ['2026-03-01', -1, '2026-02-01'],
    ['2026-03-31', -1, '2026-02-28'],
    ['2024-03-31', -1, '2024-02-29'],
    ['2026-01-15', -3, '2025-10-15'],
    ['2025-12-31', 2, '2026-02-28'],
    ['2026-08-18', -12, '2025-08-18'],
  ])('%s moved %s months is %s', (date, months, expected) => {
    expect(shiftMonths(date, months)).toBe(expected);
  });
});

describe('changeOverMonths', () => {
  const monthly = testSeries(
    'm',
    [
      ['2026-01-01', 100],
      ['2026-02-01', 110],
      ['2026-03-01', 121],
    ],
    'monthly',
  ).observations;

  it('compares a monthly observation with the month before, not with the date 30 days back (1 March - 30 days is 30 January)', () => {
    // 121 / 110 - 1 = +10%
    expect(changeOverMonths(monthly, 2, 1)).toBeCloseTo(10, 10);
    // 121 / 100 - 1 = +21%
    expect(changeOverMonths(monthly, 2, 2)).toBeCloseTo(21, 10);
  });

  it('has no change without an observation old enough', () => {
    expect(changeOverMonths(monthly, 0, 1)).toBeUndefined();
    expect(changeOverMonths(monthly, 2, 3)).toBeUndefined();
  });
});

describe('readMove', () => {
  it("ranks the size of the latest move among the window's moves of the same length", () => {
    // daily values 100, 101, 99, 104: 1-day moves +1%, -1.98%, +5.05%; the last is the largest of 3: percentile 100
    const observations = testSeries('d', [
      ['2026-01-01', 100],
      ['2026-01-02', 101],
      ['2026-01-03', 99],
      ['2026-01-04', 104],
    ]).observations;
    const move = readMove(observations, daysBack(1), 10)!;
    expect(move.changePct).toBeCloseTo((104 / 99 - 1) * 100, 10);
    expect(move.percentile).toBe(100);
    // the same series ending on a small move: |-0.96%| against 1%, 1.98%, 5.05%, 0.96%: 1 of 4 at or below -> 25
    const small = readMove([...observations, { date: '2026-01-05', value: 103 }], daysBack(1), 10)!;
    expect(small.percentile).toBe(25);
  });
});

describe('realised volatility', () => {
  it('is the population deviation of the daily log returns inside the window, annualised by sqrt(252)', () => {
    // alternating +r, -r log returns: deviation r; r = ln(1.01)
    const values = [100, 101, 100, 101, 100, 101, 100];
    const observations = testSeries(
      'v',
      values.map((value, index) => [`2026-01-0${index + 1}`, value] as const),
    ).observations;
    const volatilities = realisedVolatilities(observations, 30);
    // 6 returns: ln(1.01) and -ln(1.01), mean ~0 (three each), deviation ln(1.01) = 0.00995
    expect(volatilities.at(-1)).toBeCloseTo(Math.log(1.01) * Math.sqrt(252) * 100, 10);
    // fewer than 5 returns: none
    expect(volatilities[4]).toBeUndefined();
    expect(readVolatility(observations, 30, 10)).toEqual({ value: volatilities.at(-1), percentile: 100 });
  });

  it('counts only observations dated after the start of the window', () => {
    // a jump 31 days before the end falls outside a 30-day window
    const observations = testSeries('w', [['2026-01-01', 100], ['2026-01-02', 200], ...Array.from({ length: 6 }, (_, index) => [`2026-02-0${index + 2}`, 200] as const)]).observations;
    // window (2026-01-08, 2026-02-07]: 2026-02-02..07 flat: deviation 0
    expect(realisedVolatilities(observations, 30).at(-1)).toBe(0);
  });
});

describe('small helpers', () => {
  it('renormalises a weighted mean over the entries present', () => {
    expect(
      weightedMean([
        { value: 10, weight: 0.25 },
        { value: 30, weight: 0.25 },
      ]),
    ).toBe(20);
    expect(weightedMean([])).toBeUndefined();
  });

  it('signs a percentage', () => {
    expect([signedPercent(1.2623), signedPercent(-0.4), signedPercent(0)]).toEqual(['+1.26%', '-0.40%', '+0.00%']);
  });

  it('picks the freshest of two copies of one figure, the first listed on a tie', () => {
    const older = testSeries('older', [['2026-05-01', 1]], 'monthly');
    const fresher = testSeries('fresher', [['2026-07-01', 1]], 'monthly');
    const set = new Map([
      ['older', older],
      ['fresher', fresher],
    ]);
    expect(pickSeries(set, { anyOf: ['older', 'fresher'] })?.id).toBe('fresher');
    expect(pickSeries(set, { anyOf: ['older', 'older'] })?.id).toBe('older');
    expect(pickSeries(set, { anyOf: ['absent'] })).toBeUndefined();
  });
});

describe('seriesAsOfDay', () => {
  it('clips each series to the day, drops one with nothing by then, and passes an older one through untouched', () => {
    const recent = testSeries(
      'recent',
      [
        ['2026-01-01', 1],
        ['2026-03-01', 2],
      ],
      'monthly',
    );
    const old = testSeries('old', [['2025-01-01', 1]], 'monthly');
    const future = testSeries('future', [['2027-01-01', 1]], 'monthly');
    const clipped = seriesAsOfDay(
      new Map([
        ['recent', recent],
        ['old', old],
        ['future', future],
      ]),
      '2026-02-15',
    );
    expect(clipped.get('recent')).toMatchObject({ asOf: '2026-01-01', observations: [{ date: '2026-01-01', value: 1 }] });
    expect(clipped.get('old')).toBe(old);
    expect(clipped.has('future')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { type Series, seriesAsOf } from './index.js';

const series = (id: string, dates: string[]): Series => ({
  id,
  title: id,
  units: 'index',
  frequency: 'daily',
  publisher: 'test',
  url: 'https://example.org',
  licence: 'test',
  asOf: dates.at(-1)!,
  live: false,
  observations: dates.map((date, index) => ({ date, value: index })),
});

describe('seriesAsOf', () => {
  it('leaves out observations after the day, moves asOf back, drops a series with none left, and keeps a series already older as it is', () => {
    const old = series('OLD', ['2025-12-30', '2025-12-31']);
    const set = new Map([
      ['OLD', old],
      ['SPANS', series('SPANS', ['2025-12-31', '2026-01-01', '2026-01-02'])],
      ['LATER', series('LATER', ['2026-02-01'])],
    ]);
    const dated = seriesAsOf(set, '2026-01-01');
    expect([...dated.keys()]).toEqual(['OLD', 'SPANS']);
    expect(dated.get('OLD')).toBe(old);
    expect(dated.get('SPANS')!.observations.map((observation) => observation.date)).toEqual(['2025-12-31', '2026-01-01']);
    expect(dated.get('SPANS')!.asOf).toBe('2026-01-01');
  });
});

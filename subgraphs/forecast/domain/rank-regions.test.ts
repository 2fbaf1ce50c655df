import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { buildHeatCheck } from './heat-check.js';
import { rankRegions } from './rank-regions.js';
import { CONTEXT } from './testing/fixtures.js';
import { COMMODITY_SYMBOLS } from './types.js';

describe('rankRegions', () => {
  const ranked = rankRegions(snapshotDataset);

  it('ranks every observed region by climate risk, highest first', () => {
    expect(ranked).toHaveLength(snapshotDataset.regions.length);
    const scores = ranked.map((r) => r.climateRiskScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('puts the Brazil grain belt first with the spec Region entry fields', () => {
    expect(ranked[0]).toEqual({
      region: 'Brazil grain belt (Cerrado and South)',
      regionId: 'brazil_grain_belt',
      commodities: ['CORN', 'SOYB', 'COTTON'],
      // 100 × (0.25×2.6/3 + 0.35×3.4/3.5 + 0.15×9/20 + 0.25×1/2) = 74.916667
      climateRiskScore: 74.9,
      activeAlerts: 1,
      primaryThreat: 'drought',
      // 74.916667 - 58.666667 = +16.25
      outlook: 'DETERIORATING',
    });
  });
});

describe('buildHeatCheck', () => {
  const heat = buildHeatCheck(snapshotDataset, CONTEXT);

  it('lists all eleven commodities in symbol order with the snapshot statuses', () => {
    expect(heat.asOf).toBe('2024-10-08T00:00:00.000Z');
    expect(heat.dataQuality).toBe('ESTIMATED');
    expect(heat.commodities.map((c) => c.symbol)).toEqual([...COMMODITY_SYMBOLS]);
    expect(Object.fromEntries(heat.commodities.map((c) => [c.symbol, c.status]))).toEqual({
      WHEAT: 'YELLOW',
      CORN: 'YELLOW',
      SOYB: 'RED',
      COFFEE: 'RED',
      COCOA: 'GREEN',
      COTTON: 'YELLOW',
      SUGAR: 'RED',
      WTI: 'YELLOW',
      NG: 'YELLOW',
      COPPER: 'YELLOW',
      LUMBER: 'YELLOW',
    });
  });

  it('builds each signal line from the numbers', () => {
    const cocoa = heat.commodities.find((c) => c.symbol === 'COCOA');
    expect(cocoa?.signal).toBe("14.2/100, drought in West African cocoa belt (Côte d'Ivoire, Ghana) (84.0% of supply); " + '+0.58 °C, drought 0.91/5, 2 wildfires, 0 alerts; outlook STABLE');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { buildCalendar, buildCommodityOutlook, buildHeatCheck, buildTcfdReport, rankRegions, runScenario, stressPortfolio } from './index.js';
import { CONTEXT, NOW } from './testing/fixtures.js';

const POSITIONS = [
  { symbol: 'WHEAT', notionalUsd: 750_000 },
  { symbol: 'LUMBER', notionalUsd: 125_000.5 },
] as const;

const runs = {
  heatCheck: () => buildHeatCheck(snapshotDataset, CONTEXT),
  outlook: () => buildCommodityOutlook(snapshotDataset, 'CORN', CONTEXT),
  regions: () => rankRegions(snapshotDataset),
  calendar: () => buildCalendar(snapshotDataset, NOW),
  portfolio: () => stressPortfolio(snapshotDataset, { positions: POSITIONS }, CONTEXT),
  scenario: () => runScenario(snapshotDataset, { scenario: 'global_heatwave', positions: POSITIONS }, CONTEXT),
  tcfd: () => buildTcfdReport(snapshotDataset, { positions: POSITIONS }, CONTEXT),
};

describe('determinism', () => {
  afterEach(() => vi.useRealTimers());

  it.each(Object.keys(runs) as (keyof typeof runs)[])('%s gives the same result twice, whatever the system clock says', (name) => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const first = runs[name]();
    vi.setSystemTime(new Date('1999-06-15T12:00:00Z'));
    const second = runs[name]();
    expect(second).toEqual(first);
  });

  it('does not mutate the dataset', () => {
    const before = JSON.stringify(snapshotDataset);
    for (const run of Object.values(runs)) run();
    expect(JSON.stringify(snapshotDataset)).toBe(before);
  });
});

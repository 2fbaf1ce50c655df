import { describe, expect, it } from 'vitest';
import { snapshotDataset } from '../data/index.js';
import { assessDataset } from './assess-dataset.js';
import { heatCheckInputs, outlookInputs, portfolioInputs } from './input-ages.js';
import { CONTEXT, observation, withObservations } from './testing/fixtures.js';

const assessment = assessDataset(snapshotDataset, CONTEXT);
// The real clock of the route tests (test/helpers.ts TEST_NOW), not the evaluation instant.
const NOW = new Date('2026-11-22T12:00:00Z');

describe('each input keeps its own date (decision 0068)', () => {
  it('the heat check rests on the climate readings alone, 775 days old and stale', () => {
    // 2024-10-08 → 2026-11-22: 85 days to 2025-01-01, 365 in 2025, 325 in 2026 = 775 (12:00 rounds down); 775 > 30
    expect(heatCheckInputs(assessment, NOW)).toEqual([{ input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true }]);
  });

  it('an outlook adds its benchmark prices, dated the end of their last month', () => {
    // WTI: EIA daily averaged per complete month, the last complete one July 2026 → as of 2026-07-31;
    //   2026-07-31 → 2026-11-22: 31 (Aug) + 30 (Sep) + 31 (Oct) + 22 = 114 days > 62
    expect(outlookInputs(assessment, 'WTI', NOW)).toEqual([
      { input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true },
      { input: 'price:WTI', asOf: '2026-07-31', dataAgeDays: 114, stale: true },
    ]);
  });

  it('a portfolio lists the climate once and each benchmark once, in position order', () => {
    // COFFEE (Pink Sheet to May 2026): 2026-05-31 → 2026-11-22 = 30 + 31 + 31 + 30 + 31 + 22 = 175 days;
    // LUMBER (BLS PPI to November 2023): 2023-11-30 → 2026-11-22 = 31 (to 2023-12-31) + 366 (2024) + 365 (2025)
    //   + 326 (2025-12-31 → 2026-11-22) = 1,088 days
    expect(portfolioInputs(assessment, ['COFFEE', 'LUMBER', 'COFFEE'], NOW)).toEqual([
      { input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true },
      { input: 'price:COFFEE', asOf: '2026-05-31', dataAgeDays: 175, stale: true },
      { input: 'price:LUMBER', asOf: '2023-11-30', dataAgeDays: 1088, stale: true },
    ]);
  });

  it('an input is stale only past its limit: 30 days for climate, 62 for prices', () => {
    const atLimit = assessDataset(snapshotDataset, CONTEXT);
    // 2024-10-08 + 30 days = 2024-11-07; + 31 = 2024-11-08
    expect(heatCheckInputs(atLimit, new Date('2024-11-07T23:59:59Z'))).toEqual([{ input: 'climate', asOf: '2024-10-08', dataAgeDays: 30, stale: false }]);
    expect(heatCheckInputs(atLimit, new Date('2024-11-08T00:00:00Z'))).toEqual([{ input: 'climate', asOf: '2024-10-08', dataAgeDays: 31, stale: true }]);
    // WTI as of 2026-07-31: + 62 days = 2026-10-01 (Aug 31 + Sep 30 + 1); + 63 = 2026-10-02
    expect(outlookInputs(atLimit, 'WTI', new Date('2026-10-01T00:00:00Z'))[1]).toEqual({ input: 'price:WTI', asOf: '2026-07-31', dataAgeDays: 62, stale: false });
    expect(outlookInputs(atLimit, 'WTI', new Date('2026-10-02T00:00:00Z'))[1]).toEqual({ input: 'price:WTI', asOf: '2026-07-31', dataAgeDays: 63, stale: true });
  });

  it('the climate age is that of the oldest current reading used, and never negative', () => {
    const mixed = withObservations(snapshotDataset, [...snapshotDataset.observations, observation('brazil_southeast', '2026-11-20T00:00:00Z'), observation('colombia_andes', '2026-11-21T00:00:00Z')]);
    const fresher = assessDataset(mixed, CONTEXT);
    // COFFEE's other regions (Central America, Ethiopia) still read 2024-10-08
    expect(outlookInputs(fresher, 'COFFEE', NOW)[0]).toEqual({ input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true });
    const onlyFresh = withObservations(snapshotDataset, [observation('west_africa_cocoa_belt', '2026-11-25T00:00:00Z')]);
    expect(outlookInputs(assessDataset(onlyFresh, CONTEXT), 'COCOA', NOW)[0]).toEqual({ input: 'climate', asOf: '2026-11-25', dataAgeDays: 0, stale: false });
  });

  it('a portfolio without positions has no inputs', () => {
    expect(portfolioInputs(assessment, [], NOW)).toEqual([]);
  });
});

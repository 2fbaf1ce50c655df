import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createRuleBasedSynthesiser } from '../../platform/synthesis.js';
import { graphql, startTestServer, TEST_NOW, type TestServer } from '../../test/helpers.js';
import { snapshotDataset } from './data/index.js';
import { SNAPSHOT_AS_OF } from './data-source.js';
import { createForecastService } from './service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['forecast'] });
});
afterAll(async () => {
  await server.close();
});

// 2024-10-08 to 2026-11-22: 85 days to the end of 2024 (Oct 8 -> Jan 1), 365 in 2025, 325 in 2026 to Nov 22 = 775
const EXPECTED_AGE_DAYS = Math.floor((Date.parse(TEST_NOW) - SNAPSHOT_AS_OF.getTime()) / 86_400_000);

describe('the shipped snapshot is evaluated as of its own date (decision 0103)', () => {
  it('the snapshot is dated 2024-10-08 and is about 775 days old at the test clock', () => {
    expect(SNAPSHOT_AS_OF.toISOString().slice(0, 10)).toBe('2024-10-08');
    expect(EXPECTED_AGE_DAYS).toBe(775);
  });

  it('finding: out of the box every commodity read UNCERTAIN with confidence 0; outlooks now say something, with the date and age shown', async () => {
    const outlooks = await Promise.all(
      ['WHEAT', 'CORN', 'SOYB', 'COFFEE', 'COCOA', 'COTTON', 'SUGAR', 'WTI', 'NG', 'COPPER', 'LUMBER'].map(async (symbol) =>
        (await server.app.inject({ method: 'GET', url: `/forecast/commodity/${symbol}` })).json(),
      ),
    );
    expect(outlooks.some((outlook) => outlook.outlook !== 'UNCERTAIN')).toBe(true);
    for (const outlook of outlooks) {
      expect(outlook.confidence).toBeGreaterThan(0);
      expect(outlook.dataQuality).toBe('ESTIMATED');
      expect(outlook.asOf.slice(0, 10)).toBe('2024-10-08');
      expect(outlook.evaluatedAt).toBe(SNAPSHOT_AS_OF.toISOString());
      expect(outlook.dataAgeDays).toBe(EXPECTED_AGE_DAYS);
    }
  });

  it('the heat-check and the portfolio carry the same date and age; GraphQL shows them too', async () => {
    const heatCheck = (await server.app.inject({ method: 'GET', url: '/forecast/heat-check' })).json();
    expect(heatCheck).toMatchObject({ dataQuality: 'ESTIMATED', evaluatedAt: SNAPSHOT_AS_OF.toISOString(), dataAgeDays: EXPECTED_AGE_DAYS });
    const portfolio = (await server.app.inject({ method: 'POST', url: '/forecast/portfolio', payload: { positions: [{ symbol: 'COFFEE', notionalUsd: 1_000_000 }] } })).json();
    expect(portfolio).toMatchObject({ evaluatedAt: SNAPSHOT_AS_OF.toISOString(), dataAgeDays: EXPECTED_AGE_DAYS });
    const viaGraphQL = await graphql<{ heatCheck: { evaluatedAt: string; dataAgeDays: number } }>(server, '{ heatCheck { evaluatedAt dataAgeDays } }', {}, '/subgraphs/forecast/graphql');
    expect(viaGraphQL.data?.heatCheck).toEqual({ evaluatedAt: SNAPSHOT_AS_OF.toISOString(), dataAgeDays: EXPECTED_AGE_DAYS });
  });

  it('the seasonal calendar still starts from the real current month', async () => {
    const calendar = (await server.app.inject({ method: 'GET', url: '/forecast/calendar' })).json();
    expect(calendar[0].month).toMatch(/November|2026-11|Nov/);
  });
});

describe('live data is evaluated now', () => {
  it('a source that gives no evaluation date (live) is evaluated at the clock, so two-year-old figures read UNCERTAIN', async () => {
    const clock = new ManualClock(TEST_NOW);
    const service = createForecastService({
      clock,
      synthesiser: createRuleBasedSynthesiser(clock),
      source: { load: async () => ({ dataset: snapshotDataset, dataQuality: 'PARTIAL' as const }) },
    });
    const outlook = await service.commodityOutlook('WHEAT');
    expect(outlook).toMatchObject({ evaluatedAt: TEST_NOW, dataAgeDays: EXPECTED_AGE_DAYS, dataQuality: 'PARTIAL', outlook: 'UNCERTAIN' });
  });
});

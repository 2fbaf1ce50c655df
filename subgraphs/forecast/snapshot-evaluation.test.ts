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

describe('prices and climate keep their own dates (decision 0068)', () => {
  it('GET /forecast/commodity/WTI shows a 2026 price with its as-of, and says the climate behind the outlook is old', async () => {
    const outlook = (await server.app.inject({ method: 'GET', url: '/forecast/commodity/WTI' })).json();
    // data/series/wti_daily_eia.csv, July 2026: 22 trading days summing to 1,770.04 → 80.456364 → 80.4564 (4 decimals);
    // August 2026 stops at the 18th, so July is the last complete month.
    expect(outlook).toMatchObject({ currentPrice: 80.4564, priceUnit: 'USD/bbl', priceDate: '2026-07-01' });
    // the climate model is still evaluated at its own readings' date; the price is not aged into it
    expect(outlook).toMatchObject({ asOf: '2024-10-08T00:00:00.000Z', evaluatedAt: SNAPSHOT_AS_OF.toISOString(), dataAgeDays: EXPECTED_AGE_DAYS });
    expect(outlook.inputs).toEqual([
      { input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true },
      // 2026-07-31 → 2026-11-22: 31 + 30 + 31 + 22 = 114 days, past the 62-day limit of a monthly price
      { input: 'price:WTI', asOf: '2026-07-31', dataAgeDays: 114, stale: true },
    ]);
  });

  it('the heat-check names only its climate input; a portfolio names the prices of its positions; GraphQL shows them', async () => {
    const heatCheck = (await server.app.inject({ method: 'GET', url: '/forecast/heat-check' })).json();
    expect(heatCheck.inputs).toEqual([{ input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true }]);
    const portfolio = (
      await server.app.inject({
        method: 'POST',
        url: '/forecast/portfolio',
        payload: { positions: [{ symbol: 'COPPER', notionalUsd: 1_000_000 }] },
      })
    ).json();
    // COPPER: World Bank Pink Sheet to May 2026; 2026-05-31 → 2026-11-22 = 30 + 31 + 31 + 30 + 31 + 22 = 175 days
    expect(portfolio.inputs).toEqual([
      { input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true },
      { input: 'price:COPPER', asOf: '2026-05-31', dataAgeDays: 175, stale: true },
    ]);
    const viaGraphQL = await graphql<{ commodity: { outlook: { priceDate: string; inputs: unknown[] } } }>(
      server,
      '{ commodity(symbol: "NG") { outlook { priceDate inputs { input asOf dataAgeDays stale } } } }',
      {},
      '/subgraphs/forecast/graphql',
    );
    // NG: EIA Henry Hub daily, averaged per complete month, to July 2026 (as WTI)
    expect(viaGraphQL.data?.commodity.outlook).toEqual({
      priceDate: '2026-07-01',
      inputs: [
        { input: 'climate', asOf: '2024-10-08', dataAgeDays: 775, stale: true },
        { input: 'price:NG', asOf: '2026-07-31', dataAgeDays: 114, stale: true },
      ],
    });
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

import { describe, expect, it } from 'vitest';
import { fixtureFetch, testOptions } from '../../../platform/sources/testing/fixture-fetch.js';
import { snapshotSeries } from '../data/dataset.js';
import { fredInTheSnapshotsTerms, loadLiveSeries } from './live-feeds.js';
import { LIVE_SERIES, type LiveRoute } from './live-series.js';
import { intelligenceFixtureRoutes } from './testing.js';

const SINCE = new Date('2025-07-01T00:00:00Z');

function load(routes: Record<string, LiveRoute>, fetch = fixtureFetch(intelligenceFixtureRoutes()), fredApiKey = 'test-key') {
  return { fetch, result: loadLiveSeries(Object.entries(routes), { options: testOptions(fetch.fetch), fredApiKey, since: () => SINCE }) };
}

describe('loadLiveSeries reads each publisher through the feed layer', () => {
  it('maps one series of every publisher from its fixture', async () => {
    const { result } = load({
      VIXCLS: LIVE_SERIES.VIXCLS!,
      wb_wheat_us_hrw_monthly: LIVE_SERIES.wb_wheat_us_hrw_monthly!,
      co2_mauna_loa_monthly: LIVE_SERIES.co2_mauna_loa_monthly!,
      co2_mauna_loa_annual: LIVE_SERIES.co2_mauna_loa_annual!,
      gistemp_global_monthly: LIVE_SERIES.gistemp_global_monthly!,
      GSCPI: LIVE_SERIES.GSCPI!,
      ESTR_daily: LIVE_SERIES.ESTR_daily!,
      SONIA_daily: LIVE_SERIES.SONIA_daily!,
    });
    const { series, failures } = await result;
    expect(failures).toEqual([]);
    const newest = Object.fromEntries([...series].map(([id, observations]) => [id, observations.at(-1)]));
    expect(newest).toEqual({
      VIXCLS: { date: '2026-10-06', value: 15.01 },
      wb_wheat_us_hrw_monthly: { date: '2026-05-01', value: 303 },
      co2_mauna_loa_monthly: { date: '2026-06-01', value: 431.44 },
      co2_mauna_loa_annual: { date: '2025-01-01', value: 427.35 },
      gistemp_global_monthly: { date: '2025-06-01', value: 1.03 },
      GSCPI: { date: '2025-02-01', value: -0.071717317145561926 },
      ESTR_daily: { date: '2026-08-05', value: 2.185 },
      SONIA_daily: { date: '2026-08-05', value: 3.7313 },
    });
  });

  it('asks a windowed publisher from the given day, the Pink Sheet once for all its columns', async () => {
    const { fetch, result } = load({
      VIXCLS: LIVE_SERIES.VIXCLS!,
      ESTR_daily: LIVE_SERIES.ESTR_daily!,
      wb_gold_monthly: LIVE_SERIES.wb_gold_monthly!,
      wb_copper_monthly: LIVE_SERIES.wb_copper_monthly!,
    });
    await result;
    expect(fetch.requests.find((url) => url.host === 'api.stlouisfed.org')?.searchParams.get('observation_start')).toBe('2025-07-01');
    expect(fetch.requests.find((url) => url.host === 'data-api.ecb.europa.eu')?.searchParams.get('startPeriod')).toBe('2025-07-01');
    expect(fetch.requests.filter((url) => url.host === 'thedocs.worldbank.org')).toHaveLength(1);
  });

  it('inverts a FRED quote of USD per unit to units per USD, rounded to 4 decimals as the snapshot packages it', async () => {
    // The fixture answers 0.52 (2026-10-05), "." (2026-10-06), 0.51 (2026-10-07): 1/0.52 = 1.923077, 1/0.51 = 1.960784.
    const { series } = await load({ fx_daily_EUR_per_USD: LIVE_SERIES.fx_daily_EUR_per_USD! }).result;
    expect(series.get('fx_daily_EUR_per_USD')).toEqual([
      { date: '2026-10-05', value: 1.9231 },
      { date: '2026-10-07', value: 1.9608 },
    ]);
  });

  it('dates FYFSD on the last day of each fiscal year, as the snapshot does', async () => {
    const { series } = await load({ FYFSD: LIVE_SERIES.FYFSD! }).result;
    expect(series.get('FYFSD')).toEqual([
      { date: '2023-09-30', value: -1687467 },
      { date: '2024-09-30', value: -1815377 },
      { date: '2025-09-30', value: -1774684 },
    ]);
    // Before FY1977 the US fiscal year ended on 30 June.
    expect(fredInTheSnapshotsTerms([{ date: '1976-01-01', value: -73732 }], { feed: 'fred', fredId: 'FYFSD', fiscalYearEnd: true })).toEqual([{ date: '1976-06-30', value: -73732 }]);
  });
});

describe('loadLiveSeries keeps each failure to the series it feeds', () => {
  it('fails only the series of a publisher that errs, with the kind and the status', async () => {
    const fetch = fixtureFetch(intelligenceFixtureRoutes({ ecb: { status: 503 } }));
    const { series, failures } = await load({ ESTR_daily: LIVE_SERIES.ESTR_daily!, SONIA_daily: LIVE_SERIES.SONIA_daily! }, fetch).result;
    expect([...series.keys()]).toEqual(['SONIA_daily']);
    expect(failures).toEqual([{ feed: 'ecb', ids: ['ESTR_daily'], kind: 'http-status', reason: 'HTTP 503 from data-api.ecb.europa.eu/service/data/EST/B.EU000A2X2A25.WT' }]);
  });

  it('fails every series of one download together when its body is not the documented format', async () => {
    const fetch = fixtureFetch(intelligenceFixtureRoutes({ worldbank: { body: '<html>moved</html>' } }));
    const { failures } = await load({ wb_gold_monthly: LIVE_SERIES.wb_gold_monthly!, wb_silver_monthly: LIVE_SERIES.wb_silver_monthly! }, fetch).result;
    expect(failures).toEqual([expect.objectContaining({ feed: 'worldbank', ids: ['wb_gold_monthly', 'wb_silver_monthly'], kind: 'malformed-body' })]);
  });

  it('fails one Pink Sheet series whose column the workbook no longer has, not its neighbours', async () => {
    const { series, failures } = await load({ wb_gold_monthly: LIVE_SERIES.wb_gold_monthly!, wb_tin_monthly: { feed: 'worldbank', column: 'Tin' } }).result;
    expect([...series.keys()]).toEqual(['wb_gold_monthly']);
    expect(failures).toEqual([{ feed: 'worldbank', ids: ['wb_tin_monthly'], kind: 'malformed-body', reason: 'no column "Tin" in "Monthly Prices"' }]);
  });

  it('asks FRED nothing without a key and says so', async () => {
    const fetch = fixtureFetch(intelligenceFixtureRoutes());
    // An empty FRED_API_KEY counts as unset (the configuration reads empty values as absent).
    const { failures } = await load({ VIXCLS: LIVE_SERIES.VIXCLS!, NFCI: LIVE_SERIES.NFCI! }, fetch, '').result;
    expect(failures).toEqual([{ feed: 'fred', ids: ['VIXCLS', 'NFCI'], kind: 'not-configured', reason: 'FRED_API_KEY is not set' }]);
    expect(fetch.requests).toEqual([]);
  });

  it('counts a series the publisher answered without a single observation as failed', async () => {
    const empty = JSON.stringify({ units: 'lin', observations: [{ date: '2026-10-05', value: '.' }] });
    const fetch = fixtureFetch(intelligenceFixtureRoutes({ fred: { body: empty } }));
    const { failures } = await load({ VIXCLS: LIVE_SERIES.VIXCLS! }, fetch).result;
    expect(failures).toEqual([{ feed: 'fred', ids: ['VIXCLS'], kind: 'no-observations', reason: 'the publisher answered no observation' }]);
  });
});

describe('LIVE_SERIES', () => {
  const shipped = snapshotSeries();

  it('routes only series the snapshot ships', () => {
    expect(Object.keys(LIVE_SERIES).filter((id) => !shipped.has(id))).toEqual([]);
  });

  it('inverts exactly the FX series the snapshot records as inverted FRED quotes (sources.json seriesId "DEX... inverted")', async () => {
    const { sourceManifests } = await import('../data/dataset.js');
    const entries = Object.assign({}, ...sourceManifests().map((manifest) => manifest.entries)) as Record<string, { seriesId: string }>;
    for (const [id, route] of Object.entries(LIVE_SERIES).filter(([id]) => id.startsWith('fx_daily_'))) {
      expect(route.feed).toBe('fred');
      const recorded = entries[id]!.seriesId;
      expect({ id, fredId: recorded.split(' ')[0], inverted: recorded.includes('inverted') }).toEqual({
        id,
        fredId: route.feed === 'fred' ? route.fredId : '',
        inverted: route.feed === 'fred' && route.invert === true,
      });
    }
  });
});

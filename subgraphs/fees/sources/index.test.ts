import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../platform/db.js';
import { readFixture } from '../../../platform/sources/testing/fixture-fetch.js';
import { openTestPglite, startTestServer, type TestServer } from '../../../test/helpers.js';
import { loadSignals } from './index.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
/** FRED's answer shape (series/observations), recorded; the same body stands for every series asked. */
const fredFixture = readFixture('fred', 't10y2y.json');
/** DefiLlama's /stablecoins?includePrices=true shape, trimmed to the three coins of the basket. */
const defillamaFixture = JSON.stringify({
  peggedAssets: [
    { symbol: 'USDT', price: 1.0004, circulating: { peggedUSD: 180_000_000_000 } },
    { symbol: 'USDC', price: 0.9998, circulating: { peggedUSD: 75_000_000_000 } },
    { symbol: 'DAI', price: 1.0001, circulating: { peggedUSD: 5_000_000_000 } },
  ],
});

type Behaviour = 'ok' | 'fail' | 'hang';

/** A local stand-in for FRED and DefiLlama whose behaviour the test sets. */
async function fixtureServer(): Promise<{ server: Server; url: string; set(behaviour: Behaviour): void; hits: string[] }> {
  let behaviour: Behaviour = 'ok';
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (behaviour === 'hang') return;
    if (behaviour === 'fail') return void response.writeHead(500).end('upstream error');
    response.writeHead(200, { 'content-type': 'application/json' }).end(request.url?.startsWith('/fred') ? fredFixture : defillamaFixture);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, set: (next) => void (behaviour = next), hits };
}

describe('the live signal feeds against recorded fixtures', () => {
  let fixture: Awaited<ReturnType<typeof fixtureServer>>;
  beforeAll(async () => {
    fixture = await fixtureServer();
  });
  afterAll(() => new Promise<void>((resolve) => fixture.server.closeAllConnections() ?? fixture.server.close(() => resolve())));
  const options = (fredApiKey?: string) => ({ live: true, fredApiKey, baseUrls: { fred: `${fixture.url}/fred`, defillama: `${fixture.url}/llama` }, timeoutMs: 300 });

  it('reads FRED (missing "." values dropped) and DefiLlama supply and prices when they answer', async () => {
    fixture.set('ok');
    const signals = await loadSignals(options('key-1'), NOW);
    expect(signals.feeds.map((feed) => [feed.feed, feed.status])).toEqual([
      ['FRED', 'ok'],
      ['DefiLlama stablecoins', 'ok'],
    ]);
    expect(signals.series.T10Y2Y!.observations).toEqual([
      { date: '2026-10-05', value: 0.52 },
      { date: '2026-10-07', value: 0.51 },
    ]);
    expect(signals.stablecoinPrices).toEqual({ USDT: 1.0004, USDC: 0.9998, DAI: 1.0001 });
    expect(signals.series.USDC!.observations.at(-1)).toEqual({ date: '2026-11-22', value: 75_000_000_000 });
    expect(fixture.hits.some((hit) => hit.includes('series_id=T10Y2Y') && hit.includes('api_key=key-1'))).toBe(true);
  });

  it('falls back to the snapshot, feed by feed, on an error, a timeout or a missing key, and says why', async () => {
    fixture.set('fail');
    const failed = await loadSignals(options('key-1'), NOW);
    expect(failed.feeds).toEqual([
      expect.objectContaining({ feed: 'FRED', status: 'fallback', reason: expect.stringContaining('HTTP 500') }),
      expect.objectContaining({ feed: 'DefiLlama stablecoins', status: 'fallback' }),
    ]);
    expect(failed.stablecoinPrices).toBeNull();
    expect(failed.series.T10Y2Y!.observations.length).toBeGreaterThan(100);
    fixture.set('hang');
    const slow = await loadSignals(options('key-1'), NOW);
    expect(slow.feeds[0]).toMatchObject({ status: 'fallback', reason: 'timed out' });
    fixture.set('ok');
    expect((await loadSignals(options(undefined), NOW)).feeds[0]).toMatchObject({ feed: 'FRED', status: 'fallback', reason: expect.stringContaining('FRED_API_KEY') });
  });
});

describe('a server whose live feeds fail keeps serving, with lowered confidence and the feed named', () => {
  let fixture: Awaited<ReturnType<typeof fixtureServer>>;
  let database: DatabaseHandle;
  let server: TestServer;
  beforeAll(async () => {
    fixture = await fixtureServer();
    fixture.set('fail');
    database = await openTestPglite();
    server = await startTestServer({
      database,
      subgraphs: ['fees'],
      gateway: false,
      environment: {
        ORACLE_SCHEDULER: 'true',
        ORACLE_LIVE: 'true',
        FRED_API_KEY: 'key-1',
        ORACLE_FRED_URL: `${fixture.url}/fred`,
        ORACLE_DEFILLAMA_URL: `${fixture.url}/llama`,
        ORACLE_LIVE_TIMEOUT_MS: '300',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await database.close();
    fixture.server.closeAllConnections();
    fixture.server.close();
  });

  it('health names each feed down; reliability is PARTIAL, not healthy, and still answers', async () => {
    const health = (await server.app.inject({ method: 'GET', url: '/stability/health' })).json();
    expect(health).toMatchObject({ status: 'degraded', oracle: 'SUCCESS' });
    expect(health.feeds).toEqual([
      expect.objectContaining({ feed: 'FRED', mode: 'live', status: 'fallback', reason: expect.stringContaining('500') }),
      expect.objectContaining({ feed: 'DefiLlama stablecoins', status: 'fallback' }),
    ]);
    const reliability = (await server.app.inject({ method: 'GET', url: '/stability/reliability' })).json();
    expect(reliability).toMatchObject({ isHealthy: false, dataQuality: 'PARTIAL', oracle: { status: 'SUCCESS' } });
    const status = (await server.app.inject({ method: 'GET', url: '/stability/api/status' })).json();
    // Two feeds in fallback and the peg unmeasured cost their penalties.
    expect(reliability.confidence.score).toBeLessThanOrEqual(100 - 10 - 10 - 15);
    expect(status.data.feeds).toHaveLength(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../../../platform/sources/testing/fixture-fetch.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';
import { clearKeptSignals, getSignal } from '../shared/testing.js';
import { type FixtureServer, intelligenceFixtureRoutes, startFixtureServer } from './testing.js';

/** The six FRED series macro-stress reads, and the newest observation of each fixture. */
const MACRO_STRESS_INPUTS: Record<string, string> = {
  NFCI: '2026-08-14',
  STLFSI4: '2026-08-14',
  DCPN3M_cp_3m_nonfin: '2026-08-19',
  DTB3_tbill_3m: '2026-08-19',
  VIXCLS: '2026-10-06',
  // The fixture's 2026-07-01 is "." (missing): its newest value is 2026-04-01.
  DRTSCILM: '2026-04-01',
};

describe('a server with INTELLIGENCE_LIVE answers macro-stress from the live feeds, and says which', () => {
  let vixFails = false;
  let fixtures: FixtureServer;
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    const failingVix = { matches: (url: URL) => vixFails && url.searchParams.get('series_id') === 'VIXCLS', status: 500, body: readFixture('fred', 'vixcls-recent.json') };
    fixtures = await startFixtureServer(() => [failingVix, ...intelligenceFixtureRoutes()]);
    server = await startTestServer({
      subgraphs: ['intelligence'],
      environment: { INTELLIGENCE_LIVE: 'true', FRED_API_KEY: 'test-key', INTELLIGENCE_LIVE_TIMEOUT_MS: '5000', ...fixtures.environment },
    });
    // Answers are cached in the database: a snapshot answer another test's server kept must not answer for the live one.
    await clearKeptSignals(server);
    ({ key } = await server.platform!.access.keys.create('api', 'live feeds test', 100));
  });

  afterAll(async () => {
    await server.close();
    await fixtures.close();
  });

  it('reports every input live with its own as-of, and dataQuality LIVE', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/macro-stress', key);
    expect(status).toBe(200);
    expect(body.dataQuality).toBe('LIVE');
    expect(Object.fromEntries(body.inputs.map((input: { id: string; asOf: string; live: boolean }) => [input.id, [input.live, input.asOf]]))).toEqual(
      Object.fromEntries(Object.entries(MACRO_STRESS_INPUTS).map(([id, asOf]) => [id, [true, asOf]])),
    );
    // Every request went to the local stand-ins, FRED with the configured key.
    expect(fixtures.requests.some((url) => url.host === 'api.stlouisfed.org' && url.searchParams.get('series_id') === 'VIXCLS' && url.searchParams.get('api_key') === 'test-key')).toBe(true);
  });

  it('after the next refresh with VIXCLS failing: that input from the snapshot, live false, and dataQuality PARTIAL', async () => {
    vixFails = true;
    // An hour on: the macro-stress answer (cached 3600 s) and the live refresh (INTELLIGENCE_REFRESH_SECONDS 3600) are both due.
    server.clock.advance(3_600_000);
    const { body } = await getSignal(server, '/v1/intelligence/macro-stress', key);
    expect(body.dataQuality).toBe('PARTIAL');
    const live = Object.fromEntries(body.inputs.map((input: { id: string; live: boolean }) => [input.id, input.live]));
    expect(live).toEqual({ NFCI: true, STLFSI4: true, DCPN3M_cp_3m_nonfin: true, DTB3_tbill_3m: true, VIXCLS: false, DRTSCILM: true });
    expect(body.missingInputs).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { shippedPepLists } from './service.js';
import { buildPepTestApp, type PepTestApp } from './testing.js';

const HOUR_MS = 3_600_000;
const SIX_HOURS_LATER = new Date(Date.parse(TEST_NOW) + 6 * HOUR_MS).toISOString();

describe.each(testDatabases())('PEP screen route on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let t: PepTestApp;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
    t = await buildPepTestApp({ db: handle.db, clock });
  });
  afterAll(async () => {
    await t.app.close();
    await testDatabase.dispose(handle);
  });

  async function screen(payload: unknown, headers: Record<string, string> = {}) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/compliance/compliance/pep-screen',
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    return { status: response.statusCode, body: response.json() };
  }

  const listsScreened = () => shippedPepLists().map((list) => ({ list: list.list, records: list.records, source: list.provenance.source, asOf: list.provenance.asOf }));

  it('a sitting office holder with a corroborating position: HIGH, EDD, the R.12 attestation, cached 6 hours', async () => {
    clock.set(TEST_NOW);
    const { status, body } = await screen({ name: 'J.D. Vance', country: 'us', position: 'Vice President' });
    expect(status).toBe(200);
    expect(body.riskLevel).toBe('HIGH');
    expect(body.eddRequired).toBe(true);
    expect(body.pepMatches[0]).toEqual({
      name: 'J.D. Vance',
      matchedName: 'J.D. Vance',
      position: 'Vice President of the United States',
      country: 'US',
      countryName: 'United States',
      current: true,
      matchConfidence: 'HIGH',
      score: 1,
      positionCheck: 'CORROBORATED',
      source: 'us-congress-legislators',
      recordId: expect.stringMatching(/^us-exec-/),
    });
    for (const match of body.pepMatches) expect(match.score).toBeGreaterThanOrEqual(0.6);
    expect(body.fatfR12).toEqual({
      recommendation: 'R.12',
      screened: true,
      listsScreened: listsScreened(),
      matchThreshold: 0.6,
      countryFilter: 'US',
      pepIdentified: true,
      highestConfidence: 'HIGH',
      eddRequired: true,
      note: expect.stringContaining('FATF R.12'),
    });
    expect([body.cachedAt, body.expiresAt, body.fromCache]).toEqual([TEST_NOW, SIX_HOURS_LATER, false]);
  });

  it('the cache key is the normalised name, country and position: another rendering is served from it until 6 hours pass', async () => {
    clock.set(TEST_NOW);
    await screen({ name: 'Barack Hussein Obama', country: 'US' });
    clock.advance(6 * HOUR_MS - 1);
    const again = await screen({ name: '  barack   HUSSEIN obama ', country: 'us' });
    expect(again.body).toMatchObject({ fromCache: true, cachedAt: TEST_NOW, riskLevel: 'MEDIUM', eddRequired: true }); // former president, HIGH confidence
    clock.advance(1); // now == expiresAt
    expect((await screen({ name: 'Barack Hussein Obama', country: 'US' })).body).toMatchObject({ fromCache: false, cachedAt: SIX_HOURS_LATER });
    // A position is part of the key: a contradicting one lowers the confidence (HIGH -> MEDIUM), so the risk (former, MEDIUM -> LOW).
    const contradicted = await screen({ name: 'Barack Hussein Obama', country: 'US', position: 'Senator from Texas' });
    expect(contradicted.body).toMatchObject({ fromCache: false, riskLevel: 'LOW', eddRequired: false });
    expect(contradicted.body.pepMatches[0]).toMatchObject({ matchConfidence: 'MEDIUM', positionCheck: 'CONTRADICTED' });
  });

  it('country narrows the lists: the same name under another country matches nothing', async () => {
    const { body } = await screen({ name: 'J.D. Vance', country: 'FR' });
    expect(body).toMatchObject({ riskLevel: 'NONE', pepMatches: [], eddRequired: false, fatfR12: { countryFilter: 'FR', pepIdentified: false, highestConfidence: null, eddRequired: false } });
  });

  it('a name of no office holder: NONE', async () => {
    const { status, body } = await screen({ name: 'Zxqvbn Plorktastic' });
    expect([status, body.riskLevel, body.pepMatches, body.eddRequired, body.fatfR12.countryFilter]).toEqual([200, 'NONE', [], false, null]);
  });

  describe('bad and hostile input: 400 CMP_ERR_INVALID_REQUEST, never 500', () => {
    it.each([
      ['no name', {}],
      ['empty name', { name: '' }],
      ['blank name', { name: '   ' }],
      ['name too long', { name: 'n'.repeat(257) }],
      ['name a number', { name: 42 }],
      ['name an object', { name: { $ne: null } }],
      ['country of three letters', { name: 'X', country: 'USA' }],
      ['country not letters', { name: 'X', country: '1' }],
      ['position too long', { name: 'X', position: 'p'.repeat(257) }],
      ['unknown field', { name: 'X', admin: true }],
      ['__proto__ key', '{"name":"X","__proto__":{"polluted":true}}'],
      ['constructor key', '{"name":"X","constructor":{"prototype":{"polluted":true}}}'],
      ['an array', '[{"name":"X"}]'],
      ['not JSON', '{"name":'],
    ])('%s', async (_label, payload) => {
      const { status, body } = await screen(payload);
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.any(String), code: 'CMP_ERR_INVALID_REQUEST' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('unicode and mixed scripts are screened, not refused', async () => {
      const { status, body } = await screen({ name: 'Емманюэль Макрон 马克龙', position: 'Président' });
      expect(status).toBe(200);
      expect(body.fatfR12.screened).toBe(true);
    });
  });
});

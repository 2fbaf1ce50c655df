import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { entityEsgParameters, leiGovernanceFacts } from '../data/entity-esg.js';
import { dataSources, fatfLists } from '../data/index.js';
import { leiCheckDigits } from '../domain/index.js';
import { assessEntityEsg, narrateEntityEsg } from './domain/index.js';
import { buildEsgTestApp, controllableSynthesiser, type EsgTestApp } from './testing.js';

const SHELL = '2138001KPMR6PD83HC08'; // SHELL CATALYSTS & TECHNOLOGIES PTE. LTD., SG, ISSUED
/** Made-up LEIs with valid ISO 17442 check digits (leiCheckDigits), not in the snapshot (asserted below). */
const UNKNOWN_LEI = `TESTESG0UNKNOWN001${leiCheckDigits('TESTESG0UNKNOWN001')}`;
const UNKNOWN_LEI_2 = `TESTESG0UNKNOWN002${leiCheckDigits('TESTESG0UNKNOWN002')}`;
const NOW_S = Date.parse(TEST_NOW) / 1000;
const DAY_S = 86_400;
const WEEK_MS = 7 * DAY_S * 1000;
const WALLET_WITH_LEI = '0x1111111111111111111111111111111111111111';
const WALLET_NO_LEI = '0x2222222222222222222222222222222222222222';
const WALLET_UNREGISTERED = '0x3333333333333333333333333333333333333333';

describe.each(testDatabases())('entity ESG routes on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let t: EsgTestApp;
  const clock = new ManualClock(TEST_NOW);
  const synthesiser = controllableSynthesiser();

  beforeAll(async () => {
    handle = await testDatabase.open();
    t = await buildEsgTestApp({ db: handle.db, clock, synthesiser, narrationTimeoutMs: 50 });
    const base = { aliases: [], leiStatus: null, registrationType: 'SELF_DECLARED' as const, registeredAt: clock.now() };
    await t.registry.register(
      { ...base, walletAddress: WALLET_WITH_LEI, legalName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.', country: 'SG', lei: SHELL, leiStatus: 'ACTIVE', registrationType: 'REGISTRY_VERIFIED' },
      clock.now(),
    );
    await t.registry.register({ ...base, walletAddress: WALLET_NO_LEI, legalName: 'Acme Trading Ltd', country: 'GB', lei: null }, clock.now());
    // A registration under an LEI the snapshot lacks (written straight to the store): it names the entity.
    await t.registry.register({ ...base, walletAddress: '0x4444444444444444444444444444444444444444', legalName: 'Registered Only GmbH', country: 'KE', lei: UNKNOWN_LEI_2 }, clock.now());
  });
  afterAll(async () => {
    await t.app.close();
    await testDatabase.dispose(handle);
  });
  beforeEach(() => {
    synthesiser.mode = 'answer';
  });

  async function get(url: string) {
    const response = await t.app.inject({ method: 'GET', url: `/compliance${url}` });
    return { status: response.statusCode, body: response.json() };
  }

  it('GET /esg/score/:lei: the documented fields, computed from the snapshot, cached 7 days', async () => {
    clock.set(TEST_NOW);
    const { status, body } = await get(`/esg/score/${SHELL.toLowerCase()}?refresh=true`);
    expect(status).toBe(200);
    const expected = assessEntityEsg(
      { lei: SHELL, record: leiGovernanceFacts().get(SHELL)!, declared: { name: '', country: 'US', leiStatus: 'ISSUED' }, fatf: fatfLists().current },
      entityEsgParameters(),
    );
    expect(body).toEqual({
      ...expected,
      dataSources: { lei: dataSources().lei, fatf: { ...fatfLists().provenance, plenary: fatfLists().current.plenary } },
      computedAt: NOW_S,
      expiresAt: NOW_S + 7 * DAY_S,
      fromCache: false,
    });
    // The figures of domain/entity-esg.test.ts: G 100, (50 + 50 + 100) / 3 = 66.7, AVERAGE, 25 bps.
    expect(body).toMatchObject({
      lei: SHELL,
      entityName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.',
      composite: 66.7,
      environmental: 50,
      social: 50,
      governance: 100,
      feeTier: 'AVERAGE',
      feeSurcharge: 0.0025,
      coverage: 'PARTIAL',
    });
    expect(body).not.toHaveProperty('narration');
  });

  it('serves the cached score until 7 days have passed, then recomputes; refresh=true recomputes at once', async () => {
    clock.set(TEST_NOW);
    await get(`/esg/score/${SHELL}?refresh=true`);
    clock.advance(WEEK_MS - 1000);
    const cached = await get(`/esg/score/${SHELL}`);
    expect(cached.body).toMatchObject({ fromCache: true, computedAt: NOW_S, expiresAt: NOW_S + 7 * DAY_S, composite: 66.7 });

    const refreshed = await get(`/esg/score/${SHELL}?refresh=true`);
    expect(refreshed.body).toMatchObject({ fromCache: false, computedAt: NOW_S + 7 * DAY_S - 1 });

    clock.set(TEST_NOW);
    await get(`/esg/score/${SHELL}?refresh=true`);
    clock.advance(WEEK_MS); // now == expiresAt: expired
    expect((await get(`/esg/score/${SHELL}`)).body).toMatchObject({ fromCache: false, computedAt: NOW_S + 7 * DAY_S, expiresAt: NOW_S + 14 * DAY_S });
  });

  describe('an LEI the snapshot does not hold', () => {
    it('(the test LEIs are valid and not in the snapshot)', () => {
      for (const lei of [UNKNOWN_LEI, UNKNOWN_LEI_2]) expect([lei.length, leiGovernanceFacts().has(lei)]).toEqual([20, false]);
    });

    it('needs a name unless a wallet is registered under it: 400 CMP_ERR_ESG_NAME_REQUIRED', async () => {
      const { status, body } = await get(`/esg/score/${UNKNOWN_LEI}`);
      expect([status, body]).toEqual([400, { error: 'The LEI is not in the LEI registry snapshot nor registered to a wallet: give the legal name (query name).', code: 'CMP_ERR_ESG_NAME_REQUIRED' }]);
    });

    it('scores the declared facts (country default US, leiStatus default ISSUED), coverage MINIMAL; each declaration cached apart', async () => {
      clock.set(TEST_NOW);
      const plain = await get(`/esg/score/${UNKNOWN_LEI}?name=Example%20Holdings%20plc&refresh=true`);
      // ISSUED 100 (declared), US not listed 100: G 100, composite 66.7.
      expect(plain.body).toMatchObject({ lei: UNKNOWN_LEI, entityName: 'Example Holdings plc', governance: 100, composite: 66.7, coverage: 'MINIMAL', fromCache: false });
      expect(plain.body.inputs.map((input: { value: string }) => input.value)).toEqual(['ISSUED', 'US NOT_LISTED']);
      // LAPSED 30, KE increased monitoring 50: G = (9 + 15) / 0.6 = 40; (50 + 50 + 40) / 3 = 46.7 BELOW_AVERAGE, 35 bps.
      const grey = await get(`/esg/score/${UNKNOWN_LEI}?name=Example%20Holdings%20plc&country=ke&leiStatus=lapsed`);
      expect(grey.body).toMatchObject({ governance: 40, composite: 46.7, feeTier: 'BELOW_AVERAGE', feeSurcharge: 0.0035, fromCache: false });
      expect((await get(`/esg/score/${UNKNOWN_LEI}?name=Example%20Holdings%20plc`)).body).toMatchObject({ composite: 66.7, fromCache: true });
    });

    it('a wallet registered under the LEI names the entity and gives its country', async () => {
      const { status, body } = await get(`/esg/score/${UNKNOWN_LEI_2}?refresh=true`);
      // ISSUED (default) 100, KE increased monitoring 50: G = (30 + 15) / 0.6 = 75; 175 / 3 = 58.3.
      expect([status, body.entityName, body.governance, body.composite, body.coverage]).toEqual([200, 'Registered Only GmbH', 75, 58.3, 'MINIMAL']);
    });
  });

  describe('narrate=true', () => {
    it('adds the 2-3 sentence narration from the synthesiser, not cached', async () => {
      const { body } = await get(`/esg/score/${SHELL}?narrate=true`);
      const { narration, narrationModel, computedAt: _c, expiresAt: _e, fromCache: _f, dataSources: _d, ...assessment } = body;
      expect(narration).toBe(narrateEntityEsg(assessment));
      expect(narrationModel).toBe('test-synthesiser');
      expect((await get(`/esg/score/${SHELL}`)).body).not.toHaveProperty('narration');
    });

    it('omits the narration when the synthesiser fails or does not answer in time', async () => {
      for (const mode of ['fail', 'hang'] as const) {
        synthesiser.mode = mode;
        const { status, body } = await get(`/esg/score/${SHELL}?narrate=true`);
        expect(status).toBe(200);
        expect(body).not.toHaveProperty('narration');
        expect(body).not.toHaveProperty('narrationModel');
        expect(body.composite).toBe(66.7);
      }
    });
  });

  describe('GET /esg/score/wallet/:wallet', () => {
    it("scores the wallet's registered LEI", async () => {
      const { status, body } = await get(`/esg/score/wallet/${WALLET_WITH_LEI}?narrate=true`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ lei: SHELL, entityName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.', composite: 66.7, narration: expect.stringContaining('66.7 of 100') });
    });

    it.each([
      [WALLET_UNREGISTERED, 404, 'CMP_ERR_WALLET_NOT_REGISTERED'],
      [WALLET_NO_LEI, 404, 'CMP_ERR_WALLET_HAS_NO_LEI'],
      ['0x123', 400, 'CMP_ERR_INVALID_REQUEST'],
    ])('%s -> %s %s', async (wallet, status, code) => {
      const response = await get(`/esg/score/wallet/${wallet}`);
      expect(response.status).toBe(status);
      expect(response.body).toEqual({ error: expect.any(String), code });
    });
  });

  describe('bad and hostile input: 400 in the compliance shape, never 500', () => {
    it.each([
      ['wrong check digits', `/esg/score/2138001KPMR6PD83HC09`, 'CMP_ERR_INVALID_LEI'],
      ['too short', `/esg/score/ABC`, 'CMP_ERR_INVALID_LEI'],
      ['unicode LEI', `/esg/score/${encodeURIComponent('２１３８００１ＫＰＭＲ６ＰＤ８３ＨＣ０８')}`, 'CMP_ERR_INVALID_LEI'],
      ['huge path', `/esg/score/${'A'.repeat(5000)}`, 'CMP_ERR_INVALID_REQUEST'],
      ['unknown parameter', `/esg/score/${SHELL}?debug=1`, 'CMP_ERR_INVALID_REQUEST'],
      ['__proto__ parameter', `/esg/score/${SHELL}?__proto__=x`, 'CMP_ERR_INVALID_REQUEST'],
      ['leiStatus __proto__', `/esg/score/${UNKNOWN_LEI}?name=X&leiStatus=__proto__`, 'CMP_ERR_INVALID_REQUEST'],
      ['leiStatus unknown', `/esg/score/${UNKNOWN_LEI}?name=X&leiStatus=ACTIVE`, 'CMP_ERR_INVALID_REQUEST'],
      ['name twice', `/esg/score/${UNKNOWN_LEI}?name=a&name=b`, 'CMP_ERR_INVALID_REQUEST'],
      ['name too long', `/esg/score/${UNKNOWN_LEI}?name=${'n'.repeat(257)}`, 'CMP_ERR_INVALID_REQUEST'],
      ['blank name', `/esg/score/${UNKNOWN_LEI}?name=%20%20`, 'CMP_ERR_INVALID_REQUEST'],
      ['country of three letters', `/esg/score/${UNKNOWN_LEI}?name=X&country=USA`, 'CMP_ERR_INVALID_REQUEST'],
      ['refresh not a boolean', `/esg/score/${SHELL}?refresh=yes`, 'CMP_ERR_INVALID_REQUEST'],
      ['wallet narrate not a boolean', `/esg/score/wallet/${WALLET_WITH_LEI}?narrate=1`, 'CMP_ERR_INVALID_REQUEST'],
    ])('%s', async (_label, url, code) => {
      const { status, body } = await get(url);
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.any(String), code });
    });

    it('a unicode name is kept as given', async () => {
      const { status, body } = await get(`/esg/score/${UNKNOWN_LEI}?name=${encodeURIComponent('Société Générale Ünïcode 株式会社')}&refresh=true`);
      expect([status, body.entityName]).toEqual([200, 'Société Générale Ünïcode 株式会社']);
    });
  });
});

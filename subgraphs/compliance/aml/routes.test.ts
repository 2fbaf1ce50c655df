import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import type { HttpServer } from '../../../platform/http.js';
import { RULE_BASED_MODEL, type Synthesiser } from '../../../platform/synthesis.js';
import { startTestServer, TEST_NOW, testDatabases, type TestServer } from '../../../test/helpers.js';
import { buildAmlTestApp, LAZARUS_ETH, TEST_INTERNAL_KEY } from './testing.js';

const NOW_S = Date.parse(TEST_NOW) / 1000;
const SDN = { source: 'OFAC SDN list', url: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV', asOf: '2023-12-28', stale: true };
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const key = { 'x-internal-key': TEST_INTERNAL_KEY };

describe.each(testDatabases())('AML routes on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let app: HttpServer;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
    ({ app } = await buildAmlTestApp({ db: handle.db, clock }));
  });
  afterAll(async () => {
    await app.close();
    await testDatabase.dispose(handle);
  });

  async function call(method: 'GET' | 'POST', url: string, options: { payload?: unknown; headers?: Record<string, string>; raw?: string } = {}) {
    const response = await app.inject({
      method,
      url: `/compliance${url}`,
      headers: { ...(options.raw === undefined ? {} : { 'content-type': 'application/json' }), ...(options.headers ?? key) },
      ...(options.raw !== undefined ? { payload: options.raw } : options.payload === undefined ? {} : { payload: options.payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json() };
  }
  const screen = (payload: Record<string, unknown>, headers?: Record<string, string>) => call('POST', '/aml/screen', { payload, ...(headers ? { headers } : {}) });
  const base = (n: number, overrides: Record<string, unknown> = {}) => ({
    wallet: wallet(n),
    counterparty: wallet(n + 1),
    amount: 250,
    currency: 'USDC',
    paymentId: `p-${n}`,
    direction: 'SEND',
    ...overrides,
  });

  describe('X-Internal-Key (Document 2 §5)', () => {
    const unauthorized = { error: 'This endpoint is internal: a valid X-Internal-Key is required.', code: 'GEN_ERR_UNAUTHORIZED' };
    it.each([
      ['POST', '/aml/screen'],
      ['GET', `/aml/profile/${wallet(1)}`],
      ['GET', `/aml/events/${wallet(1)}`],
    ] as const)('%s %s: 401 without the key, with a wrong one, and with a prefix of the right one', async (method, path) => {
      for (const headers of [{}, { 'x-internal-key': 'wrong' }, { 'x-internal-key': TEST_INTERNAL_KEY.slice(0, -1) }] as Record<string, string>[]) {
        const { status, body } = await call(method, path, { headers, ...(method === 'POST' ? { payload: base(1) } : {}) });
        expect([status, body]).toEqual([401, unauthorized]);
      }
    });

    it('401 comes before validation: a malformed body without the key says nothing about the fields', async () => {
      expect(await screen({ nonsense: true }, {})).toEqual({ status: 401, body: unauthorized });
      expect(await call('GET', '/aml/profile/not!a!wallet', { headers: {} })).toEqual({ status: 401, body: unauthorized });
    });
  });

  describe('POST /aml/screen', () => {
    it('a first, ordinary payment: LOW, PROCEED, the whole body', async () => {
      const { status, body } = await screen(base(0x100));
      expect(status).toBe(200);
      expect(body).toEqual({
        wallet: wallet(0x100),
        riskScore: 10,
        riskTier: 'LOW',
        action: 'PROCEED',
        signals: [
          {
            code: 'NO_HISTORY',
            category: 'HISTORY',
            description: 'The wallet has no transaction history with the rail.',
            weight: 10,
            baseWeight: 10,
            multiplier: 1,
            sanctionsCorrelated: false,
            measured: 0,
            threshold: null,
          },
        ],
        sanctions: { hit: false, matches: [], list: SDN },
        profile: { maturity: 'NEW', txCount: 1, txVolumeAvg: 250, riskScore: 10 },
        paymentId: 'p-256',
        checkedAt: NOW_S,
      });
    });

    it('a wallet on the SDN digital-currency list: BLOCK, CRITICAL, 100, what matched', async () => {
      const { status, body } = await screen(base(0x110, { wallet: LAZARUS_ETH.toLowerCase() }));
      expect(status).toBe(200);
      expect(body).toMatchObject({ riskScore: 100, riskTier: 'CRITICAL', action: 'BLOCK', profile: { maturity: 'UNKNOWN', txCount: 0, riskScore: 100 } });
      expect(body.sanctions).toEqual({
        hit: true,
        matches: [{ kind: 'WALLET_ADDRESS', entNum: 27307, name: 'LAZARUS GROUP', type: 'entity', programs: ['DPRK3'], matchedName: LAZARUS_ETH, score: 1, currency: 'ETH', address: LAZARUS_ETH }],
        list: SDN,
      });
      expect(body.signals[0]).toMatchObject({ code: 'SANCTIONS_WALLET_ADDRESS', weight: 150, multiplier: 1.5, sanctionsCorrelated: true });
      expect(body).not.toHaveProperty('reasoning');
    });

    it('a counterparty named on the SDN list (0.70 or more): BLOCK', async () => {
      const { body } = await screen(base(0x120, { counterparty: 'Banco Nacional de Cuba' }));
      expect(body).toMatchObject({ action: 'BLOCK', sanctions: { hit: true, matches: [{ kind: 'COUNTERPARTY_NAME', entNum: 306, name: 'BANCO NACIONAL DE CUBA', score: 1 }] } });
    });

    it('HIGH: FLAG with the reasoning pass (rule-based, advisory)', async () => {
      // UNKNOWN: NO_HISTORY 10 + LARGE_INITIAL_AMOUNT 20 x 1.5 + REPORTABLE_AMOUNT 10 x 1.5 = 55.
      const { body } = await screen(base(0x130, { amount: 15_001.5 }));
      expect(body).toMatchObject({ riskScore: 55, riskTier: 'HIGH', action: 'FLAG' });
      expect(body.reasoning).toEqual({
        recommendation: 'PROCEED_WITH_REVIEW',
        confidence: 'LOW',
        rationale:
          'Risk score 55 (HIGH) for a UNKNOWN wallet on 3 signal(s). No escalation rule applies and the wallet has too little history to judge the deviation, so the review should confirm the counterparty.',
        keyFactors: [
          'A reportable amount (USD 15,001.50) from a wallet with 0 earlier transaction(s).',
          'USD 15,001.50 is above the USD 10,000.00 reporting threshold.',
          'The wallet has no transaction history with the rail.',
        ],
        processedAt: NOW_S,
        model: RULE_BASED_MODEL,
      });
    });

    it('ESCALATE_TO_BLOCK makes the action BLOCK: three payments just under the threshold from a new wallet', async () => {
      const structuring = (i: number) => screen(base(0x140, { amount: 9_500 + i, paymentId: `s-${i}` }));
      expect((await structuring(1)).body).toMatchObject({ riskScore: 33, action: 'PROCEED' }); // UNKNOWN: 10 + 15 x 1.5
      expect((await structuring(2)).body).toMatchObject({ riskScore: 19, action: 'PROCEED' }); // NEW: 15 x 1.25
      const { body } = await structuring(3); // NEW: (15 + 35) x 1.25 = 62.5
      expect(body).toMatchObject({ riskScore: 63, riskTier: 'HIGH', action: 'BLOCK', reasoning: { recommendation: 'ESCALATE_TO_BLOCK', confidence: 'MEDIUM' } });
      const events = await call('GET', `/aml/events/${wallet(0x140)}`);
      expect(events.body.events.map((event: { paymentId: string; level: string }) => [event.paymentId, event.level])).toEqual([
        ['s-3', 'CRITICAL'],
        ['s-1', 'WARNING'],
      ]);
    });

    it('a non-USD payment takes its USD amount from amountUsd', async () => {
      const { status, body } = await screen(base(0x150, { amount: 9_000, currency: 'eur', amountUsd: 10_400.25 }));
      expect(status).toBe(200);
      expect(body.signals.map((signal: { code: string }) => signal.code)).toEqual(['LARGE_INITIAL_AMOUNT', 'REPORTABLE_AMOUNT', 'NO_HISTORY']);
      expect(body.profile).toMatchObject({ txVolumeAvg: 10_400.25 });
    });

    it('the same paymentId again answers the stored result; with other terms, 409', async () => {
      const first = await screen(base(0x160));
      clock.advance(5_000);
      expect(await screen(base(0x160))).toEqual(first);
      expect(await screen(base(0x160, { amount: 251 }))).toEqual({
        status: 409,
        body: {
          error: 'This paymentId was already screened for this wallet with other terms (counterparty, amount, currency or direction); a paymentId screens one payment.',
          code: 'CMP_ERR_AML_PAYMENT_CONFLICT',
        },
      });
    });

    it('unicode names are screened as names', async () => {
      const { status, body } = await screen(base(0x170, { counterparty: 'Société Générale Zürich 株式会社' }));
      expect([status, body.sanctions.hit]).toEqual([200, false]);
    });

    it.each([
      ['a missing field', { wallet: wallet(1), counterparty: wallet(2), amount: 1, currency: 'USD', paymentId: 'x' }, 'direction'],
      ['an unknown field', { ...base(1), extra: 1 }, 'extra'],
      ['a lower-case direction', base(1, { direction: 'send' }), 'direction'],
      ['an unknown direction', base(1, { direction: 'TRANSFER' }), 'direction'],
      ['a wallet with punctuation', base(1, { wallet: '0x12-34' }), 'wallet'],
      ['a huge wallet', base(1, { wallet: 'a'.repeat(10_000) }), 'wallet'],
      ['a huge counterparty', base(1, { counterparty: 'n'.repeat(300) }), 'counterparty'],
      ['a control character', base(1, { counterparty: 'Acme\u0000Ltd' }), 'counterparty'],
      ['a negative amount', base(1, { amount: -5 }), 'amount'],
      ['an amount as a string', base(1, { amount: '100' }), 'amount'],
      ['seven decimals', base(1, { amount: 1.0000001 }), 'amount'],
      ['an amount above a trillion', base(1, { amount: 2e12 }), 'amount'],
      ['EUR without amountUsd', base(1, { currency: 'EUR' }), 'amountUsd'],
      ['USDC with another amountUsd', base(1, { amountUsd: 3 }), 'amountUsd'],
      ['a paymentId with a space', base(1, { paymentId: 'a b' }), 'paymentId'],
      ['a bad country', base(1, { counterpartyCountry: 'Iran' }), 'counterpartyCountry'],
      ['an array body', [base(1)], ''],
    ])('%s: 400 CMP_ERR_INVALID_REQUEST naming the field', async (_case, payload, field) => {
      const { status, body } = await call('POST', '/aml/screen', { payload });
      expect(status).toBe(400);
      expect(body.code).toBe('CMP_ERR_INVALID_REQUEST');
      expect(body.error).toContain(field);
      expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    });

    it('a __proto__ key written by hand into the JSON is refused', async () => {
      const raw = `{"wallet":"${wallet(1)}","counterparty":"x","amount":1,"currency":"USD","paymentId":"proto","direction":"SEND","__proto__":{"polluted":true}}`;
      const { status, body } = await call('POST', '/aml/screen', { raw });
      expect(status).toBe(400);
      expect(body.code).toBe('CMP_ERR_INVALID_REQUEST');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('GET /aml/profile/:wallet and /aml/events/:wallet', () => {
    it('a never-screened wallet: 200 with an UNKNOWN profile and no events', async () => {
      expect(await call('GET', `/aml/profile/${wallet(0x999)}`)).toEqual({
        status: 200,
        body: {
          wallet: wallet(0x999),
          maturity: 'UNKNOWN',
          txCount: 0,
          txVolumeAvg: 0,
          txVolumeStdDev: null,
          txVolumeTotal: 0,
          txVolumeMax: 0,
          counterpartyCount: 0,
          screenCount: 0,
          blockedCount: 0,
          riskScore: null,
          firstSeenAt: null,
          lastSeenAt: null,
          lastScreenedAt: null,
        },
      });
      expect(await call('GET', `/aml/events/${wallet(0x999)}`)).toEqual({ status: 200, body: { wallet: wallet(0x999), count: 0, events: [] } });
    });

    it('a screened wallet: rolling statistics over its counted transactions, whatever the letter case asked', async () => {
      const w = wallet(0xabc);
      await screen(base(0xabc, { amount: 100, paymentId: 'r-1' }));
      await screen(base(0xabc, { amount: 300, paymentId: 'r-2' }));
      const { status, body } = await call('GET', `/aml/profile/${w.toUpperCase().replace('0X', '0x')}`);
      expect(status).toBe(200);
      // mean 200; sample sd = sqrt(((100 - 200)² + (300 - 200)²) / 1) = 141.42.
      expect(body).toMatchObject({
        maturity: 'NEW',
        txCount: 2,
        txVolumeAvg: 200,
        txVolumeStdDev: 141.42,
        txVolumeTotal: 400,
        txVolumeMax: 300,
        counterpartyCount: 1,
        screenCount: 2,
        blockedCount: 0,
        firstSeenAt: expect.any(Number),
      });
    });

    it('a malformed wallet is 400', async () => {
      const { status, body } = await call('GET', `/aml/profile/${encodeURIComponent('0x<script>')}`);
      expect([status, body.code]).toEqual([400, 'CMP_ERR_INVALID_REQUEST']);
    });
  });

  it('the OpenAPI document lists the three paths with their response schemas', async () => {
    const response = await app.inject({ method: 'GET', url: '/compliance/openapi.json' });
    const document = response.json();
    const paths = Object.keys(document.paths);
    // Paths are relative to the document's server, {compliance_url}.
    expect(paths).toEqual(expect.arrayContaining(['/aml/screen', '/aml/profile/{wallet}', '/aml/events/{wallet}']));
    const screenPath = document.paths['/aml/screen'].post;
    expect(Object.keys(screenPath.responses).sort()).toEqual(['200', '400', '401', '409']);
  });
});

describe('the reasoning pass through the synthesiser', () => {
  const flagged = { wallet: wallet(0x200), counterparty: wallet(0x201), amount: 15_001, currency: 'USD', paymentId: 'synth-1', direction: 'RECEIVE' };

  async function appWith(synthesiser: Synthesiser) {
    const handle = await testDatabases()[0]!.open();
    const clock = new ManualClock(TEST_NOW);
    const { app } = await buildAmlTestApp({ db: handle.db, clock, synthesiser });
    return {
      app,
      close: async () => {
        await app.close();
        await handle.close();
      },
    };
  }
  const post = (app: HttpServer) => app.inject({ method: 'POST', url: '/compliance/aml/screen', headers: key, payload: flagged });

  it('a language model rewords the rationale; the stored result (answered again on replay) is the worded one', async () => {
    const { app, close } = await appWith({ model: 'test-llm', synthesise: async () => ({ text: 'Reworded.', model: 'test-llm', generatedAt: TEST_NOW }) });
    const first = (await post(app)).json();
    expect(first).toMatchObject({ action: 'FLAG', reasoning: { recommendation: 'PROCEED_WITH_REVIEW', rationale: 'Reworded.', model: 'test-llm' } });
    expect((await post(app)).json()).toEqual(first);
    await close();
  });

  it('when the synthesiser fails, the rule-based rationale stays and the action is unchanged (decision 0017)', async () => {
    const { app, close } = await appWith({ model: 'down-llm', synthesise: async () => null });
    const body = (await post(app)).json();
    expect(body).toMatchObject({ action: 'FLAG', reasoning: { recommendation: 'PROCEED_WITH_REVIEW', model: RULE_BASED_MODEL, rationale: expect.stringMatching(/^Risk score 55 \(HIGH\)/) } });
    await close();
  });
});

describe('through the all-in-one server (compliance subgraph, INTERNAL_KEY set)', () => {
  const INTERNAL_KEY = 'server-internal-key-0123456789abcdef0123';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['compliance'], environment: { INTERNAL_KEY } });
  });
  afterAll(async () => server.app.close());

  it('POST /compliance/aml/screen, then the profile and events; 401 without the key; the paths in /compliance/openapi.json', async () => {
    const w = `0x${'5e'.repeat(20)}`;
    const payload = { wallet: w, counterparty: LAZARUS_ETH, amount: 1_000, currency: 'USDC', paymentId: `server-${Date.now()}`, direction: 'SEND' };
    const refused = await server.app.inject({ method: 'POST', url: '/compliance/aml/screen', payload });
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'GEN_ERR_UNAUTHORIZED']);
    const headers = { 'x-internal-key': INTERNAL_KEY };
    const screened = await server.app.inject({ method: 'POST', url: '/compliance/aml/screen', headers, payload });
    expect(screened.statusCode).toBe(200);
    expect(screened.json()).toMatchObject({
      wallet: w,
      riskScore: 100,
      riskTier: 'CRITICAL',
      action: 'BLOCK',
      sanctions: { hit: true, matches: [{ kind: 'COUNTERPARTY_ADDRESS', entNum: 27307 }] },
      paymentId: payload.paymentId,
    });
    const profile = await server.app.inject({ method: 'GET', url: `/compliance/aml/profile/${w}`, headers });
    expect(profile.json()).toMatchObject({ wallet: w, maturity: 'UNKNOWN', txCount: 0, blockedCount: 1 });
    const events = await server.app.inject({ method: 'GET', url: `/compliance/aml/events/${w}`, headers });
    expect(events.json().events[0]).toMatchObject({ paymentId: payload.paymentId, level: 'CRITICAL', action: 'BLOCK', sanctionsHit: true });
    const document = (await server.app.inject({ method: 'GET', url: '/compliance/openapi.json' })).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/aml/screen', '/aml/profile/{wallet}', '/aml/events/{wallet}']));
  });
});

import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../../../drizzle/schema.js';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { nextStepOf } from './domain/index.js';
import {
  ACTIVE_LEI_ENTRY,
  AGENT_ID,
  AGENT_JWK,
  AGENT_KEY,
  AGENT_PRIVATE_D,
  BASE,
  buildKyaTestApp,
  ISSUER_DID,
  type KyaTestApp,
  LAPSED_LEI_ENTRY,
  MANDATE_ID,
  NOW_MS,
  UNKNOWN_VALID_LEI,
} from './testing.js';

// The know-your-agent paths under {compliance_url}, by body: registration and its tier, mandates.

describe.each(testDatabases())('KYA routes on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let kya: KyaTestApp;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
    kya = await buildKyaTestApp({ db: handle.db, clock, baseUrl: BASE });
  });
  afterAll(async () => {
    await kya.app.close();
    await testDatabase.dispose(handle);
  });

  /** The agentKey of each agent registered here: sent as X-Agent-Key, its owner's proof (decision 0048), on its mandate and revocation. */
  const agentKeys = new Map<string, string>();
  function ownerProof(method: string, url: string, payload: unknown): Record<string, string> {
    const agentId = method === 'DELETE' ? url.split('/').pop() : url === '/agent/mandate' ? (payload as { agentId?: string } | undefined)?.agentId : undefined;
    const key = agentId === undefined ? undefined : agentKeys.get(agentId);
    return key === undefined ? {} : { 'x-agent-key': key };
  }
  async function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
    const response = await kya.app.inject({
      method,
      url: `/compliance${url}`,
      headers: ownerProof(method, url, payload),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json(), headers: response.headers, text: response.body };
  }
  const register = async (body: Record<string, unknown>) => {
    const registered = await call('POST', '/agent/register', body);
    if (registered.status === 201) agentKeys.set(registered.body.agentId, registered.body.agentKey);
    return registered;
  };
  const agentCount = async () => (await handle.db.select({ n: count() }).from(agents))[0]!.n;

  describe('POST /agent/register derives the tier from the fields given', () => {
    it('name only: ANONYMOUS, USD 1,000 a day, the upgrade path in _next', async () => {
      const { status, body } = await register({ name: 'Scout' });
      expect(status).toBe(201);
      expect(body).toEqual({
        agentId: expect.stringMatching(AGENT_ID),
        name: 'Scout',
        did: `${ISSUER_DID}:agents:${body.agentId}`,
        kyaLevel: 'ANONYMOUS',
        kyaScore: 20, // base 20, no key, framework or protocol
        status: 'ACTIVE',
        tierCaps: { maxNotionalUsd: 1_000, dailyCapUsd: 1_000 },
        leiVerified: false,
        leiEntityName: null,
        tierNote: 'ANONYMOUS: agent name only; daily cap USD 1,000; a mandate needs REGISTERED or VERIFIED.',
        mandate: null,
        registeredAt: TEST_NOW,
        agentKey: expect.stringMatching(AGENT_KEY),
        _next: nextStepOf('ANONYMOUS'),
      });
    });

    it('ownerEntity and ownerEmail: REGISTERED, USD 25,000 a day', async () => {
      const { status, body } = await register({ name: 'Treasurer', framework: 'langgraph', ownerEntity: 'Acme Treasury Ltd', ownerEmail: 'ops@acme.example', protocols: ['x402', 'X402', 'ap2'] });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        kyaLevel: 'REGISTERED',
        kyaScore: 60,
        tierCaps: { maxNotionalUsd: 25_000, dailyCapUsd: 25_000 },
        leiVerified: false,
        leiEntityName: null,
        _next: nextStepOf('REGISTERED'),
      }); // 50 + 5 + 5
      const record = await call('GET', `/agent/${body.agentId}`);
      expect(record.body.protocols).toEqual(['x402', 'ap2']); // lower-cased, each once
    });

    it('an ACTIVE LEI: VERIFIED by the registry lookup, no platform cap, no _next', async () => {
      const { status, body } = await register({ name: 'Clearing bot', ownerLei: ACTIVE_LEI_ENTRY.lei.toLowerCase(), publicKey: AGENT_JWK });
      expect(status).toBe(201);
      expect(body).toEqual({
        agentId: expect.stringMatching(AGENT_ID),
        name: 'Clearing bot',
        did: `${ISSUER_DID}:agents:${body.agentId}`,
        kyaLevel: 'VERIFIED',
        kyaScore: 90, // 80 + 10 for the key
        status: 'ACTIVE',
        tierCaps: { maxNotionalUsd: null, dailyCapUsd: null },
        leiVerified: true,
        leiEntityName: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.',
        tierNote: "VERIFIED: the owner's LEI is ACTIVE in the LEI registry (SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.); no platform cap; mandates set their own caps.",
        mandate: null,
        registeredAt: TEST_NOW,
        agentKey: expect.stringMatching(AGENT_KEY),
      });
      expect(body).not.toHaveProperty('_next');
      // Registered by LEI alone, the owner is named as the registry names it.
      expect((await call('GET', `/agent/${body.agentId}`)).body.ownerEntity).toBe(ACTIVE_LEI_ENTRY.legalName);
    });

    it('a LAPSED LEI verifies nothing: with entity and email REGISTERED, alone ANONYMOUS', async () => {
      const withOwner = await register({ name: 'Lapsed', ownerEntity: 'ALFA REY s.r.o.', ownerEmail: 'ops@alfarey.example', ownerLei: LAPSED_LEI_ENTRY.lei });
      expect(withOwner.status).toBe(201);
      expect(withOwner.body).toMatchObject({
        kyaLevel: 'REGISTERED',
        leiVerified: false,
        leiEntityName: 'ALFA REY s.r.o.',
        tierCaps: { maxNotionalUsd: 25_000, dailyCapUsd: 25_000 },
        tierNote:
          'REGISTERED: owner entity and self-attested email; daily cap USD 25,000; mandate caps are clamped to it. The ownerLei is in the LEI registry with status LAPSED, not ACTIVE, so it does not verify the owner.',
        _next: nextStepOf('REGISTERED'),
      });
      const alone = await register({ name: 'Lapsed alone', ownerLei: LAPSED_LEI_ENTRY.lei });
      expect(alone.body).toMatchObject({ kyaLevel: 'ANONYMOUS', leiVerified: false, tierCaps: { dailyCapUsd: 1_000 } });
    });

    it('a well-formed LEI the registry does not hold verifies nothing', async () => {
      const { body } = await register({ name: 'Unknown', ownerEntity: 'Somebody', ownerEmail: 'a@b.example', ownerLei: UNKNOWN_VALID_LEI });
      expect(body).toMatchObject({ kyaLevel: 'REGISTERED', leiVerified: false, leiEntityName: null });
      expect(body.tierNote).toMatch(/not in the LEI registry/);
    });

    it('an LEI with wrong check digits is refused: 400 CMP_ERR_INVALID_LEI, nothing stored', async () => {
      const before = await agentCount();
      const { status, body } = await register({ name: 'Typo', ownerLei: '2138001KPMR6PD83HC09' });
      expect([status, body]).toEqual([400, { error: '"2138001KPMR6PD83HC09" is not a valid LEI: 20 letters and digits with ISO 17442 check digits.', code: 'CMP_ERR_INVALID_LEI' }]);
      expect(await agentCount()).toBe(before);
    });

    it('a mandate given at registration: REGISTERED caps clamped to USD 25,000', async () => {
      const { status, body } = await register({
        name: 'Payer',
        ownerEntity: 'Acme Treasury Ltd',
        ownerEmail: 'ops@acme.example',
        protocols: ['ap2'],
        mandate: { maxNotionalUsd: 40_000, dailyCapUsd: 100_000, currencyPairs: ['usd|eur', 'USD|EUR', 'USDC|GBP'], esgFloor: 55.5 },
      });
      expect(status).toBe(201);
      expect(body.mandate).toEqual({
        mandateId: expect.stringMatching(MANDATE_ID),
        agentId: body.agentId,
        maxNotionalUsd: 25_000, // min(40,000, 25,000)
        dailyCapUsd: 25_000, // min(100,000, 25,000)
        counterpartyWhitelist: [],
        currencyPairs: ['USD|EUR', 'USDC|GBP'],
        esgFloor: 55.5,
        ap2Compatible: true, // undeclared, and the agent speaks ap2
        clamped: true,
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
      });
    });

    it('an ANONYMOUS registration with a mandate is refused: 403, nothing stored', async () => {
      const before = await agentCount();
      const { status, body } = await register({ name: 'Eager', mandate: { dailyCapUsd: 500 } });
      expect(status).toBe(403);
      expect(body).toEqual({ error: expect.stringMatching(/^ANONYMOUS agents cannot hold a mandate/), code: 'CMP_ERR_KYA_UPGRADE_REQUIRED' });
      expect(await agentCount()).toBe(before);
    });

    it.each<[string, unknown, RegExp]>([
      ['no name', { ownerEntity: 'X' }, /name/],
      ['an empty name', { name: '   ' }, /name: must not be empty/],
      ['a name of 129 characters', { name: 'n'.repeat(129) }, /name: must be at most 128 characters/],
      ['an unknown field', { name: 'A', owner: 'B' }, /unknown field: "owner"/],
      ['an email that is not one', { name: 'A', ownerEntity: 'B', ownerEmail: 'not-an-email' }, /ownerEmail: must be an email address/],
      ['an LEI of 19 characters', { name: 'A', ownerLei: '2138001KPMR6PD83HC0' }, /ownerLei: must be an LEI/],
      ['a currency pair without the bar', { name: 'A', ownerEntity: 'B', ownerEmail: 'b@b.example', mandate: { currencyPairs: ['USDEUR'] } }, /mandate.currencyPairs.0: must be <SRC>\|<DST>/],
      ['a cap in fractions of a cent', { name: 'A', ownerEntity: 'B', ownerEmail: 'b@b.example', mandate: { dailyCapUsd: 10.001 } }, /mandate.dailyCapUsd: must have at most 2 decimal places/],
      ['a negative cap', { name: 'A', ownerEntity: 'B', ownerEmail: 'b@b.example', mandate: { maxNotionalUsd: -5 } }, /mandate.maxNotionalUsd: must be greater than 0/],
      ['an esgFloor above 100', { name: 'A', ownerEntity: 'B', ownerEmail: 'b@b.example', mandate: { esgFloor: 101 } }, /mandate.esgFloor: must be between 0 and 100/],
      ['an unknown mandate field', { name: 'A', mandate: { perTxCap: 1 } }, /unknown field in mandate: "perTxCap"/],
      ['a private key', { name: 'A', publicKey: { ...AGENT_JWK, d: AGENT_PRIVATE_D } }, /unknown field in publicKey: "d"/],
      ['a key off the curve', { name: 'A', publicKey: { ...AGENT_JWK, y: AGENT_JWK.x } }, /publicKey: must be a point of the P-256 curve/],
      ['a key of another curve', { name: 'A', publicKey: { ...AGENT_JWK, crv: 'secp256k1' } }, /publicKey.crv/],
      ['discoverable as text', { name: 'A', discoverable: 'yes' }, /discoverable/],
      ['17 protocols', { name: 'A', protocols: Array.from({ length: 17 }, (_, index) => `p${index}`) }, /protocols: must hold at most 16 protocols/],
      ['a protocol with spaces', { name: 'A', protocols: ['x 402'] }, /protocols.0: must be a protocol name/],
    ])('%s: 400 CMP_ERR_INVALID_REQUEST naming the field', async (_case, payload, message) => {
      const { status, body } = await register(payload as Record<string, unknown>);
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.stringMatching(message), code: 'CMP_ERR_INVALID_REQUEST' });
    });

    it('a body that is not JSON: 400 in the compliance shape', async () => {
      const response = await kya.app.inject({ method: 'POST', url: '/compliance/agent/register', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String), code: 'CMP_ERR_INVALID_REQUEST' });
    });
  });

  describe('POST /agent/mandate', () => {
    it('REGISTERED: created (201) clamped to the tier, then replaced (200) under the same mandateId', async () => {
      const agent = (await register({ name: 'M1', ownerEntity: 'Acme', ownerEmail: 'm1@acme.example', protocols: ['x402'] })).body;
      const first = await call('POST', '/agent/mandate', { agentId: agent.agentId, maxNotionalUsd: 30_000, dailyCapUsd: 20_000, counterpartyWhitelist: [ACTIVE_LEI_ENTRY.lei] });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        mandateId: expect.stringMatching(MANDATE_ID),
        agentId: agent.agentId,
        maxNotionalUsd: 20_000, // min(30,000, 25,000) = 25,000, then at most the daily cap 20,000
        dailyCapUsd: 20_000,
        counterpartyWhitelist: [ACTIVE_LEI_ENTRY.lei],
        currencyPairs: [],
        esgFloor: null,
        ap2Compatible: false, // undeclared, and the agent does not speak ap2
        clamped: true,
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
      });
      clock.advance(60_000);
      const second = await call('POST', '/agent/mandate', { agentId: agent.agentId, maxNotionalUsd: 1_000, dailyCapUsd: 5_000, ap2Compatible: true });
      clock.advance(-60_000);
      expect(second.status).toBe(200);
      expect(second.body).toEqual({
        ...first.body,
        maxNotionalUsd: 1_000,
        dailyCapUsd: 5_000,
        counterpartyWhitelist: [],
        ap2Compatible: true,
        clamped: false,
        updatedAt: new Date(NOW_MS + 60_000).toISOString(),
      });
      expect((await call('GET', `/agent/${agent.agentId}`)).body.mandate).toEqual(second.body);
    });

    it('VERIFIED sets its own caps, above any tier limit; omitted caps are none', async () => {
      const agent = (await register({ name: 'M2', ownerLei: ACTIVE_LEI_ENTRY.lei })).body;
      const own = await call('POST', '/agent/mandate', { agentId: agent.agentId, maxNotionalUsd: 2_000_000, dailyCapUsd: 10_000_000.5 });
      expect(own.body).toMatchObject({ maxNotionalUsd: 2_000_000, dailyCapUsd: 10_000_000.5, clamped: false });
      const none = await call('POST', '/agent/mandate', { agentId: agent.agentId });
      expect([none.status, none.body]).toMatchObject([200, { maxNotionalUsd: null, dailyCapUsd: null, clamped: false }]);
    });

    it('ANONYMOUS must upgrade first: 403 CMP_ERR_KYA_UPGRADE_REQUIRED', async () => {
      const agent = (await register({ name: 'M3' })).body;
      const { status, body } = await call('POST', '/agent/mandate', { agentId: agent.agentId, dailyCapUsd: 100 });
      expect([status, body.code]).toEqual([403, 'CMP_ERR_KYA_UPGRADE_REQUIRED']);
      expect((await call('GET', `/agent/${agent.agentId}`)).body.mandate).toBeNull();
    });

    it.each<[string, (agentId: string) => Record<string, unknown>, number, string]>([
      // No key is known for it: refused before anything is looked up (decision 0048).
      ['an unknown agent', () => ({ agentId: `agt_${'A'.repeat(22)}` }), 401, 'CMP_ERR_AGENT_UNAUTHORIZED'],
      ['a malformed agentId', () => ({ agentId: 'agent-1' }), 400, 'CMP_ERR_INVALID_REQUEST'],
      ['no agentId', () => ({ dailyCapUsd: 5 }), 400, 'CMP_ERR_INVALID_REQUEST'],
      ['a whitelist LEI with wrong check digits', (agentId) => ({ agentId, counterpartyWhitelist: ['2138001KPMR6PD83HC09'] }), 400, 'CMP_ERR_INVALID_LEI'],
    ])('%s: %s %s', async (_case, payload, status, code) => {
      const agent = (await register({ name: 'M4', ownerEntity: 'Acme', ownerEmail: 'm4@acme.example' })).body;
      const response = await call('POST', '/agent/mandate', payload(agent.agentId));
      expect([response.status, response.body]).toEqual([status, { error: expect.any(String), code }]);
    });
  });
});

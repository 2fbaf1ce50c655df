import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
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
  HOUR_MS,
  ISSUER_DID,
  type KyaTestApp,
  LAPSED_LEI_ENTRY,
  MANDATE_ID,
  NOW_MS,
  TEST_INTERNAL_KEY,
  UNKNOWN_VALID_LEI,
} from './testing.js';

// The know-your-agent paths under {compliance_url}, by body: registration and its tier, mandates,
// verification, revocation, the record, the owner's proof (decision 0048) and the OpenAPI document.

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

  describe('POST /agent/:id/verify', () => {
    it('an active agent: verified, a credential for one hour signed by the service, and its VC-JWT', async () => {
      const agent = (await register({ name: 'V1', ownerEntity: 'Acme', ownerEmail: 'v1@acme.example', mandate: { maxNotionalUsd: 2_500, dailyCapUsd: 10_000 } })).body;
      const { status, body } = await call('POST', `/agent/${agent.agentId}/verify`);
      expect(status).toBe(200);
      expect(body).toEqual({
        verified: true,
        agentId: agent.agentId,
        status: 'ACTIVE',
        kyaLevel: 'REGISTERED',
        kyaScore: 50,
        credential: {
          agentId: agent.agentId,
          issuedAt: NOW_MS,
          expiresAt: NOW_MS + HOUR_MS, // Document 2 §8: 1 hour TTL
          mandateId: agent.mandate.mandateId,
          attestation: { kyaLevel: 'REGISTERED', ownerVerified: false, mandateActive: true, fatfCompliant: true, dailyCapUsd: 10_000, maxNotionalUsd: 2_500 },
          signature: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        verifiableCredential: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      expect(kya.service.credentialSignatureValid(body.credential)).toBe(true);
      // A changed claim under the same signature fails.
      expect(kya.service.credentialSignatureValid({ ...body.credential, attestation: { ...body.credential.attestation, dailyCapUsd: 1_000_000 } })).toBe(false);
      expect(kya.service.credentialSignatureValid({ ...body.credential, expiresAt: body.credential.expiresAt + HOUR_MS })).toBe(false);

      const [header, payload] = (body.verifiableCredential as string)
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
      expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: kya.issuer.verificationMethod.id });
      expect(payload).toEqual({
        iss: ISSUER_DID,
        sub: agent.did,
        jti: expect.stringMatching(/^urn:uuid:[0-9a-f-]{36}$/),
        nbf: NOW_MS / 1000,
        exp: NOW_MS / 1000 + 3_600,
        vc: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential', 'KnowYourAgentCredential'],
          credentialSubject: { agentId: agent.agentId, kyaLevel: 'REGISTERED', kyaScore: 50, mandateId: agent.mandate.mandateId, attestation: body.credential.attestation },
        },
      });
    });

    it('an ANONYMOUS agent without mandate: its tier caps, not FATF-compliant, mandateId null', async () => {
      const agent = (await register({ name: 'V2' })).body;
      const { body } = await call('POST', `/agent/${agent.agentId}/verify`);
      expect(body.credential).toMatchObject({
        mandateId: null,
        attestation: { kyaLevel: 'ANONYMOUS', ownerVerified: false, mandateActive: false, fatfCompliant: false, dailyCapUsd: 1_000, maxNotionalUsd: 1_000 },
      });
    });

    it('a VERIFIED agent: owner verified, no platform cap (null)', async () => {
      const agent = (await register({ name: 'V3', ownerLei: ACTIVE_LEI_ENTRY.lei })).body;
      const { body } = await call('POST', `/agent/${agent.agentId}/verify`);
      expect(body.credential.attestation).toEqual({ kyaLevel: 'VERIFIED', ownerVerified: true, mandateActive: false, fatfCompliant: true, dailyCapUsd: null, maxNotionalUsd: null });
    });

    it.each([
      ['an unknown agent', `agt_${'B'.repeat(22)}`, 404, 'CMP_ERR_AGENT_NOT_FOUND'],
      ['a malformed id', 'agt_short', 400, 'CMP_ERR_INVALID_REQUEST'],
    ])('%s: %s %s', async (_case, agentId, status, code) => {
      const response = await call('POST', `/agent/${agentId}/verify`);
      expect([response.status, response.body]).toEqual([status, { error: expect.any(String), code }]);
    });
  });

  describe('DELETE /agent/:id revokes at once', () => {
    it('verification answers REVOKED with no credential; record, mandate and identity document follow', async () => {
      const agent = (await register({ name: 'R1', ownerEntity: 'Acme', ownerEmail: 'r1@acme.example', discoverable: true, mandate: { dailyCapUsd: 100 } })).body;
      expect((await call('POST', `/agent/${agent.agentId}/verify`)).body.verified).toBe(true);
      clock.advance(5_000);
      const revokedAt = new Date(NOW_MS + 5_000).toISOString();
      const revoked = await call('DELETE', `/agent/${agent.agentId}`);
      expect([revoked.status, revoked.body]).toEqual([200, { agentId: agent.agentId, status: 'REVOKED', revokedAt }]);

      const verification = await call('POST', `/agent/${agent.agentId}/verify`);
      expect([verification.status, verification.body]).toEqual([
        200,
        {
          verified: false,
          agentId: agent.agentId,
          status: 'REVOKED',
          kyaLevel: 'REGISTERED',
          kyaScore: 50,
          revokedAt,
          message: 'The agent was revoked: no credential is issued, and credentials issued before are void.',
        },
      ]);
      expect((await call('GET', `/agent/${agent.agentId}`)).body).toMatchObject({ status: 'REVOKED', revokedAt });
      const mandate = await call('POST', '/agent/mandate', { agentId: agent.agentId, dailyCapUsd: 50 });
      expect([mandate.status, mandate.body.code]).toEqual([410, 'CMP_ERR_AGENT_REVOKED']);
      const document = await call('GET', `/agents/${agent.agentId}/did.json`);
      expect([document.status, document.body.code]).toEqual([410, 'CMP_ERR_AGENT_REVOKED']);
      expect((await call('GET', '/agents/directory?ownerEntity=Acme')).body.agents.map((entry: { agentId: string }) => entry.agentId)).not.toContain(agent.agentId);

      // Revoking again changes nothing: the first revocation's time is answered.
      clock.advance(5_000);
      expect((await call('DELETE', `/agent/${agent.agentId}`)).body).toEqual(revoked.body);
      clock.advance(-10_000);
    });

    it('an unknown agent: 404 CMP_ERR_AGENT_NOT_FOUND with a well-formed key, 401 without one', async () => {
      const url = `/compliance/agent/agt_${'C'.repeat(22)}`;
      const keyed = await kya.app.inject({ method: 'DELETE', url, headers: { 'x-agent-key': `agk_${'C'.repeat(43)}` } });
      expect([keyed.statusCode, keyed.json()]).toEqual([404, { error: 'No agent with this agentId is registered.', code: 'CMP_ERR_AGENT_NOT_FOUND' }]);
      const { status, body } = await call('DELETE', `/agent/agt_${'C'.repeat(22)}`);
      expect([status, body.code]).toEqual([401, 'CMP_ERR_AGENT_UNAUTHORIZED']);
    });
  });

  describe('GET /agent/:id', () => {
    it('answers the record with its mandate, never the owner email or LEI', async () => {
      const agent = (
        await register({
          name: 'G1',
          framework: 'crewai',
          ownerEntity: 'ALFA REY s.r.o.',
          ownerEmail: 'secret@alfarey.example',
          ownerLei: LAPSED_LEI_ENTRY.lei,
          publicKey: AGENT_JWK,
          mandate: { dailyCapUsd: 900 },
        })
      ).body;
      const { status, body, text } = await call('GET', `/agent/${agent.agentId}`);
      expect(status).toBe(200);
      expect(body).toEqual({
        agentId: agent.agentId,
        name: 'G1',
        framework: 'crewai',
        ownerEntity: 'ALFA REY s.r.o.',
        protocols: [],
        discoverable: false,
        did: agent.did,
        publicKey: AGENT_JWK,
        kyaLevel: 'REGISTERED',
        kyaScore: 65, // 50 + 10 + 5
        status: 'ACTIVE',
        tierCaps: { maxNotionalUsd: 25_000, dailyCapUsd: 25_000 },
        leiVerified: false,
        leiEntityName: 'ALFA REY s.r.o.',
        registeredAt: TEST_NOW,
        revokedAt: null,
        mandate: agent.mandate,
        _next: nextStepOf('REGISTERED'),
      });
      expect(text).not.toContain('secret@alfarey.example');
      expect(text).not.toContain(LAPSED_LEI_ENTRY.lei);
    });

    it('an unknown agent: 404; a malformed id: 400; an unknown path under /compliance: 404, all as {error, code}', async () => {
      expect(await call('GET', `/agent/agt_${'D'.repeat(22)}`)).toMatchObject({ status: 404, body: { code: 'CMP_ERR_AGENT_NOT_FOUND' } });
      expect(await call('GET', '/agent/%00')).toMatchObject({ status: 400, body: { code: 'CMP_ERR_INVALID_REQUEST' } });
      expect(await call('GET', '/agents/nothing/here')).toMatchObject({ status: 404, body: { error: expect.any(String), code: 'GEN_ERR_NOT_FOUND' } });
    });
  });

  describe("the owner's proof (decision 0048)", () => {
    const inject = (method: 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
      kya.app.inject({ method, url: `/compliance${url}`, headers, ...(payload ? { payload } : {}) }).then((response) => ({ status: response.statusCode, body: response.json() }));

    it("refuses another agent's key on the mandate and the revocation, and keeps only the key's digest", async () => {
      const owner = (await register({ name: 'P1', ownerEntity: 'Acme', ownerEmail: 'p1@acme.example' })).body;
      const stranger = (await register({ name: 'P2', ownerEntity: 'Other', ownerEmail: 'p2@other.example' })).body;
      const headers = { 'x-agent-key': stranger.agentKey };
      expect(await inject('POST', '/agent/mandate', headers, { agentId: owner.agentId, dailyCapUsd: 25_000 })).toEqual({
        status: 401,
        body: { error: expect.stringContaining('X-Agent-Key'), code: 'CMP_ERR_AGENT_UNAUTHORIZED' },
      });
      expect((await inject('DELETE', `/agent/${owner.agentId}`, headers)).status).toBe(401);
      expect((await call('GET', `/agent/${owner.agentId}`)).body).toMatchObject({ status: 'ACTIVE', mandate: null });
      const [row] = await handle.db.select({ digest: agents.agentKeySha256 }).from(agents).where(eq(agents.agentId, owner.agentId));
      expect(row!.digest).toBe(createHash('sha256').update(owner.agentKey).digest('hex'));
    });

    it('answers a retried mandate under its Idempotency-Key as the first was answered; another body under it is 409', async () => {
      const owner = (await register({ name: 'P3', ownerEntity: 'Acme', ownerEmail: 'p3@acme.example' })).body;
      const headers = { 'x-agent-key': owner.agentKey, 'idempotency-key': 'mandate-p3-1' };
      const first = await inject('POST', '/agent/mandate', headers, { agentId: owner.agentId, dailyCapUsd: 500 });
      const retried = await inject('POST', '/agent/mandate', headers, { agentId: owner.agentId, dailyCapUsd: 500 });
      expect(first.status).toBe(201);
      expect(retried).toEqual(first);
      const other = await inject('POST', '/agent/mandate', headers, { agentId: owner.agentId, dailyCapUsd: 600 });
      expect([other.status, other.body.code]).toEqual([409, 'GEN_ERR_IDEMPOTENCY_CONFLICT']);
    });

    it('POST /agent/:id/authorize is internal: the internal key, then the agent key decides', async () => {
      const owner = (await register({ name: 'P4' })).body;
      const internal = { 'x-internal-key': TEST_INTERNAL_KEY };
      expect(await inject('POST', `/agent/${owner.agentId}/authorize`, internal, { agentKey: owner.agentKey })).toEqual({ status: 200, body: { agentId: owner.agentId, authorized: true } });
      expect((await inject('POST', `/agent/${owner.agentId}/authorize`, internal, { agentKey: `agk_${'Z'.repeat(43)}` })).body.code).toBe('CMP_ERR_AGENT_UNAUTHORIZED');
      expect((await inject('POST', `/agent/${owner.agentId}/authorize`, {}, { agentKey: owner.agentKey })).body.code).toBe('GEN_ERR_UNAUTHORIZED');
    });
  });

  it('the OpenAPI document lists every KYA path, relative to {compliance_url}', async () => {
    const { body } = await call('GET', '/openapi.json');
    expect(Object.keys(body.paths).sort()).toEqual([
      '/.well-known/did.json',
      '/agent/mandate',
      '/agent/register',
      '/agent/{id}',
      '/agent/{id}/authorize',
      '/agent/{id}/verify',
      '/agents/directory',
      '/agents/{id}/did.json',
      '/did.json',
    ]);
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { didWebDocumentUrl } from '../../../platform/credentials.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { ACTIVE_LEI_ENTRY, buildKyaTestApp, type KyaTestApp, LAPSED_LEI_ENTRY } from './testing.js';

const BASE = 'https://kya.test';
const ISSUER_DID = 'did:web:kya.test:compliance';
const DID_CONTEXTS = ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'];
const { kty, crv, x, y } = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
const AGENT_JWK = { kty, crv, x, y };

interface Registered {
  agentId: string;
  agentKey: string;
  did: string;
  registeredAt: string;
}

describe.each(testDatabases())('KYA directory and identity documents on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let kya: KyaTestApp;
  const clock = new ManualClock(TEST_NOW);
  const agents: Record<'a' | 'b' | 'hidden' | 'revoked' | 'other', Registered> = {} as never;

  async function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) {
    const response = await kya.app.inject({ method, url: `/compliance${url}`, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json(), headers: response.headers, text: response.body };
  }
  async function register(body: Record<string, unknown>): Promise<Registered> {
    clock.advance(1_000); // one second apart: the directory lists by registration time
    const { status, body: registered } = await call('POST', '/agent/register', body);
    expect(status).toBe(201);
    return registered as Registered;
  }

  beforeAll(async () => {
    handle = await testDatabase.open();
    kya = await buildKyaTestApp({ db: handle.db, clock, baseUrl: BASE });
    // 1. Two discoverable agents of one owner: one with email, a (lapsed) LEI and a mandate, one VERIFIED with its own key.
    agents.a = await register({
      name: 'Alpha',
      ownerEntity: 'Directory Owner Plc',
      ownerEmail: 'private.person@owner.example',
      ownerLei: LAPSED_LEI_ENTRY.lei,
      protocols: ['x402'],
      discoverable: true,
      mandate: { maxNotionalUsd: 900, dailyCapUsd: 1_800, counterpartyWhitelist: [ACTIVE_LEI_ENTRY.lei], currencyPairs: ['USD|EUR'] },
    });
    agents.b = await register({
      name: 'Beta',
      ownerEntity: 'DIRECTORY OWNER PLC',
      ownerEmail: 'b@owner.example',
      ownerLei: ACTIVE_LEI_ENTRY.lei,
      publicKey: AGENT_JWK,
      protocols: ['ap2', 'x402'],
      discoverable: true,
    });
    // 2. Of the same owner but not listed: not discoverable, and revoked.
    agents.hidden = await register({ name: 'Hidden', ownerEntity: 'Directory Owner Plc', ownerEmail: 'h@owner.example' });
    agents.revoked = await register({ name: 'Gone', ownerEntity: 'Directory Owner Plc', ownerEmail: 'g@owner.example', discoverable: true });
    const revoked = await kya.app.inject({ method: 'DELETE', url: `/compliance/agent/${agents.revoked.agentId}`, headers: { 'x-agent-key': agents.revoked.agentKey } });
    expect(revoked.statusCode).toBe(200);
    // 3. Another owner's discoverable agent.
    agents.other = await register({ name: 'Other', discoverable: true });
  });
  afterAll(async () => {
    await kya.app.close();
    await testDatabase.dispose(handle);
  });

  describe('GET /agents/directory', () => {
    it("lists an owner's active discoverable agents (owner matched case-insensitively), oldest first, exposing nothing private", async () => {
      const { status, body, text } = await call('GET', '/agents/directory?ownerEntity=directory%20owner%20plc');
      expect(status).toBe(200);
      expect(body).toEqual({
        count: 2,
        agents: [
          {
            agentId: agents.a.agentId,
            name: 'Alpha',
            ownerEntity: 'Directory Owner Plc',
            kyaLevel: 'REGISTERED',
            leiVerified: false,
            did: agents.a.did,
            protocols: ['x402'],
            registeredAt: agents.a.registeredAt,
          },
          {
            agentId: agents.b.agentId,
            name: 'Beta',
            ownerEntity: 'DIRECTORY OWNER PLC',
            kyaLevel: 'VERIFIED',
            leiVerified: true,
            did: agents.b.did,
            protocols: ['ap2', 'x402'],
            registeredAt: agents.b.registeredAt,
          },
        ],
      });
      // No email, no raw LEI, no mandate detail: not as a field, and not anywhere in the text.
      for (const entry of body.agents) {
        for (const field of ['ownerEmail', 'ownerLei', 'lei', 'leiEntityName', 'mandate', 'mandateId', 'publicKey', 'tierCaps', 'kyaScore']) expect(entry).not.toHaveProperty(field);
      }
      for (const secret of ['private.person@owner.example', 'b@owner.example', '@', LAPSED_LEI_ENTRY.lei, ACTIVE_LEI_ENTRY.lei, 'mnd_', 'USD|EUR', '1800', 'ALFA REY', 'SHELL'])
        expect(text).not.toContain(secret);
    });

    it('without ownerEntity lists every active discoverable agent; limit and offset page it', async () => {
      const all = await call('GET', '/agents/directory');
      expect(all.body.count).toBe(3);
      expect(all.body.agents.map((entry: Registered) => entry.agentId)).toEqual([agents.a.agentId, agents.b.agentId, agents.other.agentId]);
      const page = await call('GET', '/agents/directory?limit=1&offset=1');
      expect(page.body).toEqual({ count: 1, agents: [all.body.agents[1]] });
      expect((await call('GET', '/agents/directory?ownerEntity=Nobody%20Ltd')).body).toEqual({ count: 0, agents: [] });
    });

    it.each([
      ['limit=0', /limit: must be at least 1/],
      ['limit=101', /limit: must be at most 100/],
      ['limit=ten', /limit: must be a whole number/],
      ['offset=-1', /offset: must be a whole number/],
      ['ownerEntity=', /ownerEntity: must not be empty/],
      [`ownerEntity=${'o'.repeat(257)}`, /ownerEntity: must be at most 256 characters/],
      ['owner=Acme', /unknown field: "owner"/],
    ])('?%s: 400 CMP_ERR_INVALID_REQUEST', async (query, message) => {
      const { status, body } = await call('GET', `/agents/directory?${query}`);
      expect([status, body]).toEqual([400, { error: expect.stringMatching(message), code: 'CMP_ERR_INVALID_REQUEST' }]);
    });
  });

  describe('GET /agents/:id/did.json', () => {
    it('an agent that supplied a public key: a self-controlled document with its key for authentication and assertions', async () => {
      const { status, body, headers } = await call('GET', `/agents/${agents.b.agentId}/did.json`);
      expect(status).toBe(200);
      expect(headers['content-type']).toMatch(/^application\/did\+json/);
      const methodId = `${agents.b.did}#${body.verificationMethod[0].id.split('#')[1]}`;
      expect(body).toEqual({
        '@context': DID_CONTEXTS,
        id: `${ISSUER_DID}:agents:${agents.b.agentId}`,
        controller: agents.b.did,
        verificationMethod: [{ id: methodId, type: 'JsonWebKey2020', controller: agents.b.did, publicKeyJwk: AGENT_JWK }],
        authentication: [methodId],
        assertionMethod: [methodId],
        service: [{ id: `${agents.b.did}#kya`, type: 'KYAVerification', serviceEndpoint: `${BASE}/compliance/agent/${agents.b.agentId}/verify` }],
      });
      expect(methodId).toMatch(/#[A-Za-z0-9_-]{43}$/); // the key's RFC 7638 thumbprint
    });

    it('an agent without a key: it resolves, service-anchored (controller: the issuer), with no verification method', async () => {
      const { status, body } = await call('GET', `/agents/${agents.a.agentId}/did.json`);
      expect([status, body]).toEqual([
        200,
        {
          '@context': DID_CONTEXTS,
          id: agents.a.did,
          controller: ISSUER_DID,
          service: [{ id: `${agents.a.did}#kya`, type: 'KYAVerification', serviceEndpoint: `${BASE}/compliance/agent/${agents.a.agentId}/verify` }],
        },
      ]);
    });

    it('is served where its did:web resolves', () => {
      expect(didWebDocumentUrl(agents.a.did)).toBe(`${BASE}/compliance/agents/${agents.a.agentId}/did.json`);
    });

    it('an unknown agent: 404; a malformed id: 400; a revoked one: 410', async () => {
      expect(await call('GET', `/agents/agt_${'E'.repeat(22)}/did.json`)).toMatchObject({ status: 404, body: { code: 'CMP_ERR_AGENT_NOT_FOUND' } });
      expect(await call('GET', '/agents/constructor/did.json')).toMatchObject({ status: 400, body: { code: 'CMP_ERR_INVALID_REQUEST' } });
      expect(await call('GET', `/agents/${agents.revoked.agentId}/did.json`)).toMatchObject({ status: 410, body: { code: 'CMP_ERR_AGENT_REVOKED' } });
    });
  });

  describe('the issuer identity document', () => {
    it('is served at /.well-known/did.json (as the spec lists it) and at /did.json (where did:web:<host>:compliance resolves), alike', async () => {
      const wellKnown = await call('GET', '/.well-known/did.json');
      const pathForm = await call('GET', '/did.json');
      expect(didWebDocumentUrl(ISSUER_DID)).toBe(`${BASE}/compliance/did.json`);
      expect(wellKnown.status).toBe(200);
      expect(wellKnown.headers['content-type']).toMatch(/^application\/did\+json/);
      expect(pathForm.body).toEqual(wellKnown.body);
      const method = kya.issuer.verificationMethod;
      expect(wellKnown.body).toEqual({
        '@context': DID_CONTEXTS,
        id: ISSUER_DID,
        verificationMethod: [{ id: method.id, type: 'JsonWebKey2020', controller: ISSUER_DID, publicKeyJwk: { kty: 'EC', crv: 'P-256', x: method.publicKeyJwk.x, y: method.publicKeyJwk.y } }],
        assertionMethod: [method.id],
        service: [{ id: `${ISSUER_DID}#agent-directory`, type: 'AgentDirectory', serviceEndpoint: `${BASE}/compliance/agents/directory` }],
      });
      expect(wellKnown.text).not.toContain('"d"');
    });
  });

  it('the graph reads agents in one batch: every known id, unknown ones absent', async () => {
    const found = await kya.service.agents([agents.a.agentId, agents.revoked.agentId, `agt_${'F'.repeat(22)}`, agents.a.agentId]);
    expect([...found.keys()].sort()).toEqual([agents.a.agentId, agents.revoked.agentId].sort());
    expect(found.get(agents.revoked.agentId)).toMatchObject({ status: 'REVOKED', discoverable: true });
    expect(found.get(agents.a.agentId)?.mandate).toMatchObject({ maxNotionalUsd: 900, dailyCapUsd: 1_800, counterpartyWhitelist: [ACTIVE_LEI_ENTRY.lei], currencyPairs: ['USD|EUR'] });
  });
});

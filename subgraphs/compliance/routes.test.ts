import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_LEI_ENTRY } from '../../test/fixtures/lei-entries.js';
import { injectJson, type TestServer } from '../../test/helpers.js';
import { ADMIN, startVopTestServer } from './vop/testing.js';

// The compliance oracle's REST paths together under {compliance_url} = <server>/compliance: hostile
// input on every route, discovery, OpenAPI, the regulatory calendar and the KYA mount.

let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  ({ server, apiKey } = await startVopTestServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, options: Parameters<typeof injectJson>[3] = {}) => injectJson(server, method, url, options);

describe('hostile input on every route: a 4xx in the compliance shape, never a 500', () => {
  const wallet = '0x' + 'a'.repeat(40);
  it.each([
    ['verify: a huge name', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: wallet, submittedName: 'x'.repeat(100_000) })],
    ['verify: __proto__ key', 'POST', '/compliance/vop/verify', `{"walletAddress":"${wallet}","submittedName":"Acme","__proto__":{"admin":true}}`],
    ['verify: wrong types', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: 42, submittedName: ['Acme'] })],
    ['verify: blank name', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: wallet, submittedName: '   ' })],
    ['verify: bad LEI form', 'POST', '/compliance/vop/verify', JSON.stringify({ walletAddress: wallet, submittedName: 'Acme', submittedLei: 'ZZ' })],
    ['verify: not JSON', 'POST', '/compliance/vop/verify', '{"walletAddress":'],
    ['register: __proto__ key', 'POST', '/compliance/register', `{"walletAddress":"${wallet}","legalName":"Acme","__proto__":{"x":1}}`],
    ['register: neither legalName nor lei', 'POST', '/compliance/register', JSON.stringify({ walletAddress: wallet })],
    ['register: too many aliases', 'POST', '/compliance/register', JSON.stringify({ walletAddress: wallet, legalName: 'Acme', aliases: Array.from({ length: 21 }, (_, index) => `a${index}`) })],
    ['register: unicode country', 'POST', '/compliance/register', JSON.stringify({ walletAddress: wallet, legalName: 'Acme', country: 'ÜB' })],
  ])('%s', async (_case, method, url, raw) => {
    const headers = { 'x-api-key': apiKey, ...ADMIN };
    const response = await call(method as 'POST', url, { raw, headers });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), code: 'CMP_ERR_INVALID_REQUEST' });
  });

  it.each([
    ['lookup', '/compliance/vop/lookup/'],
    ['history', '/compliance/vop/history/'],
  ])('%s: a wallet that is not an address, unicode or __proto__', async (_case, path) => {
    for (const bad of ['0x123', '__proto__', encodeURIComponent('0x' + 'ａ'.repeat(40)), 'x'.repeat(5000)]) {
      const response = await call('GET', `${path}${bad}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('CMP_ERR_INVALID_REQUEST');
    }
  });

  it('deregister: a wallet that is not an address', async () => {
    expect(await call('DELETE', '/compliance/register/constructor', { headers: ADMIN })).toMatchObject({ status: 400, body: { code: 'CMP_ERR_INVALID_REQUEST' } });
  });

  it('an unknown path under /compliance answers 404 in the compliance shape', async () => {
    expect((await call('GET', '/compliance/nowhere')).body).toEqual({ error: expect.any(String), code: expect.any(String) });
  });
});

describe('discovery, OpenAPI, regulatory calendar and the KYA mount', () => {
  it('GET /compliance/.well-known/x402: version 1, POST /vop/verify priced 75000 USDC (6 decimals) on base, POST /stream/open at a variable amount', async () => {
    const { status, body } = await call('GET', '/compliance/.well-known/x402');
    expect(status).toBe(200);
    expect(body).toEqual({
      version: 1,
      endpoints: {
        'POST /vop/verify': {
          price: { amount: '75000', currency: 'USDC', decimals: 6 },
          network: 'base',
          facilitator: expect.stringMatching(/^https?:\/\//),
          description: 'Verification of payee: the registered entity of a wallet against a submitted name or LEI',
        },
        'POST /stream/open': {
          variableAmount: true,
          minUsdc: 0.01,
          maxUsdc: 10000,
          unitTypes: ['second', 'token', 'call', 'byte'],
          network: 'base',
          facilitator: expect.stringMatching(/^https?:\/\//),
          description: 'Pay upfront for a credit bucket, units ticked against the balance',
        },
      },
    });
  });

  it('GET /compliance/openapi.json is OpenAPI 3.1 listing every compliance path under {compliance_url}', async () => {
    const { status, body } = await call('GET', '/compliance/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.servers).toEqual([{ url: '/compliance' }]);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/vop/verify',
        '/vop/lookup/{wallet}',
        '/vop/history/{wallet}',
        '/lei/{lei}',
        '/register',
        '/register/{wallet}',
        '/compliance/regulatory-calendar',
        '/.well-known/x402',
        '/.well-known/did.json',
        '/agent/register',
        '/agent/mandate',
        '/agent/{id}/verify',
        '/agent/{id}',
        '/agents/directory',
        '/agents/{id}/did.json',
        '/stream/open',
        '/stream/{sessionId}/tick',
        '/stream/{sessionId}',
      ]),
    );
    expect(Object.keys(body.paths['/vop/verify'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '402']));
  });

  it('GET /compliance/compliance/regulatory-calendar: the 16 events', async () => {
    const { status, body } = await call('GET', '/compliance/compliance/regulatory-calendar');
    expect(status).toBe(200);
    expect(body.count).toBe(16);
    expect(body.events).toHaveLength(16);
    expect(new Set(body.events.map((event: { framework: string }) => event.framework))).toEqual(new Set(['MiCA', 'SFDR', 'CSRD', 'GENIUS Act']));
  });

  it('KYA is mounted under /compliance: the issuer did:web names <host>:compliance, an agent registers and reads back', async () => {
    const issuer = await call('GET', '/compliance/.well-known/did.json');
    expect(issuer.status).toBe(200);
    expect(issuer.headers['content-type']).toMatch(/^application\/did\+json/);
    expect(issuer.body.id).toMatch(/^did:web:127\.0\.0\.1%3A\d+:compliance$/);
    expect(issuer.body.assertionMethod).toHaveLength(1);
    const registered = await call('POST', '/compliance/agent/register', { payload: { name: 'Treasury bot', ownerLei: ACTIVE_LEI_ENTRY.lei } });
    expect(registered).toMatchObject({
      status: 201,
      body: { kyaLevel: 'VERIFIED', leiVerified: true, leiEntityName: ACTIVE_LEI_ENTRY.legalName, did: expect.stringContaining(`${issuer.body.id}:agents:`) },
    });
    const record = await call('GET', `/compliance/agent/${registered.body.agentId}`);
    expect(record).toMatchObject({ status: 200, body: { agentId: registered.body.agentId, status: 'ACTIVE' } });
    expect((await call('GET', '/compliance/agent/agt_nope')).body).toEqual({ error: expect.any(String), code: 'CMP_ERR_INVALID_REQUEST' });
  });
});

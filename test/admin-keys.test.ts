import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, startTestServer, type TestServer } from './helpers.js';

const ADMIN_KEY = 'admin-key-for-the-key-routes-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };

describe('key administration over HTTP (decision 0058)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['fees'], gateway: false, environment: { ADMIN_KEY } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the admin key issues a bearer key founding an institution, a second joining it, lists both and revokes one', async () => {
    const created = await injectJson(server, 'POST', '/admin/keys', { headers: admin, payload: { kind: 'bearer', label: 'Route Bank', limit: 50 } });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.body).toMatchObject({ kind: 'bearer', label: 'Route Bank', requestsPerMinute: 50, institutionCreated: true, revokedAt: null });
    expect(created.body.key).toMatch(/^srb_/);
    const institution = created.body.institutionId as string;
    expect(institution).toMatch(/^inst_/);
    const joined = await injectJson(server, 'POST', '/admin/keys', { headers: admin, payload: { kind: 'bearer', label: 'Route Bank hub', institution } });
    expect(joined.body).toMatchObject({ institutionId: institution, institutionCreated: false, requestsPerMinute: 1000 });
    const listed = await injectJson(server, 'GET', '/admin/keys', { headers: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toEqual(expect.arrayContaining([expect.objectContaining({ id: created.body.id, institutionId: institution }), expect.objectContaining({ id: joined.body.id })]));
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const institutions = await injectJson(server, 'GET', '/admin/institutions', { headers: admin });
    expect(institutions.body.institutions).toEqual(expect.arrayContaining([{ id: institution, name: 'Route Bank', createdAt: expect.any(String) }]));

    expect((await injectJson(server, 'DELETE', `/admin/keys/${joined.body.id}`, { headers: admin })).body).toEqual({ id: joined.body.id, revoked: true });
    expect((await injectJson(server, 'DELETE', `/admin/keys/${joined.body.id}`, { headers: admin })).body).toEqual({ id: joined.body.id, revoked: false });
  });

  it('refuses what the CLI refuses: an unknown institution, an API key with one, a missing label', async () => {
    const unknown = await injectJson(server, 'POST', '/admin/keys', { headers: admin, payload: { kind: 'bearer', label: 'Typo Bank', institution: 'inst_nosuch' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'no institution inst_nosuch', code: 'GEN_ERR_BAD_REQUEST' });
    const api = await injectJson(server, 'POST', '/admin/keys', { headers: admin, payload: { kind: 'api', label: 'Dashboard', institution: 'inst_any' } });
    expect(api.body).toEqual({ error: 'an API key belongs to no institution', code: 'GEN_ERR_BAD_REQUEST' });
    expect((await injectJson(server, 'POST', '/admin/keys', { headers: admin, payload: { kind: 'api' } })).status).toBe(400);
  });

  it('a stranger, a bearer key, an API key and a wrong admin key are refused 401 on every admin route, before the body is parsed', async () => {
    const bearer = (await injectJson(server, 'POST', '/admin/keys', { headers: admin, payload: { kind: 'bearer', label: 'Not An Admin' } })).body.key as string;
    const apiKey = (await injectJson(server, 'POST', '/admin/keys', { headers: admin, payload: { kind: 'api', label: 'Not An Admin either' } })).body.key as string;
    const callers: Array<[string, Record<string, string>]> = [
      ['a stranger', {}],
      ['an institution bearer key', { authorization: `Bearer ${bearer}` }],
      ['an API key', { 'x-api-key': apiKey }],
      ['an API key as bearer', { authorization: `Bearer ${apiKey}` }],
      ['a wrong admin key', { authorization: `Bearer ${ADMIN_KEY}x` }],
    ];
    const routes = [
      ['POST', '/admin/keys', { kind: 'bearer', label: 'Intruder Bank' }],
      ['GET', '/admin/keys', undefined],
      ['DELETE', '/admin/keys/key_AAAAAAAAAAAA', undefined],
      ['GET', '/admin/institutions', undefined],
    ] as const;
    const before = (await injectJson(server, 'GET', '/admin/keys', { headers: admin })).body.keys.length as number;
    for (const [who, headers] of callers) {
      for (const [method, url, payload] of routes) {
        const refused = await injectJson(server, method, url, { headers, ...(payload ? { payload } : {}) });
        expect({ who, method, url, status: refused.status, code: refused.body.code }).toEqual({ who, method, url, status: 401, code: 'GEN_ERR_UNAUTHORIZED' });
        expect(refused.headers['www-authenticate']).toBe('Bearer');
      }
    }
    // A malformed body from a stranger is refused for the key, not parsed nor described.
    const malformed = await injectJson(server, 'POST', '/admin/keys', { raw: '{"kind": 7' });
    expect(malformed.status).toBe(401);
    expect((await injectJson(server, 'GET', '/admin/keys', { headers: admin })).body.keys).toHaveLength(before);
  });
});

describe('key administration while ADMIN_KEY is unset', () => {
  let closed: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ subgraphs: ['fees'], gateway: false });
  });
  afterAll(async () => {
    await closed?.close();
  });

  it('without ADMIN_KEY the routes do not exist: 404 for everyone', async () => {
    for (const headers of [{}, { authorization: 'Bearer anything-at-all-0123456789abcdef0123' }] as Array<Record<string, string>>) {
      expect((await injectJson(closed, 'GET', '/admin/keys', { headers })).status).toBe(404);
      expect((await injectJson(closed, 'POST', '/admin/keys', { headers, payload: { kind: 'api', label: 'x' } })).status).toBe(404);
      expect((await injectJson(closed, 'GET', '/admin/institutions', { headers })).status).toBe(404);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_LEI_ENTRY, LAPSED_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { injectJson, type TestServer } from '../../../test/helpers.js';
import { ADMIN, ADMIN_KEY, freshWallet, startVopTestServer, UNKNOWN_VALID_LEI } from './testing.js';

// REST of the wallet registry and LEI under {compliance_url} = <server>/compliance, by body: GET
// /lei/:lei, the admin registration and deregistration, the name to LEI search. Wallets are fresh
// per test (the worker's PGlite is shared).

let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  ({ server, apiKey } = await startVopTestServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** The server clock in epoch seconds (tests advance it). */
const nowSeconds = () => Math.floor(server.clock.now().getTime() / 1000);

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, options: Parameters<typeof injectJson>[3] = {}) => injectJson(server, method, url, options);

async function register(body: Record<string, unknown>) {
  const response = await call('POST', '/compliance/register', { payload: body, headers: ADMIN });
  expect([200, 201]).toContain(response.status);
  return response.body;
}

const verifyByKey = (body: Record<string, unknown>) => call('POST', '/compliance/vop/verify', { payload: body, headers: { 'x-api-key': apiKey } });

describe('GET /compliance/lei/:lei', () => {
  it('answers the registry record and the active wallets under the LEI', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, lei: LAPSED_LEI_ENTRY.lei });
    const { status, body } = await call('GET', `/compliance/lei/${LAPSED_LEI_ENTRY.lei.toLowerCase()}`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['jurisdiction', 'legalName', 'lei', 'leiStatus', 'otherNames', 'wallets']);
    expect(body).toMatchObject({ lei: LAPSED_LEI_ENTRY.lei, legalName: LAPSED_LEI_ENTRY.legalName, leiStatus: 'LAPSED', jurisdiction: 'SK', otherNames: LAPSED_LEI_ENTRY.otherNames });
    expect(body.wallets).toContainEqual({
      walletAddress: wallet,
      legalName: LAPSED_LEI_ENTRY.legalName,
      lei: LAPSED_LEI_ENTRY.lei,
      leiStatus: 'LAPSED',
      aliases: [...LAPSED_LEI_ENTRY.otherNames],
      registeredAt: expect.any(Number),
      registrationType: 'REGISTRY_VERIFIED',
      country: 'SK',
    });
  });

  it.each([
    ['bad check digits', '2138001KPMR6PD83HC09', 400, 'CMP_ERR_INVALID_LEI'],
    ['too short', '2138001KPMR6', 400, 'CMP_ERR_INVALID_LEI'],
    ['unknown to the snapshot', UNKNOWN_VALID_LEI, 404, 'CMP_ERR_LEI_NOT_FOUND'],
    ['longer than 64 characters', 'A'.repeat(65), 400, 'CMP_ERR_INVALID_REQUEST'],
    ['unicode', encodeURIComponent('２１３８００１ＫＰＭＲ６ＰＤ８３ＨＣ０８'), 400, 'CMP_ERR_INVALID_LEI'],
    ['__proto__', '__proto__', 400, 'CMP_ERR_INVALID_LEI'],
  ])('%s: %i %s', async (_case, lei, status, code) => {
    const response = await call('GET', `/compliance/lei/${lei}`);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: expect.any(String), code });
  });
});

describe('POST /compliance/register and DELETE /compliance/register/:wallet (admin)', () => {
  it.each([
    ['without a bearer', {}],
    ['with a wrong admin key', { authorization: `Bearer ${ADMIN_KEY}x` }],
    ['with the key but not as a bearer', { authorization: ADMIN_KEY }],
  ])('401 %s, before the body is validated', async (_case, headers) => {
    const registration = await call('POST', '/compliance/register', { raw: '{"walletAddress":42}', headers });
    expect(registration).toMatchObject({ status: 401, body: { code: 'GEN_ERR_UNAUTHORIZED', error: expect.stringMatching(/admin key/) } });
    const removal = await call('DELETE', `/compliance/register/${freshWallet()}`, { headers });
    expect(removal).toMatchObject({ status: 401, body: { code: 'GEN_ERR_UNAUTHORIZED' } });
  });

  it('by legalName: 201 SELF_DECLARED; again: 200 with the new record', async () => {
    const wallet = freshWallet();
    const created = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, legalName: 'Fabrikam GmbH' }, headers: ADMIN });
    expect(created).toMatchObject({ status: 201, body: { walletAddress: wallet, legalName: 'Fabrikam GmbH', registrationType: 'SELF_DECLARED', lei: null, aliases: [], country: null } });
    const updated = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, legalName: 'Fabrikam Holding GmbH', country: 'DE' }, headers: ADMIN });
    expect(updated).toMatchObject({ status: 200, body: { legalName: 'Fabrikam Holding GmbH', country: 'DE' } });
  });

  it('by LEI alone: REGISTRY_VERIFIED, the name, country and other names taken from the registry', async () => {
    const wallet = freshWallet();
    const { status, body } = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei, aliases: ['Shell CatTech'] }, headers: ADMIN });
    expect(status).toBe(201);
    expect(body).toEqual({
      walletAddress: wallet,
      legalName: ACTIVE_LEI_ENTRY.legalName,
      lei: ACTIVE_LEI_ENTRY.lei,
      leiStatus: 'ACTIVE',
      aliases: ['Shell CatTech', ...ACTIVE_LEI_ENTRY.otherNames],
      registeredAt: nowSeconds(),
      registrationType: 'REGISTRY_VERIFIED',
      country: 'SG',
    });
  });

  it('an LEI well-formed but not in the registry: 422 CMP_ERR_LEI_NOT_VERIFIED, nothing registered', async () => {
    const wallet = freshWallet();
    const response = await call('POST', '/compliance/register', { payload: { walletAddress: wallet, legalName: 'Someone', lei: UNKNOWN_VALID_LEI }, headers: ADMIN });
    expect(response).toMatchObject({ status: 422, body: { code: 'CMP_ERR_LEI_NOT_VERIFIED', error: expect.stringMatching(/not in the LEI registry/) } });
    expect((await call('GET', `/compliance/vop/lookup/${wallet}`)).status).toBe(404);
  });

  it('deregistration: inactive, the audit trail kept, lookup 404 afterwards, a second removal 404', async () => {
    const wallet = freshWallet();
    await register({ walletAddress: wallet, legalName: 'Fabrikam GmbH' });
    server.clock.advance(60_000);
    const removed = await call('DELETE', `/compliance/register/${wallet.toLowerCase()}`, { headers: ADMIN });
    expect(removed).toEqual({ status: 200, body: { walletAddress: wallet, active: false, deactivatedAt: nowSeconds() }, headers: expect.anything() });
    expect((await call('GET', `/compliance/vop/lookup/${wallet}`)).status).toBe(404);
    expect((await call('DELETE', `/compliance/register/${wallet}`, { headers: ADMIN })).body).toEqual({ error: 'The wallet is not registered.', code: 'CMP_ERR_WALLET_NOT_REGISTERED' });
    // A deregistered wallet verifies as NOT_REGISTERED.
    expect((await verifyByKey({ walletAddress: wallet, submittedName: 'Fabrikam GmbH' })).body.result).toBe('NOT_REGISTERED');
    const { createComplianceStore } = await import('./store.js');
    const audit = await createComplianceStore(server.platform!.database.db, server.platform!.ids).auditTrail(wallet);
    expect(audit.map((record) => record.action)).toEqual(['REGISTERED', 'DEACTIVATED']);
    expect(audit[1]!.record).toMatchObject({ legalName: 'Fabrikam GmbH', active: false });
  });
});

describe('GET /compliance/lei/search (decision 0034)', () => {
  it('finds an LEI by its legal name, case and legal form aside, best first; nothing for an unknown name; a blank name is a 400', async () => {
    const found = await server.app.inject({ method: 'GET', url: '/compliance/lei/search?name=UBISECURE%20OY' });
    expect(found.statusCode).toBe(200);
    expect(found.json().matches[0]).toMatchObject({ lei: '529900T8BM49AURSDO55', legalName: 'Ubisecure Oy', matchedName: 'Ubisecure Oy', score: expect.any(Number) });
    expect(found.json().matches[0].score).toBeGreaterThanOrEqual(75);
    const none = await server.app.inject({ method: 'GET', url: '/compliance/lei/search?name=Zzyzx%20Quux%20Holdings' });
    expect(none.json()).toEqual({ query: 'Zzyzx Quux Holdings', count: 0, matches: [] });
    expect((await server.app.inject({ method: 'GET', url: '/compliance/lei/search?name=%20' })).statusCode).toBe(400);
  });
});

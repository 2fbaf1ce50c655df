import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCredential } from 'did-jwt-vc';
import { type DIDDocument, Resolver } from 'did-resolver';
import { describe, expect, it } from 'vitest';
import { createCredentialIssuer, didWebDocumentUrl, didWebOf, generateIssuerJwk, IssuerKeyError, issuerKeyFromJwk, jwkThumbprint, loadOrCreateIssuerKey, publicOrigin } from './credentials.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'srg-issuer-'));

describe('did:web (W3C did:web method specification, "Create" and "Read")', () => {
  it.each([
    // The specification's own examples.
    ['https://w3c-ccg.github.io', 'did:web:w3c-ccg.github.io', 'https://w3c-ccg.github.io/.well-known/did.json'],
    ['https://w3c-ccg.github.io/user/alice', 'did:web:w3c-ccg.github.io:user:alice', 'https://w3c-ccg.github.io/user/alice/did.json'],
    ['https://example.com:3000/user/alice', 'did:web:example.com%3A3000:user:alice', 'https://example.com:3000/user/alice/did.json'],
    // Ours: the compliance oracle under /compliance of the all-in-one server.
    ['https://localhost:4000/compliance', 'did:web:localhost%3A4000:compliance', 'https://localhost:4000/compliance/did.json'],
    ['https://rail.example/compliance/agents/agt_x-1', 'did:web:rail.example:compliance:agents:agt_x-1', 'https://rail.example/compliance/agents/agt_x-1/did.json'],
  ])('%s is %s, resolved at %s', (url, did, documentUrl) => {
    expect(didWebOf(url)).toBe(did);
    expect(didWebDocumentUrl(did)).toBe(documentUrl);
  });

  it('a trailing slash adds no segment; http is allowed for local resolution only when asked', () => {
    expect(didWebOf('http://127.0.0.1:4000/compliance/')).toBe('did:web:127.0.0.1%3A4000:compliance');
    expect(didWebDocumentUrl('did:web:127.0.0.1%3A4000:compliance', 'http')).toBe('http://127.0.0.1:4000/compliance/did.json');
  });

  it.each(['did:key:z6Mk', 'did:web:', 'did:web:host/path', 'web:host'])('%s is not a did:web', (did) => {
    expect(() => didWebDocumentUrl(did)).toThrow(RangeError);
  });

  it.each([
    [{ publicBaseUrl: 'https://rail.example/', host: '0.0.0.0', port: 4000 }, 'https://rail.example'],
    [{ host: '127.0.0.1', port: 4000 }, 'http://127.0.0.1:4000'],
    [{ host: '::1', port: 8080 }, 'http://[::1]:8080'],
  ])('public origin of %j is %s', (server, origin) => {
    expect(publicOrigin(server)).toBe(origin);
  });
});

describe('the issuer key', () => {
  it('is generated once in the data folder (owner-only), then read back: the same key across restarts', () => {
    const dataDir = freshDir();
    const first = loadOrCreateIssuerKey({ dataDir });
    const path = join(dataDir, 'issuer-signing.jwk.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(['issuer-signing.jwk.json']); // no temporary file left
    const again = loadOrCreateIssuerKey({ dataDir });
    expect(again.publicJwk).toEqual(first.publicJwk);
    expect(again.thumbprint).toBe(jwkThumbprint(first.publicJwk));
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8'))).sort()).toEqual(['crv', 'd', 'kty', 'x', 'y']);
    // Nothing private is reachable from the key object: the private half is sealed in the signer.
    expect(JSON.stringify(first)).not.toContain(JSON.parse(readFileSync(path, 'utf8')).d);
  });

  it('ISSUER_SIGNING_JWK, when given, is the key and nothing is written', () => {
    const dataDir = freshDir();
    const configured = generateIssuerJwk();
    const key = loadOrCreateIssuerKey({ dataDir, configuredJwk: configured });
    const { x, y } = JSON.parse(configured);
    expect(key.publicJwk).toEqual({ kty: 'EC', crv: 'P-256', x, y });
    expect(existsSync(join(dataDir, 'issuer-signing.jwk.json'))).toBe(false);
  });

  const valid = JSON.parse(generateIssuerJwk());
  const other = JSON.parse(generateIssuerJwk());
  it.each([
    ['not JSON', 'not json', /is not JSON/],
    ['a public key only', JSON.stringify({ ...valid, d: undefined }), /is not a private P-256 JWK: d/],
    ['another curve', JSON.stringify({ ...valid, crv: 'P-384' }), /is not a private P-256 JWK: crv/],
    ['halves that do not belong together', JSON.stringify({ ...valid, d: other.d }), /d is not the private key of x and y/],
    ['a point off the curve', JSON.stringify({ ...valid, y: valid.x }), /(does not hold a usable P-256 key|d is not the private key)/],
  ])('refuses %s, naming the source and never quoting the key', (_case, text, message) => {
    const attempt = () => issuerKeyFromJwk(text, 'ISSUER_SIGNING_JWK');
    expect(attempt).toThrow(IssuerKeyError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).toMatch(/^ISSUER_SIGNING_JWK/);
      expect((error as Error).message).not.toContain(valid.d);
      expect((error as Error).message).not.toContain(other.d);
    }
  });

  it('a damaged key file stops the start, saying how to recover', () => {
    const dataDir = freshDir();
    writeFileSync(join(dataDir, 'issuer-signing.jwk.json'), '{"kty":"EC"', { mode: 0o600 });
    expect(() => loadOrCreateIssuerKey({ dataDir })).toThrow(/issuer-signing\.jwk\.json is not JSON.*remove the file to have a new key generated .* or set ISSUER_SIGNING_JWK/);
  });
});

describe('createCredentialIssuer', () => {
  const issuer = createCredentialIssuer({ key: issuerKeyFromJwk(generateIssuerJwk(), 'test'), baseUrl: 'https://rail.example/compliance/' });
  const resolver = new Resolver({ web: async (did) => ({ didResolutionMetadata: {}, didDocumentMetadata: {}, didDocument: did === issuer.did ? (issuer.didDocument() as DIDDocument) : null }) });
  const claims = {
    sub: 'did:web:rail.example:compliance:agents:agt_1',
    nbf: 1_795_348_800,
    exp: 1_795_352_400,
    vc: { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential'], credentialSubject: { level: 'VERIFIED' } },
  };

  it('signs VC-JWTs a W3C VC verifier accepts against its DID document', async () => {
    expect(issuer.did).toBe('did:web:rail.example:compliance');
    const jwt = await issuer.issue(claims);
    const verified = await verifyCredential(jwt, resolver, { policies: { now: 1_795_350_000 } });
    expect(verified.issuer).toBe(issuer.did);
    expect(verified.signer.id).toBe(issuer.verificationMethod.id);
    expect(verified.verifiableCredential.credentialSubject).toEqual({ id: claims.sub, level: 'VERIFIED' });
  });

  it('a claim changed under the same signature fails', async () => {
    const [header, , signature] = (await issuer.issue(claims)).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, iss: issuer.did, vc: { ...claims.vc, credentialSubject: { level: 'ROOT' } } })).toString('base64url');
    await expect(verifyCredential(`${header}.${forged}.${signature}`, resolver, { policies: { now: 1_795_350_000 } })).rejects.toThrow(/invalid_signature/);
  });

  it('a credential past its exp fails', async () => {
    const jwt = await issuer.issue(claims);
    await expect(verifyCredential(jwt, resolver, { policies: { now: 1_795_352_400 + 3_600 } })).rejects.toThrow(/invalid_jwt: JWT has expired/);
  });
});

import { createECDH, createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ES256Signer, type Signer } from 'did-jwt';
import { createVerifiableCredentialJwt, type JwtCredentialPayload } from 'did-jwt-vc';
import { z } from 'zod';

/**
 * Verifiable credentials the platform issues: W3C VC-JWTs signed ES256 (P-256) by an issuer whose
 * public key is published in a did:web document (docs/decisions/0015-kya-credentials.md).
 */

/** A P-256 public key as a JWK (RFC 7517/7518): the form DID documents publish. */
export interface PublicP256Jwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

/** A P-256 coordinate or scalar: 32 bytes in unpadded base64url, 43 characters. */
const p256Component = z.string().regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, 'must be 32 bytes in unpadded base64url (43 characters)');

export const publicP256JwkShape = { kty: z.literal('EC'), crv: z.literal('P-256'), x: p256Component, y: p256Component };

/** Whether x and y are a point of the P-256 curve (Node refuses to import any other). */
export function isP256Point(jwk: PublicP256Jwk): boolean {
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/** RFC 7638 JWK thumbprint (SHA-256 over the required members in lexicographic order), base64url. */
export function jwkThumbprint(jwk: PublicP256Jwk): string {
  return createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url');
}

export class IssuerKeyError extends Error {
  override name = 'IssuerKeyError';
}

/** The issuer's signing key: the public half to publish, the private half sealed in `signer`. */
export interface IssuerSigningKey {
  readonly publicJwk: PublicP256Jwk;
  /** RFC 7638 thumbprint of the public key: the fragment of its verification method. */
  readonly thumbprint: string;
  readonly signer: Signer;
}

const privateJwkSchema = z.object({ ...publicP256JwkShape, d: p256Component });

/**
 * Reads a private P-256 JWK (JSON text), checks it and seals it. `source` names where it came from
 * in errors, which never quote the key.
 * 1. Its members must have the P-256 form (kty EC, crv P-256, 32-byte x, y and d).
 * 2. d must be the private key of (x, y): the public point is computed from d and compared, so a
 *    key whose halves do not belong together is refused at start, not discovered by a verifier.
 */
export function issuerKeyFromJwk(text: string, source: string): IssuerSigningKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new IssuerKeyError(`${source} is not JSON: it must be a private P-256 JWK {"kty":"EC","crv":"P-256","x","y","d"}`);
  }
  const jwk = privateJwkSchema.safeParse(parsed);
  if (!jwk.success) throw new IssuerKeyError(`${source} is not a private P-256 JWK: ${jwk.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
  const d = Buffer.from(jwk.data.d, 'base64url');
  let point: Buffer;
  try {
    // The public point computed from d (a JWK import would keep the x and y it is given).
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(d);
    point = ecdh.getPublicKey();
  } catch (error) {
    throw new IssuerKeyError(`${source} does not hold a usable P-256 key`, { cause: error });
  }
  // Uncompressed point: 0x04, then x and y, 32 bytes each.
  if (point.subarray(1, 33).toString('base64url') !== jwk.data.x || point.subarray(33).toString('base64url') !== jwk.data.y) {
    throw new IssuerKeyError(`${source}: d is not the private key of x and y`);
  }
  const publicJwk: PublicP256Jwk = { kty: 'EC', crv: 'P-256', x: jwk.data.x, y: jwk.data.y };
  return { publicJwk, thumbprint: jwkThumbprint(publicJwk), signer: ES256Signer(d) };
}

/** A new private P-256 JWK, as JSON text. */
export function generateIssuerJwk(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y, d } = privateKey.export({ format: 'jwk' });
  return JSON.stringify({ kty, crv, x, y, d });
}

export interface IssuerKeyOptions {
  dataDir: string;
  /** ISSUER_SIGNING_JWK: when given it is the key, and nothing is read or written in dataDir. */
  configuredJwk?: string | undefined;
  fileName?: string;
}

/**
 * The issuer key: the configured one, else one generated on first start and kept in the data
 * folder, so credentials stay verifiable across restarts (as platform/signing.ts keeps the quote key).
 * 1. The new key is written to a temporary file (owner-only, flushed) and renamed into place: a
 *    crash leaves no key or a whole one, never a torn file.
 * 2. A kept key is checked as a configured one is (issuerKeyFromJwk): a damaged file stops the start.
 */
export function loadOrCreateIssuerKey(options: IssuerKeyOptions): IssuerSigningKey {
  if (options.configuredJwk !== undefined) return issuerKeyFromJwk(options.configuredJwk, 'ISSUER_SIGNING_JWK');
  const path = join(options.dataDir, options.fileName ?? 'issuer-signing.jwk.json');
  const hint = 'remove the file to have a new key generated (credentials already issued will no longer verify), or set ISSUER_SIGNING_JWK';
  if (existsSync(path)) {
    try {
      return issuerKeyFromJwk(readFileSync(path, 'utf8'), `The issuer key file ${path}`);
    } catch (error) {
      throw error instanceof IssuerKeyError ? new IssuerKeyError(`${error.message}; ${hint}`, { cause: error.cause }) : error;
    }
  }
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const text = generateIssuerJwk();
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx', flush: true });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new IssuerKeyError(`could not write the issuer key to ${path}`, { cause: error });
  }
  return issuerKeyFromJwk(text, `The issuer key file ${path}`);
}

/**
 * The did:web identifier of an http(s) URL (W3C did:web method, "Create"): the host, its port
 * colon percent-encoded, then each path segment after a colon.
 * `https://example.com:4000/compliance` is `did:web:example.com%3A4000:compliance`.
 */
export function didWebOf(url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split('/').filter(Boolean).map(encodeURIComponent);
  return ['did:web', encodeURIComponent(parsed.host), ...segments].join(':');
}

/**
 * Where a did:web resolves (did:web method, "Read"): without a path, `/.well-known/did.json`; with
 * path segments, `<path>/did.json`. The method demands https; `http` is for local tests only.
 */
export function didWebDocumentUrl(did: string, scheme: 'https' | 'http' = 'https'): string {
  const match = /^did:web:([^:#?/]+)((?::[^:#?/]+)*)$/.exec(did);
  if (!match) throw new RangeError(`not a did:web identifier: ${did.slice(0, 64)}`);
  const host = decodeURIComponent(match[1]!);
  const path = (match[2] ?? '').split(':').filter(Boolean).map(decodeURIComponent);
  return path.length === 0 ? `${scheme}://${host}/.well-known/did.json` : `${scheme}://${host}/${path.join('/')}/did.json`;
}

/** The origin clients reach the server at: PUBLIC_BASE_URL, else http://HOST:PORT; no trailing slash. */
export function publicOrigin(server: { publicBaseUrl?: string | undefined; host: string; port: number }): string {
  if (server.publicBaseUrl) return server.publicBaseUrl.replace(/\/+$/, '');
  return `http://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`;
}

export interface JsonWebKeyMethod {
  id: string;
  type: 'JsonWebKey2020';
  controller: string;
  publicKeyJwk: PublicP256Jwk;
}

export interface DidService {
  id: string;
  type: string;
  serviceEndpoint: string;
}

/** A DID document (W3C DID Core) of the form we publish. */
export interface DidDocument {
  '@context': string[];
  id: string;
  controller?: string;
  verificationMethod?: JsonWebKeyMethod[];
  authentication?: string[];
  assertionMethod?: string[];
  service?: DidService[];
}

export const DID_CONTEXTS = ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'];

export function jsonWebKeyMethod(did: string, jwk: PublicP256Jwk): JsonWebKeyMethod {
  return { id: `${did}#${jwkThumbprint(jwk)}`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } };
}

/** What an issuer signs: the JWT claims of a VC-JWT (W3C VC Data Model 1.1 §6.3.1); `iss` is always the issuer's DID. */
export type CredentialClaims = JwtCredentialPayload;

export interface CredentialIssuer {
  /** did:web of `baseUrl`. */
  readonly did: string;
  /** The URL the DID resolves under: its document is served at `${baseUrl}/did.json`. */
  readonly baseUrl: string;
  readonly verificationMethod: JsonWebKeyMethod;
  /** A VC-JWT signed ES256, its header naming the verification method (kid). */
  issue(claims: CredentialClaims): Promise<string>;
  /** The issuer's DID document: its key, for assertions, plus the given services. */
  didDocument(services?: DidService[]): DidDocument;
}

export function createCredentialIssuer(options: { key: IssuerSigningKey; baseUrl: string }): CredentialIssuer {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const did = didWebOf(baseUrl);
  const verificationMethod = jsonWebKeyMethod(did, options.key.publicJwk);
  return {
    did,
    baseUrl,
    verificationMethod,
    issue: (claims) => createVerifiableCredentialJwt({ ...claims, iss: did }, { did, signer: options.key.signer, alg: 'ES256' }, { header: { alg: 'ES256', typ: 'JWT', kid: verificationMethod.id } }),
    didDocument: (services = []) => ({
      '@context': [...DID_CONTEXTS],
      id: did,
      verificationMethod: [{ ...verificationMethod, publicKeyJwk: { ...verificationMethod.publicKeyJwk } }],
      assertionMethod: [verificationMethod.id],
      ...(services.length > 0 ? { service: services.map((service) => ({ ...service })) } : {}),
    }),
  };
}

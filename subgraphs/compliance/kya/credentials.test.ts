import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { connect, createServer as createNetServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { verifyCredential } from 'did-jwt-vc';
import { type DIDDocument, type DIDResolutionResult, Resolver } from 'did-resolver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResolver as getWebResolver } from 'web-did-resolver';
import { ManualClock } from '../../../platform/clock.js';
import { createCredentialIssuer, didWebDocumentUrl, generateIssuerJwk, issuerKeyFromJwk } from '../../../platform/credentials.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { ACTIVE_LEI_ENTRY, buildKyaTestApp, type KyaTestApp } from './testing.js';

// Acceptance: a third party holding only our VC-JWT verifies it with did-jwt-vc, resolving our
// did:web over the network from a running server, as any verifier would (DESIGN.md §7).

const NOW_S = Date.parse(TEST_NOW) / 1000;
/** The verifier's clock: a minute after issuance (the service's clock is held at TEST_NOW). */
const VERIFIER_NOW = NOW_S + 60;

/**
 * A front on 127.0.0.1:0 relaying each connection to the app's port: it listens first, so the public
 * origin (and with it the issuer's did:web) is known before the app is built. With TLS options it
 * terminates TLS, as a proxy before the server would.
 */
interface Front {
  port: number;
  relayTo(port: number): void;
  close(): Promise<void>;
}

async function listenFront(tls?: { key: string; cert: string }): Promise<Front> {
  let target = 0;
  const sockets = new Set<Socket>();
  const relay = (client: Socket) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  };
  const server: Server = tls ? createTlsServer(tls, relay) : createNetServer(relay);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    relayTo: (port) => void (target = port),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A self-signed certificate for 127.0.0.1 (openssl), for the https front. */
function selfSignedCertificate(): { key: string; cert: string } {
  const folder = mkdtempSync(join(tmpdir(), 'srg-tls-'));
  const [key, cert] = [join(folder, 'key.pem'), join(folder, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/**
 * did:web resolved over plain http: the method's rule of where a DID's document is (a path: <path>/did.json),
 * with http in place of the https the method requires, since this test server has no certificate.
 */
function httpWebResolver(): Resolver {
  return new Resolver({
    web: async (did): Promise<DIDResolutionResult> => {
      const response = await fetch(didWebDocumentUrl(did, 'http'));
      if (!response.ok) return { didResolutionMetadata: { error: 'notFound', message: `HTTP ${response.status}` }, didDocumentMetadata: {}, didDocument: null };
      return { didResolutionMetadata: { contentType: 'application/did+json' }, didDocumentMetadata: {}, didDocument: (await response.json()) as DIDDocument };
    },
  });
}

/** The same JWT with one claim of its payload changed, header and signature kept. */
function tampered(jwt: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

interface Verification {
  verified: boolean;
  verifiableCredential?: string;
  credential?: { expiresAt: number };
  status: string;
}

describe.each(testDatabases())('a third-party W3C VC verifier and our KYA credentials on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  describe('over http, a did:web resolver pointed at the running server', () => {
    let front: Front;
    let kya: KyaTestApp;
    let origin: string;
    beforeAll(async () => {
      front = await listenFront();
      origin = `http://127.0.0.1:${front.port}`;
      kya = await buildKyaTestApp({ db: handle.db, clock, baseUrl: origin });
      await kya.app.listen({ host: '127.0.0.1', port: 0 });
      front.relayTo((kya.app.server.address() as { port: number }).port);
    });
    afterAll(async () => {
      await front.close();
      await kya.app.close();
    });

    async function post(path: string, body?: Record<string, unknown>) {
      const response = await fetch(`${origin}/compliance${path}`, { method: 'POST', ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
      return (await response.json()) as Record<string, unknown>;
    }

    it('accepts our credential, rejects it tampered or signed by another key, and after revocation lets it lapse at its expiry', async () => {
      const resolver = httpWebResolver();
      // 1. A VERIFIED agent with a mandate gets a credential.
      const agent = (await post('/agent/register', { name: 'Settler', ownerLei: ACTIVE_LEI_ENTRY.lei, mandate: { maxNotionalUsd: 250_000, dailyCapUsd: 1_000_000 } })) as {
        agentId: string;
        agentKey: string;
        did: string;
        mandate: { mandateId: string };
      };
      const issued = (await post(`/agent/${agent.agentId}/verify`)) as unknown as Required<Verification>;
      const issuerDid = `did:web:127.0.0.1%3A${front.port}:compliance`;

      // 2. The verifier resolves our DID over the network and accepts the credential.
      const verified = await verifyCredential(issued.verifiableCredential, resolver, { policies: { now: VERIFIER_NOW } });
      expect(verified.issuer).toBe(issuerDid);
      expect(verified.signer.id).toBe(kya.issuer.verificationMethod.id);
      expect(verified.didResolutionResult.didDocument?.id).toBe(issuerDid);
      expect(verified.verifiableCredential).toMatchObject({
        issuer: { id: issuerDid },
        type: ['VerifiableCredential', 'KnowYourAgentCredential'],
        issuanceDate: TEST_NOW,
        expirationDate: new Date((NOW_S + 3_600) * 1000).toISOString(), // Document 2 §8: 1 hour
        credentialSubject: {
          id: agent.did,
          agentId: agent.agentId,
          kyaLevel: 'VERIFIED',
          kyaScore: 80,
          mandateId: agent.mandate.mandateId,
          attestation: { kyaLevel: 'VERIFIED', ownerVerified: true, mandateActive: true, fatfCompliant: true, dailyCapUsd: 1_000_000, maxNotionalUsd: 250_000 },
        },
      });
      // The credential's subject resolves too: the agent's own (service-anchored) identity document.
      expect((await resolver.resolve(agent.did)).didDocument).toMatchObject({ id: agent.did, controller: issuerDid });

      // 3. A claim changed under the same signature is rejected.
      const raisedCap = tampered(issued.verifiableCredential, (claims) => {
        const vc = claims.vc as { credentialSubject: { attestation: { dailyCapUsd: number } } };
        vc.credentialSubject.attestation.dailyCapUsd = 50_000_000;
      });
      await expect(verifyCredential(raisedCap, resolver, { policies: { now: VERIFIER_NOW } })).rejects.toThrow(/invalid_signature/);
      const longerLife = tampered(issued.verifiableCredential, (claims) => void (claims.exp = NOW_S + 86_400));
      await expect(verifyCredential(longerLife, resolver, { policies: { now: VERIFIER_NOW } })).rejects.toThrow(/invalid_signature/);

      // 4. A credential in our name signed by a key our DID document does not publish is rejected.
      const impostor = createCredentialIssuer({ key: issuerKeyFromJwk(generateIssuerJwk(), 'impostor'), baseUrl: `${origin}/compliance` });
      const forged = await impostor.issue({
        sub: agent.did,
        nbf: NOW_S,
        exp: NOW_S + 3_600,
        vc: { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential', 'KnowYourAgentCredential'], credentialSubject: { kyaLevel: 'VERIFIED' } },
      });
      await expect(verifyCredential(forged, resolver, { policies: { now: VERIFIER_NOW } })).rejects.toThrow(/invalid_signature/);

      // 5. Revocation (decision 0015): the verification endpoint answers REVOKED at once and issues nothing;
      //    the agent's identity document stops resolving; a VC-JWT issued before lapses at its exp (1 hour).
      const response = await fetch(`${origin}/compliance/agent/${agent.agentId}`, { method: 'DELETE', headers: { 'x-agent-key': agent.agentKey } });
      expect(response.status).toBe(200);
      const afterRevocation = (await post(`/agent/${agent.agentId}/verify`)) as unknown as Verification;
      expect(afterRevocation).toMatchObject({ verified: false, status: 'REVOKED' });
      expect(afterRevocation).not.toHaveProperty('verifiableCredential');
      expect(afterRevocation).not.toHaveProperty('credential');
      expect((await resolver.resolve(agent.did)).didResolutionMetadata).toEqual({ error: 'notFound', message: 'HTTP 410' });
      //    An offline verifier still accepts it within the hour; past exp and did-jwt's default clock skew (300 s), no more.
      await expect(verifyCredential(issued.verifiableCredential, resolver, { policies: { now: NOW_S + 3_599 } })).resolves.toMatchObject({ verified: true });
      await expect(verifyCredential(issued.verifiableCredential, resolver, { policies: { now: NOW_S + 3_600 + 301 } })).rejects.toThrow(/JWT has expired/);
    });
  });

  describe('over https, resolved by web-did-resolver as published', () => {
    let front: Front;
    let kya: KyaTestApp;
    let trustedBefore: unknown;
    beforeAll(async () => {
      const certificate = selfSignedCertificate();
      front = await listenFront(certificate);
      // web-did-resolver fetches with the global https agent: it trusts our certificate for this test only.
      trustedBefore = https.globalAgent.options.ca;
      https.globalAgent.options.ca = certificate.cert;
      kya = await buildKyaTestApp({ db: handle.db, clock, baseUrl: `https://127.0.0.1:${front.port}` });
      await kya.app.listen({ host: '127.0.0.1', port: 0 });
      front.relayTo((kya.app.server.address() as { port: number }).port);
    });
    afterAll(async () => {
      https.globalAgent.options.ca = trustedBefore as typeof https.globalAgent.options.ca;
      await front.close();
      await kya.app.close();
    });

    it('accepts our credential and rejects it tampered', async () => {
      const resolver = new Resolver(getWebResolver());
      const registered = await kya.app.inject({ method: 'POST', url: '/compliance/agent/register', payload: { name: 'Https agent', ownerEntity: 'Acme', ownerEmail: 'ops@acme.example' } });
      const { agentId } = registered.json() as { agentId: string };
      const { verifiableCredential } = (await kya.app.inject({ method: 'POST', url: `/compliance/agent/${agentId}/verify` })).json() as { verifiableCredential: string };
      const verified = await verifyCredential(verifiableCredential, resolver, { policies: { now: VERIFIER_NOW } });
      expect(verified.issuer).toBe(`did:web:127.0.0.1%3A${front.port}:compliance`);
      expect(verified.verifiableCredential.credentialSubject).toMatchObject({ agentId, kyaLevel: 'REGISTERED', attestation: { fatfCompliant: true, dailyCapUsd: 25_000 } });
      const raised = tampered(verifiableCredential, (claims) => {
        (claims.vc as { credentialSubject: { kyaLevel: string } }).credentialSubject.kyaLevel = 'VERIFIED';
      });
      await expect(verifyCredential(raised, resolver, { policies: { now: VERIFIER_NOW } })).rejects.toThrow(/invalid_signature/);
    });
  });
});

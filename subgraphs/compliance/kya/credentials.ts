// The agents' credentials and identity documents (decision 0015): the HMAC credential only this
// service verifies, the VC-JWT any W3C verifier checks against the issuer's did:web, and the
// did:web documents of the issuer and of each agent.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { DID_CONTEXTS, type DidDocument, didWebOf, jsonWebKeyMethod, type PublicP256Jwk } from '../../../platform/credentials.js';
import { AppError } from '../../../platform/errors.js';
import type { Kya } from './deps.js';
import { attestationOf, canonicalJson, credentialClaimsOf, type KyaCredentialClaims, type KyaLevel, type UsdCaps } from './domain/index.js';
import type { AgentRow, AgentWithMandate, MandateRow } from './store.js';

/** The HMAC credential (Document 2 §2): verifiable by this service only. */
export type KyaCredential = KyaCredentialClaims & { signature: string };

export type AgentVerification =
  | { verified: true; agentId: string; status: 'ACTIVE'; kyaLevel: KyaLevel; kyaScore: number; credential: KyaCredential; verifiableCredential: string }
  | { verified: false; agentId: string; status: 'REVOKED'; kyaLevel: KyaLevel; kyaScore: number; revokedAt: string; message: string };

export const iso = (date: Date) => date.toISOString();

const signCredential = (kya: Kya, claims: KyaCredentialClaims) => createHmac('sha256', kya.credentialKey).update(canonicalJson(claims)).digest('hex');

/** did:web of the agent: its document is served at `<issuer base>/agents/<agentId>/did.json`. */
export const agentDid = (kya: Kya, agentId: string) => didWebOf(`${kya.issuer.baseUrl}/agents/${agentId}`);

const verificationEndpoint = (kya: Kya, agentId: string) => `${kya.issuer.baseUrl}/agent/${agentId}/verify`;

async function issueCredential(kya: Kya, agent: AgentRow, mandate: MandateRow | null): Promise<AgentVerification> {
  const caps: UsdCaps | null = mandate === null ? null : { maxNotionalUsd: mandate.maxNotionalUsd, dailyCapUsd: mandate.dailyCapUsd };
  const claims = credentialClaimsOf(agent.agentId, mandate?.mandateId ?? null, attestationOf(agent.kyaLevel, caps), kya.clock.now());
  const verifiableCredential = await kya.issuer.issue({
    sub: agentDid(kya, agent.agentId),
    jti: `urn:uuid:${kya.ids.uuid()}`,
    nbf: Math.floor(claims.issuedAt / 1000),
    exp: Math.floor(claims.expiresAt / 1000),
    vc: {
      '@context': ['https://www.w3.org/2018/credentials/v1'],
      type: ['VerifiableCredential', 'KnowYourAgentCredential'],
      // The same facts as the HMAC credential, and nothing private: no email, no LEI.
      credentialSubject: { agentId: agent.agentId, kyaLevel: agent.kyaLevel, kyaScore: agent.kyaScore, mandateId: claims.mandateId, attestation: { ...claims.attestation } },
    },
  });
  return {
    verified: true,
    agentId: agent.agentId,
    status: 'ACTIVE',
    kyaLevel: agent.kyaLevel,
    kyaScore: agent.kyaScore,
    credential: { ...claims, signature: signCredential(kya, claims) },
    verifiableCredential,
  };
}

/**
 * POST /agent/:id/verify: a fresh credential (1 hour) and its VC-JWT for an active agent; for a
 * revoked one, at once, verified false and status REVOKED, with no credential (decision 0015).
 */
export async function verification(kya: Kya, agentId: string, { agent, mandate }: AgentWithMandate): Promise<AgentVerification> {
  if (agent.status === 'REVOKED') {
    return {
      verified: false,
      agentId,
      status: 'REVOKED',
      kyaLevel: agent.kyaLevel,
      kyaScore: agent.kyaScore,
      revokedAt: iso(agent.revokedAt ?? agent.registeredAt),
      message: 'The agent was revoked: no credential is issued, and credentials issued before are void.',
    };
  }
  return issueCredential(kya, agent, mandate);
}

/**
 * GET /agents/:id/did.json: with the agent's own key, a self-controlled document listing it; else a
 * service-anchored one (controller: the issuer) with no key. A revoked agent's does not resolve.
 */
export function agentDidDocument(kya: Kya, agentId: string, agent: AgentRow): DidDocument {
  if (agent.status === 'REVOKED') throw new AppError('CMP_ERR_AGENT_REVOKED');
  const did = agentDid(kya, agentId);
  const service = [{ id: `${did}#kya`, type: 'KYAVerification', serviceEndpoint: verificationEndpoint(kya, agentId) }];
  if (agent.publicKey === null) return { '@context': [...DID_CONTEXTS], id: did, controller: kya.issuer.did, service };
  const key: PublicP256Jwk = agent.publicKey;
  const method = jsonWebKeyMethod(did, key);
  return { '@context': [...DID_CONTEXTS], id: did, controller: did, verificationMethod: [method], authentication: [method.id], assertionMethod: [method.id], service };
}

/** GET /.well-known/did.json and /did.json: the issuer's document, its ES256 key for assertions. */
export function issuerDidDocument(kya: Kya): DidDocument {
  return kya.issuer.didDocument([{ id: `${kya.issuer.did}#agent-directory`, type: 'AgentDirectory', serviceEndpoint: `${kya.issuer.baseUrl}/agents/directory` }]);
}

/** Whether `credential` was signed by this service and is unchanged (its expiry is the caller's to check). */
export function credentialSignatureValid(kya: Kya, credential: KyaCredential): boolean {
  const { signature, ...claims } = credential;
  const expected = Buffer.from(signCredential(kya, claims));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

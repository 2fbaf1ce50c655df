import { z } from 'zod';
import { AGENT_STATUSES, KYA_LEVELS } from './domain/index.js';
import type { KyaService } from './service.js';

/**
 * Response shapes of the know-your-agent endpoints (Document 2 §2 "Agent (KYA)", §4): Fastify's
 * compiled serialisers and the OpenAPI document; checked against the service's types below.
 */
const kyaLevel = z.enum(KYA_LEVELS);
const isoTime = z.string().describe('ISO 8601');
const usdCap = z.number().nullable().describe('USD; null: no platform cap');
const usdCaps = z.object({ maxNotionalUsd: usdCap, dailyCapUsd: usdCap });
const next = z.string().optional().describe('upgrade path; present below VERIFIED');

export const agentMandateSchema = z.object({
  mandateId: z.string(),
  agentId: z.string(),
  maxNotionalUsd: usdCap,
  dailyCapUsd: usdCap,
  counterpartyWhitelist: z.array(z.string()).describe('LEIs; empty: any counterparty'),
  currencyPairs: z.array(z.string()).describe('<SRC>|<DST>; empty: any pair'),
  esgFloor: z.number().nullable(),
  ap2Compatible: z.boolean(),
  clamped: z.boolean().describe('a requested cap was lowered to the tier limit'),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const agentRegistrationSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  did: z.string().describe('did:web of the agent'),
  kyaLevel,
  kyaScore: z.number().int().describe('0-100 (decision 0015)'),
  status: z.enum(AGENT_STATUSES),
  tierCaps: usdCaps,
  leiVerified: z.boolean(),
  leiEntityName: z.string().nullable().describe('legal name of the ownerLei in the LEI registry'),
  tierNote: z.string(),
  mandate: agentMandateSchema.nullable(),
  registeredAt: isoTime,
  agentKey: z.string().describe("the owner's proof for this agent (X-Agent-Key on its mandate, revocation and settlements); answered once, kept hashed (decision 0048)"),
  _next: next,
});

/** POST /agent/:id/authorize (internal): the agent's key held. */
export const agentAuthorizedSchema = z.object({ agentId: z.string(), authorized: z.literal(true) });

const publicJwkSchema = z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() });

export const agentRecordSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  framework: z.string().nullable(),
  ownerEntity: z.string().nullable(),
  protocols: z.array(z.string()),
  discoverable: z.boolean(),
  did: z.string(),
  publicKey: publicJwkSchema.nullable().describe("the agent's own P-256 key (JWK), published in its DID document"),
  kyaLevel,
  kyaScore: z.number().int(),
  status: z.enum(AGENT_STATUSES),
  tierCaps: usdCaps,
  leiVerified: z.boolean(),
  leiEntityName: z.string().nullable(),
  registeredAt: isoTime,
  revokedAt: isoTime.nullable(),
  mandate: agentMandateSchema.nullable(),
  _next: next,
});

const attestationSchema = z.object({
  kyaLevel,
  ownerVerified: z.boolean(),
  mandateActive: z.boolean(),
  fatfCompliant: z.boolean(),
  dailyCapUsd: usdCap,
  maxNotionalUsd: usdCap,
});

export const agentVerificationSchema = z.discriminatedUnion('verified', [
  z.object({
    verified: z.literal(true),
    agentId: z.string(),
    status: z.literal('ACTIVE'),
    kyaLevel,
    kyaScore: z.number().int(),
    credential: z.object({
      agentId: z.string(),
      issuedAt: z.number().int().describe('epoch ms'),
      expiresAt: z.number().int().describe('epoch ms; issuedAt + 1 hour'),
      mandateId: z.string().nullable(),
      attestation: attestationSchema,
      signature: z.string().describe('hex HMAC-SHA256 of the canonical credential; verifiable by this service only'),
    }),
    verifiableCredential: z.string().describe('W3C verifiable credential, VC-JWT signed ES256 by the issuer of /.well-known/did.json'),
  }),
  z.object({
    verified: z.literal(false),
    agentId: z.string(),
    status: z.literal('REVOKED'),
    kyaLevel,
    kyaScore: z.number().int(),
    revokedAt: isoTime,
    message: z.string(),
  }),
]);

export const agentRevokedSchema = z.object({ agentId: z.string(), status: z.literal('REVOKED'), revokedAt: isoTime });

export const agentDirectorySchema = z.object({
  count: z.number().int(),
  agents: z.array(
    z.object({
      agentId: z.string(),
      name: z.string(),
      ownerEntity: z.string().nullable(),
      kyaLevel,
      leiVerified: z.boolean(),
      did: z.string(),
      protocols: z.array(z.string()),
      registeredAt: isoTime,
    }),
  ),
});

export const didDocumentSchema = z.object({
  '@context': z.array(z.string()),
  id: z.string(),
  controller: z.string().optional(),
  verificationMethod: z.array(z.object({ id: z.string(), type: z.literal('JsonWebKey2020'), controller: z.string(), publicKeyJwk: publicJwkSchema })).optional(),
  authentication: z.array(z.string()).optional(),
  assertionMethod: z.array(z.string()).optional(),
  service: z.array(z.object({ id: z.string(), type: z.string(), serviceEndpoint: z.string() })).optional(),
});

type Answer<Capability extends keyof KyaService> = Awaited<ReturnType<KyaService[Capability]>>;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type KyaResponseSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof agentRegistrationSchema>, Answer<'register'>>>,
  Assert<MutuallyAssignable<z.infer<typeof agentMandateSchema>, Answer<'setMandate'>['mandate']>>,
  Assert<MutuallyAssignable<z.infer<typeof agentVerificationSchema>, Answer<'verify'>>>,
  Assert<MutuallyAssignable<z.infer<typeof agentRecordSchema>, Answer<'getAgent'>>>,
  Assert<MutuallyAssignable<z.infer<typeof agentRevokedSchema>, Answer<'revoke'>>>,
  Assert<MutuallyAssignable<z.infer<typeof agentAuthorizedSchema>, Answer<'authorize'>>>,
  Assert<MutuallyAssignable<z.infer<typeof agentDirectorySchema>, Answer<'directory'>>>,
  Assert<MutuallyAssignable<z.infer<typeof didDocumentSchema>, Answer<'agentDidDocument'>>>,
  Assert<MutuallyAssignable<z.infer<typeof didDocumentSchema>, Answer<'issuerDidDocument'>>>,
];

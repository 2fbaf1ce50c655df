import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AGENT_KEY_HEADER, isAgentKeyFormat } from '../../../platform/access/agent-key.js';
import { admitAgentKey } from '../../../platform/access/agent-rate-limit.js';
import type { RateLimitStore } from '../../../platform/access/rate-limit.js';
import { requireInternalKey } from '../../../platform/access/shared-secret.js';
import type { Clock } from '../../../platform/clock.js';
import { readIdempotencyKey, type Idempotency } from '../../../platform/idempotency.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { didWebOf, jsonWebKeyMethod, DID_CONTEXTS, type CredentialIssuer, type DidDocument, type PublicP256Jwk } from '../../../platform/credentials.js';
import { AppError, unreachable } from '../../../platform/errors.js';
import { echo } from '../../../platform/echo.js';
import { randomIds, type IdSource } from '../../../platform/ids.js';
import {
  attestationOf, canonicalJson, credentialClaimsOf, decideMandateCaps, deriveKyaLevel, isAp2Compatible, type KyaCredentialClaims, type KyaLevel,
  kyaScoreOf, nextStepOf, type OwnerLeiCheck, tierCapsOf, tierNoteOf, type UsdCaps,
} from './domain/index.js';
import type { AgentDirectoryQuery, AgentMandateBody, AgentRegisterBody, MandateTerms } from './inputs.js';
import type { AgentRow, AgentWithMandate, KyaStore, MandateRow } from './store.js';
import type { LeiRegistry } from '../shared/lei-registry.js';

export interface KyaServiceDeps {
  clock: Clock;
  store: KyaStore;
  leiRegistry: LeiRegistry;
  /** Signs the verifiable credentials; its DID names the agents' DIDs (`<issuer DID>:agents:<agentId>`). */
  issuer: CredentialIssuer;
  /** Secret of the HMAC `credential.signature` (a key of its own is derived from it). */
  hmacKey: string;
  ids?: IdSource;
  /** The API keys' rate-limit store: an agent's key has its per-minute limit there (decision 0048). */
  rateLimits: RateLimitStore;
  /** Idempotency-Key of POST /agent/mandate (decision 0048). */
  idempotency: Idempotency;
  /** INTERNAL_KEY: the settlement agent (payments) checks an agent's key through POST /agent/:id/authorize. */
  internalKey: string | undefined;
}

export interface MandateView {
  mandateId: string;
  agentId: string;
  maxNotionalUsd: number | null;
  dailyCapUsd: number | null;
  counterpartyWhitelist: string[];
  currencyPairs: string[];
  esgFloor: number | null;
  ap2Compatible: boolean;
  clamped: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The HMAC credential (Document 2 §2): verifiable by this service only. */
export type KyaCredential = KyaCredentialClaims & { signature: string };

export type AgentVerification =
  | { verified: true; agentId: string; status: 'ACTIVE'; kyaLevel: KyaLevel; kyaScore: number; credential: KyaCredential; verifiableCredential: string }
  | { verified: false; agentId: string; status: 'REVOKED'; kyaLevel: KyaLevel; kyaScore: number; revokedAt: string; message: string };

/** Signed text is bound to its purpose: this key signs agent credentials and nothing else. */
const CREDENTIAL_KEY_LABEL = 'srg/kya-credential/v1';

const iso = (date: Date) => date.toISOString();

/** An agent key is 32 random bytes, so a plain SHA-256 (no salt, no stretching) keeps it as safe as it is. */
const keyDigest = (key: string) => createHash('sha256').update(key, 'utf8').digest();

/** Whether `presented` is the key whose digest the agent keeps, in constant time; nothing matches an agent without a key. */
function isAgentKey(agent: AgentRow, presented: string): boolean {
  if (agent.agentKeySha256 === null) return false;
  return timingSafeEqual(keyDigest(presented), Buffer.from(agent.agentKeySha256, 'hex'));
}

const unauthorized = () => new AppError('CMP_ERR_AGENT_UNAUTHORIZED');

function presentMandate(row: MandateRow): MandateView {
  return {
    mandateId: row.mandateId,
    agentId: row.agentId,
    maxNotionalUsd: row.maxNotionalUsd,
    dailyCapUsd: row.dailyCapUsd,
    counterpartyWhitelist: [...row.counterpartyWhitelist],
    currencyPairs: [...row.currencyPairs],
    esgFloor: row.esgFloor,
    ap2Compatible: row.ap2Compatible,
    clamped: row.clamped,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const withNext = (level: KyaLevel) => {
  const next = nextStepOf(level);
  return next === undefined ? {} : { _next: next };
};

/** The know-your-agent capabilities, called alike by kya-routes.ts and the graph's resolvers. */
export function createKyaService(deps: KyaServiceDeps) {
  const ids = deps.ids ?? randomIds;
  const { issuer } = deps;
  const credentialKey = createHmac('sha256', deps.hmacKey).update(CREDENTIAL_KEY_LABEL).digest();
  const signCredential = (claims: KyaCredentialClaims) => createHmac('sha256', credentialKey).update(canonicalJson(claims)).digest('hex');
  /** did:web of the agent: its document is served at `<issuer base>/agents/<agentId>/did.json`. */
  const agentDid = (agentId: string) => didWebOf(`${issuer.baseUrl}/agents/${agentId}`);
  const verificationEndpoint = (agentId: string) => `${issuer.baseUrl}/agent/${agentId}/verify`;

  function checkedLei(lei: string): string {
    if (!deps.leiRegistry.isValidLei(lei)) throw new AppError('CMP_ERR_INVALID_LEI', { message: `${echo(lei)} is not a valid LEI: 20 letters and digits with ISO 17442 check digits.` });
    return lei;
  }

  function ownerLeiCheck(lei: string | undefined): OwnerLeiCheck {
    if (lei === undefined) return { kind: 'NOT_GIVEN' };
    const entry = deps.leiRegistry.find(checkedLei(lei));
    return entry ? { kind: 'IN_REGISTRY', leiStatus: entry.leiStatus, legalName: entry.legalName } : { kind: 'NOT_IN_REGISTRY' };
  }

  /** The mandate a level may hold, with its caps decided by the domain; refused for ANONYMOUS. */
  function mandateRow(agent: Pick<AgentRow, 'agentId' | 'kyaLevel' | 'protocols'>, terms: MandateTerms, mandateId: string, now: Date): MandateRow {
    const caps = decideMandateCaps(agent.kyaLevel, terms);
    if (!caps.allowed) throw new AppError('CMP_ERR_KYA_UPGRADE_REQUIRED');
    return {
      mandateId,
      agentId: agent.agentId,
      maxNotionalUsd: caps.maxNotionalUsd,
      dailyCapUsd: caps.dailyCapUsd,
      counterpartyWhitelist: (terms.counterpartyWhitelist ?? []).map(checkedLei),
      currencyPairs: terms.currencyPairs ?? [],
      esgFloor: terms.esgFloor ?? null,
      ap2Compatible: isAp2Compatible(terms.ap2Compatible, agent.protocols),
      clamped: caps.clamped,
      createdAt: now,
      updatedAt: now,
    };
  }

  function presentAgent({ agent, mandate }: AgentWithMandate) {
    return {
      agentId: agent.agentId,
      name: agent.name,
      framework: agent.framework,
      ownerEntity: agent.ownerEntity,
      protocols: [...agent.protocols],
      discoverable: agent.discoverable,
      did: agentDid(agent.agentId),
      publicKey: agent.publicKey === null ? null : { ...agent.publicKey },
      kyaLevel: agent.kyaLevel,
      kyaScore: agent.kyaScore,
      status: agent.status,
      tierCaps: { ...agent.tierCaps },
      leiVerified: agent.leiVerified,
      leiEntityName: agent.leiEntityName,
      registeredAt: iso(agent.registeredAt),
      revokedAt: agent.revokedAt === null ? null : iso(agent.revokedAt),
      mandate: mandate === null ? null : presentMandate(mandate),
      ...withNext(agent.kyaLevel),
    };
  }

  async function agentOf(agentId: string): Promise<AgentWithMandate> {
    const found = (await deps.store.agentsWithMandates([agentId])).get(agentId);
    if (!found) throw new AppError('CMP_ERR_AGENT_NOT_FOUND');
    return found;
  }

  /**
   * The agent, when the request proves its owner (decision 0048): X-Agent-Key must be the key
   * issued at its registration. Without the header 401 before any lookup; an unknown agent 404;
   * a wrong key (another owner's, another agent's, none issued) 401.
   */
  async function provenAgent(presented: string | undefined, agentId: string): Promise<AgentWithMandate> {
    if (presented === undefined || !isAgentKeyFormat(presented)) throw unauthorized();
    const found = await agentOf(agentId);
    if (!isAgentKey(found.agent, presented)) throw unauthorized();
    return found;
  }

  /** Proven, then counted against the key's per-minute limit. */
  async function admittedAgent(request: RequestContext, agentId: string): Promise<AgentWithMandate> {
    const found = await provenAgent(request.headers[AGENT_KEY_HEADER], agentId);
    await admitAgentKey(deps.rateLimits, request, agentId, deps.clock);
    return found;
  }

  /** The mandate of an active agent, created or replaced (decision 0023). */
  async function changeMandate(body: AgentMandateBody): Promise<{ created: boolean; mandate: MandateView }> {
    const { agent, mandate: existing } = await agentOf(body.agentId);
    if (agent.status === 'REVOKED') throw new AppError('CMP_ERR_AGENT_REVOKED');
    const { agentId: _agentId, ...terms } = body;
    const row = mandateRow(agent, terms, existing?.mandateId ?? `mnd_${ids.token(16)}`, deps.clock.now());
    const result = await deps.store.upsertMandate(row);
    switch (result.outcome) {
      case 'CREATED':
      case 'UPDATED':
        return { created: result.outcome === 'CREATED', mandate: presentMandate(result.mandate) };
      case 'AGENT_NOT_ACTIVE':
        throw new AppError('CMP_ERR_AGENT_REVOKED');
      case 'AGENT_NOT_FOUND':
        throw new AppError('CMP_ERR_AGENT_NOT_FOUND');
      default:
        return unreachable(result);
    }
  }

  async function issueCredential(agent: AgentRow, mandate: MandateRow | null): Promise<AgentVerification> {
    const caps: UsdCaps | null = mandate === null ? null : { maxNotionalUsd: mandate.maxNotionalUsd, dailyCapUsd: mandate.dailyCapUsd };
    const claims = credentialClaimsOf(agent.agentId, mandate?.mandateId ?? null, attestationOf(agent.kyaLevel, caps), deps.clock.now());
    const verifiableCredential = await issuer.issue({
      sub: agentDid(agent.agentId),
      jti: `urn:uuid:${ids.uuid()}`,
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
      credential: { ...claims, signature: signCredential(claims) },
      verifiableCredential,
    };
  }

  return {
    /** POST /agent/register: the tier is derived from the fields given (Document 2 §3); each registration is a new agent. */
    async register(body: AgentRegisterBody) {
      const lei = ownerLeiCheck(body.ownerLei);
      // The owner's proof from now on (decision 0048): answered once, kept as its digest only.
      const agentKey = `agk_${ids.token(32)}`;
      const kyaLevel = deriveKyaLevel({ ownerEntity: body.ownerEntity, ownerEmail: body.ownerEmail, lei });
      const protocols = body.protocols ?? [];
      const now = deps.clock.now();
      const agent: AgentRow = {
        agentId: `agt_${ids.token(16)}`,
        name: body.name,
        framework: body.framework ?? null,
        // A VERIFIED owner registered by LEI alone is named as the registry names it.
        ownerEntity: body.ownerEntity ?? (kyaLevel === 'VERIFIED' && lei.kind === 'IN_REGISTRY' ? lei.legalName : null),
        ownerEmail: body.ownerEmail ?? null,
        ownerLei: body.ownerLei ?? null,
        protocols,
        publicKey: body.publicKey ?? null,
        discoverable: body.discoverable,
        kyaLevel,
        kyaScore: kyaScoreOf({ level: kyaLevel, hasPublicKey: body.publicKey !== undefined, hasFramework: body.framework !== undefined, protocolCount: protocols.length }),
        status: 'ACTIVE',
        tierCaps: tierCapsOf(kyaLevel),
        leiVerified: kyaLevel === 'VERIFIED',
        leiEntityName: lei.kind === 'IN_REGISTRY' ? lei.legalName : null,
        registeredAt: now,
        revokedAt: null,
        agentKeySha256: keyDigest(agentKey).toString('hex'),
      };
      const mandate = body.mandate === undefined ? null : mandateRow(agent, body.mandate, `mnd_${ids.token(16)}`, now);
      await deps.store.insertAgent(agent, mandate);
      return {
        agentId: agent.agentId,
        name: agent.name,
        did: agentDid(agent.agentId),
        kyaLevel,
        kyaScore: agent.kyaScore,
        status: agent.status,
        tierCaps: { ...agent.tierCaps },
        leiVerified: agent.leiVerified,
        leiEntityName: agent.leiEntityName,
        tierNote: tierNoteOf(kyaLevel, lei),
        mandate: mandate === null ? null : presentMandate(mandate),
        registeredAt: iso(now),
        agentKey,
        ...withNext(kyaLevel),
      };
    },

    /**
     * POST /agent/mandate: creates the agent's mandate or replaces its terms (same mandateId);
     * `created` tells which. Needs the owner's proof (X-Agent-Key); an Idempotency-Key answers a
     * retry as the first request was answered.
     */
    async setMandate(request: RequestContext, body: AgentMandateBody): Promise<{ created: boolean; mandate: MandateView }> {
      const idempotencyKey = readIdempotencyKey(request.headers['idempotency-key']);
      await admittedAgent(request, body.agentId);
      const answer = await deps.idempotency.once(`compliance:agent-mandate:${body.agentId}`, idempotencyKey, body, async () => {
        const { created, mandate } = await changeMandate(body);
        return { statusCode: created ? 201 : 200, body: mandate };
      });
      return { created: answer.statusCode === 201, mandate: answer.body };
    },

    /** POST /agent/:id/authorize (internal): whether `agentKey` is the agent's own (the settlement agent asks before settling). */
    async authorize(request: RequestContext, agentId: string, agentKey: string) {
      requireInternalKey(request, deps.internalKey);
      const { agent } = await provenAgent(agentKey, agentId);
      return { agentId: agent.agentId, authorized: true as const };
    },

    /**
     * POST /agent/:id/verify: a fresh credential (1 hour) and its VC-JWT for an active agent; for a
     * revoked one, at once, verified false and status REVOKED, with no credential (decision 0015).
     */
    async verify(agentId: string): Promise<AgentVerification> {
      const { agent, mandate } = await agentOf(agentId);
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
      return issueCredential(agent, mandate);
    },

    /** GET /agent/:id: the record, its level, score and mandate; never the owner's email or LEI. */
    async getAgent(agentId: string) {
      return presentAgent(await agentOf(agentId));
    },

    /** For the graph's DataLoaders: agents by id, one query for the batch. */
    async agents(agentIds: readonly string[]) {
      const found = await deps.store.agentsWithMandates(agentIds);
      return new Map([...found].map(([agentId, record]) => [agentId, presentAgent(record)]));
    },

    /** DELETE /agent/:id: revoked from now on, with the owner's proof; revoking again answers the first revocation. */
    async revoke(request: RequestContext, agentId: string) {
      await admittedAgent(request, agentId);
      const agent = await deps.store.revoke(agentId, deps.clock.now());
      if (!agent) throw new AppError('CMP_ERR_AGENT_NOT_FOUND');
      return { agentId, status: 'REVOKED' as const, revokedAt: iso(agent.revokedAt ?? deps.clock.now()) };
    },

    /** GET /agents/directory: active agents registered discoverable, optionally of one owner; nothing private. */
    async directory(query: AgentDirectoryQuery) {
      const rows = await deps.store.directory(query);
      const agents = rows.map((agent) => ({
        agentId: agent.agentId,
        name: agent.name,
        ownerEntity: agent.ownerEntity,
        kyaLevel: agent.kyaLevel,
        leiVerified: agent.leiVerified,
        did: agentDid(agent.agentId),
        protocols: [...agent.protocols],
        registeredAt: iso(agent.registeredAt),
      }));
      return { count: agents.length, agents };
    },

    /**
     * GET /agents/:id/did.json: with the agent's own key, a self-controlled document listing it; else a
     * service-anchored one (controller: the issuer) with no key. A revoked agent's does not resolve.
     */
    async agentDidDocument(agentId: string): Promise<DidDocument> {
      const { agent } = await agentOf(agentId);
      if (agent.status === 'REVOKED') throw new AppError('CMP_ERR_AGENT_REVOKED');
      const did = agentDid(agentId);
      const service = [{ id: `${did}#kya`, type: 'KYAVerification', serviceEndpoint: verificationEndpoint(agentId) }];
      if (agent.publicKey === null) return { '@context': [...DID_CONTEXTS], id: did, controller: issuer.did, service };
      const key: PublicP256Jwk = agent.publicKey;
      const method = jsonWebKeyMethod(did, key);
      return { '@context': [...DID_CONTEXTS], id: did, controller: did, verificationMethod: [method], authentication: [method.id], assertionMethod: [method.id], service };
    },

    /** GET /.well-known/did.json and /did.json: the issuer's document, its ES256 key for assertions. */
    issuerDidDocument(): DidDocument {
      return issuer.didDocument([{ id: `${issuer.did}#agent-directory`, type: 'AgentDirectory', serviceEndpoint: `${issuer.baseUrl}/agents/directory` }]);
    },

    /** Whether `credential` was signed by this service and is unchanged (its expiry is the caller's to check). */
    credentialSignatureValid(credential: KyaCredential): boolean {
      const { signature, ...claims } = credential;
      const expected = Buffer.from(signCredential(claims));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type KyaService = ReturnType<typeof createKyaService>;

import { createHash, timingSafeEqual } from 'node:crypto';
import { AGENT_KEY_HEADER, isAgentKeyFormat } from '../../../platform/access/agent-key.js';
import { admitAgentKey } from '../../../platform/access/agent-rate-limit.js';
import { requireInternalKey } from '../../../platform/access/shared-secret.js';
import { echo } from '../../../platform/echo.js';
import { AppError, unreachable } from '../../../platform/errors.js';
import { readIdempotencyKey } from '../../../platform/idempotency.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { agentDid, agentDidDocument, type AgentVerification, credentialSignatureValid, iso, issuerDidDocument, type KyaCredential, verification } from './credentials.js';
import { type Kya, kyaOf, type KyaServiceDeps } from './deps.js';
import { decideMandateCaps, deriveKyaLevel, isAp2Compatible, type KyaLevel, kyaScoreOf, nextStepOf, type OwnerLeiCheck, tierCapsOf, tierNoteOf } from './domain/index.js';
import type { AgentDirectoryQuery, AgentMandateBody, AgentRegisterBody, MandateTerms } from './inputs.js';
import type { AgentRow, AgentWithMandate, MandateRow } from './store.js';

export type { AgentVerification, KyaCredential, KyaServiceDeps };

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

function checkedLei(kya: Kya, lei: string): string {
  if (!kya.leiRegistry.isValidLei(lei)) throw new AppError('CMP_ERR_INVALID_LEI', { message: `${echo(lei)} is not a valid LEI: 20 letters and digits with ISO 17442 check digits.` });
  return lei;
}

function ownerLeiCheck(kya: Kya, lei: string | undefined): OwnerLeiCheck {
  if (lei === undefined) return { kind: 'NOT_GIVEN' };
  const entry = kya.leiRegistry.find(checkedLei(kya, lei));
  return entry ? { kind: 'IN_REGISTRY', leiStatus: entry.leiStatus, legalName: entry.legalName } : { kind: 'NOT_IN_REGISTRY' };
}

/** The mandate a level may hold, with its caps decided by the domain; refused for ANONYMOUS. */
function mandateRow(kya: Kya, agent: Pick<AgentRow, 'agentId' | 'kyaLevel' | 'protocols'>, terms: MandateTerms, mandateId: string, now: Date): MandateRow {
  const caps = decideMandateCaps(agent.kyaLevel, terms);
  if (!caps.allowed) throw new AppError('CMP_ERR_KYA_UPGRADE_REQUIRED');
  return {
    mandateId,
    agentId: agent.agentId,
    maxNotionalUsd: caps.maxNotionalUsd,
    dailyCapUsd: caps.dailyCapUsd,
    counterpartyWhitelist: (terms.counterpartyWhitelist ?? []).map((lei) => checkedLei(kya, lei)),
    currencyPairs: terms.currencyPairs ?? [],
    esgFloor: terms.esgFloor ?? null,
    ap2Compatible: isAp2Compatible(terms.ap2Compatible, agent.protocols),
    clamped: caps.clamped,
    createdAt: now,
    updatedAt: now,
  };
}

function presentAgent(kya: Kya, { agent, mandate }: AgentWithMandate) {
  return {
    agentId: agent.agentId,
    name: agent.name,
    framework: agent.framework,
    ownerEntity: agent.ownerEntity,
    protocols: [...agent.protocols],
    discoverable: agent.discoverable,
    did: agentDid(kya, agent.agentId),
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

async function agentOf(kya: Kya, agentId: string): Promise<AgentWithMandate> {
  const found = (await kya.store.agentsWithMandates([agentId])).get(agentId);
  if (!found) throw new AppError('CMP_ERR_AGENT_NOT_FOUND');
  return found;
}

/**
 * The agent, when the request proves its owner (decision 0048): X-Agent-Key must be the key
 * issued at its registration. Without the header 401 before any lookup; an unknown agent 404;
 * a wrong key (another owner's, another agent's, none issued) 401.
 */
async function provenAgent(kya: Kya, presented: string | undefined, agentId: string): Promise<AgentWithMandate> {
  if (presented === undefined || !isAgentKeyFormat(presented)) throw unauthorized();
  const found = await agentOf(kya, agentId);
  if (!isAgentKey(found.agent, presented)) throw unauthorized();
  return found;
}

/** Proven, then counted against the key's per-minute limit. */
async function admittedAgent(kya: Kya, request: RequestContext, agentId: string): Promise<AgentWithMandate> {
  const found = await provenAgent(kya, request.headers[AGENT_KEY_HEADER], agentId);
  await admitAgentKey(kya.rateLimits, request, agentId, kya.clock);
  return found;
}

/** The mandate of an active agent, created or replaced (decision 0023). */
async function changeMandate(kya: Kya, body: AgentMandateBody): Promise<{ created: boolean; mandate: MandateView }> {
  const { agent, mandate: existing } = await agentOf(kya, body.agentId);
  if (agent.status === 'REVOKED') throw new AppError('CMP_ERR_AGENT_REVOKED');
  const { agentId: _agentId, ...terms } = body;
  const row = mandateRow(kya, agent, terms, existing?.mandateId ?? `mnd_${kya.ids.token(16)}`, kya.clock.now());
  const result = await kya.store.upsertMandate(row);
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

/** POST /agent/register: the tier is derived from the fields given (Document 2 §3); each registration is a new agent. */
async function registerAgent(kya: Kya, body: AgentRegisterBody) {
  const lei = ownerLeiCheck(kya, body.ownerLei);
  // The owner's proof from now on (decision 0048): answered once, kept as its digest only.
  const agentKey = `agk_${kya.ids.token(32)}`;
  const kyaLevel = deriveKyaLevel({ ownerEntity: body.ownerEntity, ownerEmail: body.ownerEmail, lei });
  const protocols = body.protocols ?? [];
  const now = kya.clock.now();
  const agent: AgentRow = {
    agentId: `agt_${kya.ids.token(16)}`,
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
  const mandate = body.mandate === undefined ? null : mandateRow(kya, agent, body.mandate, `mnd_${kya.ids.token(16)}`, now);
  await kya.store.insertAgent(agent, mandate);
  return {
    agentId: agent.agentId,
    name: agent.name,
    did: agentDid(kya, agent.agentId),
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
}

/**
 * POST /agent/mandate: creates the agent's mandate or replaces its terms (same mandateId);
 * `created` tells which. Needs the owner's proof (X-Agent-Key); an Idempotency-Key answers a
 * retry as the first request was answered.
 */
async function setMandate(kya: Kya, request: RequestContext, body: AgentMandateBody): Promise<{ created: boolean; mandate: MandateView }> {
  const idempotencyKey = readIdempotencyKey(request.headers['idempotency-key']);
  await admittedAgent(kya, request, body.agentId);
  const answer = await kya.idempotency.once(`compliance:agent-mandate:${body.agentId}`, idempotencyKey, body, async () => {
    const { created, mandate } = await changeMandate(kya, body);
    return { statusCode: created ? 201 : 200, body: mandate };
  });
  return { created: answer.statusCode === 201, mandate: answer.body };
}

/** POST /agent/:id/authorize (internal): whether `agentKey` is the agent's own (the settlement agent asks before settling). */
async function authorize(kya: Kya, request: RequestContext, agentId: string, agentKey: string) {
  requireInternalKey(request, kya.internalKey);
  const { agent } = await provenAgent(kya, agentKey, agentId);
  return { agentId: agent.agentId, authorized: true as const };
}

/** DELETE /agent/:id: revoked from now on, with the owner's proof; revoking again answers the first revocation. */
async function revoke(kya: Kya, request: RequestContext, agentId: string) {
  await admittedAgent(kya, request, agentId);
  const agent = await kya.store.revoke(agentId, kya.clock.now());
  if (!agent) throw new AppError('CMP_ERR_AGENT_NOT_FOUND');
  return { agentId, status: 'REVOKED' as const, revokedAt: iso(agent.revokedAt ?? kya.clock.now()) };
}

/** GET /agents/directory: active agents registered discoverable, optionally of one owner; nothing private. */
async function directory(kya: Kya, query: AgentDirectoryQuery) {
  const rows = await kya.store.directory(query);
  const agents = rows.map((agent) => ({
    agentId: agent.agentId,
    name: agent.name,
    ownerEntity: agent.ownerEntity,
    kyaLevel: agent.kyaLevel,
    leiVerified: agent.leiVerified,
    did: agentDid(kya, agent.agentId),
    protocols: [...agent.protocols],
    registeredAt: iso(agent.registeredAt),
  }));
  return { count: agents.length, agents };
}

/** The know-your-agent capabilities, called alike by kya/routes.ts and the graph's resolvers. */
export function createKyaService(deps: KyaServiceDeps) {
  const kya = kyaOf(deps);
  return {
    register: (body: AgentRegisterBody) => registerAgent(kya, body),
    setMandate: (request: RequestContext, body: AgentMandateBody) => setMandate(kya, request, body),
    authorize: (request: RequestContext, agentId: string, agentKey: string) => authorize(kya, request, agentId, agentKey),
    verify: async (agentId: string): Promise<AgentVerification> => verification(kya, agentId, await agentOf(kya, agentId)),

    /** GET /agent/:id: the record, its level, score and mandate; never the owner's email or LEI. */
    getAgent: async (agentId: string) => presentAgent(kya, await agentOf(kya, agentId)),

    /** For the graph's DataLoaders: agents by id, one query for the batch. */
    async agents(agentIds: readonly string[]) {
      const found = await kya.store.agentsWithMandates(agentIds);
      return new Map([...found].map(([agentId, record]) => [agentId, presentAgent(kya, record)]));
    },

    revoke: (request: RequestContext, agentId: string) => revoke(kya, request, agentId),
    directory: (query: AgentDirectoryQuery) => directory(kya, query),
    agentDidDocument: async (agentId: string) => agentDidDocument(kya, agentId, (await agentOf(kya, agentId)).agent),
    issuerDidDocument: () => issuerDidDocument(kya),
    credentialSignatureValid: (credential: KyaCredential) => credentialSignatureValid(kya, credential),
  };
}

export type KyaService = ReturnType<typeof createKyaService>;

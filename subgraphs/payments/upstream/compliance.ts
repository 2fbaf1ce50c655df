import { z } from 'zod';
import { AppError } from '../../../platform/errors.js';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamTransport } from '../../../platform/upstream.js';
import type { AgentMandateTerms, AgentVerificationView, AmlOutcome, VopOutcome } from '../domain/index.js';

/**
 * The payments subgraph's client of the compliance oracle's public REST interface (DESIGN.md §3):
 * POST /compliance/vop/verify and POST /compliance/aml/screen, both with X-Internal-Key, so VoP
 * is admitted free (bundled into the integration fee, Document 2 §8; platform/access admit()) and
 * AML is reachable at all. The same in-process and over HTTP: it sees only the transport.
 * Answers are parsed for the fields a payment records; any other shape is an UpstreamAnswerError.
 */

export const COMPLIANCE_SERVICE = 'compliance';
const DEFAULT_PREFIX = '/compliance';

const vopAnswerSchema = z.object({
  requestId: z.string(),
  result: z.string(),
  proceedSafe: z.boolean(),
  score: z.number().nullable(),
  resolvedBy: z.string(),
  message: z.string(),
  attestation: z.object({ fatfR16Compliant: z.boolean(), regulatoryNote: z.string() }),
});

const amlAnswerSchema = z.object({
  action: z.enum(['PROCEED', 'FLAG', 'BLOCK']),
  riskScore: z.number(),
  riskTier: z.string(),
  sanctions: z.object({ hit: z.boolean() }),
  reasoning: z.object({ recommendation: z.string() }).optional(),
});

const usdCap = z.number().nullable();
const agentVerificationAnswerSchema = z.discriminatedUnion('verified', [
  z.object({
    verified: z.literal(true),
    agentId: z.string(),
    status: z.literal('ACTIVE'),
    credential: z.object({
      agentId: z.string(),
      expiresAt: z.number(),
      attestation: z.object({
        kyaLevel: z.string(),
        ownerVerified: z.boolean(),
        mandateActive: z.boolean(),
        fatfCompliant: z.boolean(),
        dailyCapUsd: usdCap,
        maxNotionalUsd: usdCap,
      }),
    }),
  }),
  z.object({ verified: z.literal(false), agentId: z.string(), status: z.literal('REVOKED') }),
]);

const agentRecordAnswerSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  mandate: z.object({ counterpartyWhitelist: z.array(z.string()), currencyPairs: z.array(z.string()), esgFloor: z.number().nullable() }).nullable(),
});

const agentAuthorizedAnswerSchema = z.object({ authorized: z.literal(true) });
const registeredEntityAnswerSchema = z.object({ legalName: z.string(), lei: z.string().nullable() });
const entityEsgAnswerSchema = z.object({ composite: z.number() });

/** GET /agent/:id, reduced to what the settlement agent checks (the mandate's lists; its caps come signed in the verification). */
export interface AgentRecordView {
  agentId: string;
  name: string;
  mandate: AgentMandateTerms | null;
}

/** GET /vop/lookup/:wallet, reduced: the registered entity of a wallet. */
export interface RegisteredEntityView {
  legalName: string;
  lei: string | null;
}

export interface VopRequest {
  walletAddress: string;
  submittedName: string;
  submittedLei?: string;
}

/** POST /aml/screen's body (Document 2 §4; decision 0017). */
export interface AmlRequest {
  wallet: string;
  counterparty: string;
  counterpartyName?: string;
  amount: number;
  currency: string;
  amountUsd?: number;
  paymentId: string;
  direction: 'SEND';
}

export interface ComplianceClient {
  verifyPayee(request: VopRequest): Promise<VopOutcome>;
  screenAml(request: AmlRequest): Promise<AmlOutcome>;
  /** POST /agent/:id/verify, live (Document 2 §4 "Settlement agent"); null when no such agent is registered. */
  verifyAgent(agentId: string): Promise<AgentVerificationView | null>;
  /** GET /agent/:id; null when no such agent is registered. */
  getAgent(agentId: string): Promise<AgentRecordView | null>;
  /** GET /vop/lookup/:wallet; null when the wallet is not registered. */
  lookupWallet(wallet: string): Promise<RegisteredEntityView | null>;
  /** GET /esg/score/wallet/:wallet: the composite entity ESG score; null when the wallet is unregistered or has no LEI. */
  walletEsgScore(wallet: string): Promise<number | null>;
  /** POST /agent/:id/authorize (internal, decision 0048): whether `agentKey` is the agent's own; false for a wrong key or an unknown agent; any other answer is GEN_ERR_UNAVAILABLE. */
  authorizeAgent(agentId: string, agentKey: string): Promise<boolean>;
}

export interface ComplianceClientOptions {
  transport: UpstreamTransport;
  /** INTERNAL_KEY. */
  internalKey: string;
  /** Where the oracle is mounted; default `/compliance`. */
  prefix?: string;
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string, status: number): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new UpstreamAnswerError(COMPLIANCE_SERVICE, status, `${what}: the answer does not have the documented shape`);
  return parsed.data;
}

export function createComplianceClient(options: ComplianceClientOptions): ComplianceClient {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const headers = { 'x-internal-key': options.internalKey };

  async function post(path: string, body: unknown) {
    const response = await options.transport({ method: 'POST', path: `${prefix}${path}`, headers, body });
    if (response.status !== 200) throw new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, `${path}: ${upstreamErrorText(response)}`);
    return response;
  }

  /** A 404 is "none"; any other non-200 is an UpstreamAnswerError. */
  async function find<T>(method: 'GET' | 'POST', path: string, schema: z.ZodType<T>, what: string): Promise<T | null> {
    const response = await options.transport({ method, path: `${prefix}${path}`, headers, ...(method === 'POST' ? { body: {} } : {}) });
    if (response.status === 404) return null;
    if (response.status !== 200) throw new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, `${what}: ${upstreamErrorText(response)}`);
    return parse(schema, response.body, what, response.status);
  }
  const segment = (value: string) => encodeURIComponent(value);

  return {
    async verifyPayee(request) {
      const response = await post('/vop/verify', request);
      return parse(vopAnswerSchema, response.body, 'VoP', response.status);
    },
    async screenAml(request) {
      const response = await post('/aml/screen', request);
      const answer = parse(amlAnswerSchema, response.body, 'AML', response.status);
      return {
        action: answer.action,
        riskScore: answer.riskScore,
        riskTier: answer.riskTier,
        sanctionsHit: answer.sanctions.hit,
        ...(answer.reasoning ? { recommendation: answer.reasoning.recommendation } : {}),
      };
    },
    async verifyAgent(agentId) {
      const answer = await find('POST', `/agent/${segment(agentId)}/verify`, agentVerificationAnswerSchema, 'agent verification');
      if (answer === null || !answer.verified) return answer === null ? null : { verified: false, agentId: answer.agentId, status: 'REVOKED' };
      const { credential } = answer;
      return { verified: true, agentId: answer.agentId, status: 'ACTIVE', credential: { agentId: credential.agentId, expiresAt: credential.expiresAt, attestation: { ...credential.attestation } } };
    },
    async getAgent(agentId) {
      const answer = await find('GET', `/agent/${segment(agentId)}`, agentRecordAnswerSchema, 'agent record');
      return answer === null ? null : { agentId: answer.agentId, name: answer.name, mandate: answer.mandate ? { ...answer.mandate } : null };
    },
    async lookupWallet(wallet) {
      const answer = await find('GET', `/vop/lookup/${segment(wallet)}`, registeredEntityAnswerSchema, 'wallet lookup');
      return answer === null ? null : { legalName: answer.legalName, lei: answer.lei };
    },
    async authorizeAgent(agentId, agentKey) {
      const response = await options.transport({ method: 'POST', path: `${prefix}/agent/${segment(agentId)}/authorize`, headers, body: { agentKey } });
      if (response.status === 200) return parse(agentAuthorizedAnswerSchema, response.body, 'agent authorization', response.status).authorized;
      // The agent's own refusal (wrong key, unknown agent); a refused X-Internal-Key (GEN_ERR_UNAUTHORIZED) is the rail's misconfiguration.
      const code = (response.body as { code?: unknown } | undefined)?.code;
      if ((response.status === 401 && code === 'CMP_ERR_AGENT_UNAUTHORIZED') || response.status === 404) return false;
      // Any other answer leaves the key unchecked: the oracle is unavailable to this request (decision 0048 §5), 503, never 500.
      throw new AppError('GEN_ERR_UNAVAILABLE', { cause: new UpstreamAnswerError(COMPLIANCE_SERVICE, response.status, `agent authorization: ${upstreamErrorText(response)}`) });
    },
    async walletEsgScore(wallet) {
      const answer = await find('GET', `/esg/score/wallet/${segment(wallet)}`, entityEsgAnswerSchema, 'wallet ESG score');
      return answer === null ? null : answer.composite;
    },
  };
}

import { z } from 'zod';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamTransport } from '../../../platform/upstream.js';
import type { AmlOutcome, VopOutcome } from '../domain/index.js';

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
  };
}

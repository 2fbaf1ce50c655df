import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { AppError } from '../../../platform/errors.js';
import type { HoldFilter, HoldStatus } from './store.js';

/**
 * Inputs of the settlement agent (Document 2 §4 "Settlement agent"; decision 0027): POST /agent/settle's
 * body and its optional X-Agent-Id header. A malformed request is PAY_ERR_INVALID_REQUEST (400) naming
 * the fields; the mandate's own checks are the verifier's (PAY_ERR_MANDATE_INVALID).
 */

/** The largest settlement amount taken (a JSON number is exact to about 15 significant digits). */
export const MAX_SETTLE_AMOUNT = 1e12;
/** A decimal amount as JavaScript prints it: no exponent (1e-7 or 1e21 are refused), at most 6 decimals (USDC's). */
const PLAIN_DECIMAL = /^(0|[1-9]\d*)(\.\d{1,6})?$/;
const AGENT_ID = /^agt_[A-Za-z0-9_-]{22}$/;
/** An AP2 mandate longer than this is refused by the verifier (32 KiB); the field itself is bounded a little above, to name it. */
const MAX_MANDATE_FIELD = 64 * 1024;

export const settleBodySchema = z.strictObject({
  amount: z
    .number({ error: 'must be a number' })
    .positive('must be positive')
    .max(MAX_SETTLE_AMOUNT, `must be at most ${MAX_SETTLE_AMOUNT}`)
    .refine((value) => PLAIN_DECIMAL.test(String(value)), 'must have at most 6 decimals'),
  sourceCurrency: z
    .string({ error: 'must be a string' })
    .max(3, { message: 'must be an ISO 4217 code of 3 capital letters', abort: true })
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code of 3 capital letters'),
  destinationCurrency: z
    .string({ error: 'must be a string' })
    .max(10, { message: 'must be a currency or asset code (3-10 capital letters or digits)', abort: true })
    .regex(/^[A-Z][A-Z0-9]{2,9}$/, 'must be a currency or asset code (3-10 capital letters or digits)'),
  recipientAddress: z
    .string({ error: 'must be a string' })
    .max(42, { message: 'must be an EVM address (0x and 40 hex digits)', abort: true })
    .refine((value) => isAddress(value, { strict: true }), 'must be an EVM address (0x and 40 hex digits, EIP-55 checksum when mixed-case)')
    .transform((value) => getAddress(value)),
  mandate: z.string({ error: 'must be a string: an AP2 payment mandate in SD-JWT form' }).max(MAX_MANDATE_FIELD, `must be at most ${MAX_MANDATE_FIELD} characters`).optional(),
});

export type SettleBody = z.infer<typeof settleBodySchema>;

const agentKeyHeader = z.string().describe("the agent owner's agentKey, issued at registration (decision 0048)");
const idempotencyKeyHeader = z.string().optional().describe('1-255 printable ASCII characters: the same key and body answer the first answer; another body is 409');

export const settleHeadersSchema = z.object({
  'x-agent-id': z
    .string()
    .optional()
    .describe("agt_ and 22 base64url characters: the settling agent, verified live, paid from its owner's funds; without it, body.mandate is required and its issuer's funds pay (decision 0049 §9)"),
  'x-agent-key': agentKeyHeader.optional().describe("the agent owner's agentKey (decision 0048); required with X-Agent-Id"),
  'idempotency-key': idempotencyKeyHeader,
});

/** The agent's funds (decision 0049): X-Agent-Id and its owner's X-Agent-Key. */
export const fundsHeadersSchema = z.object({ 'x-agent-id': z.string().describe('agt_ and 22 base64url characters'), 'x-agent-key': agentKeyHeader });

const evmAddress = z
  .string({ error: 'must be a string' })
  .max(42, { message: 'must be an EVM address (0x and 40 hex digits)', abort: true })
  .refine((value) => isAddress(value, { strict: true }), 'must be an EVM address (0x and 40 hex digits, EIP-55 checksum when mixed-case)')
  .transform((value) => getAddress(value));

export const fundingWalletBodySchema = z.strictObject({
  walletAddress: evmAddress,
  /** EIP-191 signature (65 bytes), or a contract wallet's (ERC-1271, ERC-6492), bounded. */
  signature: z
    .string({ error: 'must be a string' })
    .max(4096, 'must be at most 4096 characters')
    .regex(/^0x([0-9a-fA-F]{2})+$/, 'must be a hex signature (0x...)'),
});
export const depositBodySchema = z.strictObject({ txHash: z.string({ error: 'must be a string' }).regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash: 0x and 64 hex digits') });

/** A trusted AP2 issuer's id as AP2_TRUSTED_ISSUERS names it (its mandates' `iss`). */
const issuerId = z.string({ error: "must be a string: a trusted AP2 issuer (its mandates' iss)" }).min(1, 'must not be empty').max(512, 'must be at most 512 characters');
/** A trusted AP2 issuer's deposit (decision 0049 §9): the operator's call. */
export const issuerDepositBodySchema = z.strictObject({ issuer: issuerId, txHash: depositBodySchema.shape.txHash });
export const issuerFundsQuerySchema = z.strictObject({ issuer: issuerId });

export type FundingWalletBody = z.infer<typeof fundingWalletBodySchema>;
export type DepositBody = z.infer<typeof depositBodySchema>;
export type IssuerDepositBody = z.infer<typeof issuerDepositBodySchema>;

function invalid(message: string): AppError {
  return new AppError('PAY_ERR_INVALID_REQUEST', { message });
}

/** The value read by its schema, or PAY_ERR_INVALID_REQUEST naming each problem (at most 10). */
function readStrict<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : `(${what})`} ${issue.message}`);
  throw invalid(`Invalid ${what}: ${issues.slice(0, 10).join('; ')}${issues.length > 10 ? `; and ${issues.length - 10} more` : ''}`);
}

/** The body, or PAY_ERR_INVALID_REQUEST naming each problem (at most 10). */
export const readSettleBody = (body: unknown): SettleBody => readStrict(settleBodySchema, body, 'body');

export const readFundingWalletBody = (body: unknown): FundingWalletBody => readStrict(fundingWalletBodySchema, body, 'body');
export const readDepositBody = (body: unknown): DepositBody => readStrict(depositBodySchema, body, 'body');
export const readIssuerDepositBody = (body: unknown): IssuerDepositBody => readStrict(issuerDepositBodySchema, body, 'body');
/** The issuer of GET /agent/issuers/funds?issuer=. */
export const readIssuerFundsQuery = (query: unknown): string => readStrict(issuerFundsQuerySchema, query, 'query').issuer;

/** X-Agent-Id: absent, or an agentId; a repeated or malformed header is PAY_ERR_INVALID_REQUEST. */
export function readAgentId(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !AGENT_ID.test(header)) throw invalid('X-Agent-Id must be one agentId: agt_ and 22 base64url characters.');
  return header;
}

/** Operator requests on held settlements (decision 0047). */
const HOLD_ID = /^hld_[A-Za-z0-9_-]{22}$/;
export const HOLD_STATUSES = ['HELD', 'RELEASED', 'DISMISSED'] as const satisfies readonly HoldStatus[];

export const holdParamsSchema = z.object({ holdId: z.string().describe('hld_ and 22 base64url characters') });
export const holdsQuerySchema = z.strictObject({
  agentId: z.string({ error: 'must be a string' }).regex(AGENT_ID, 'must be an agentId: agt_ and 22 base64url characters').optional(),
  status: z.enum(HOLD_STATUSES, { error: `must be one of ${HOLD_STATUSES.join(', ')}` }).optional(),
});
/** A release or a dismissal takes no fields: an empty object or no body. */
export const holdDecisionBodySchema = z.strictObject({}).nullish();

/** A holdId, or PAY_ERR_INVALID_REQUEST. */
export function readHoldId(params: unknown): string {
  const holdId = (params as { holdId?: unknown } | undefined)?.holdId;
  if (typeof holdId !== 'string' || !HOLD_ID.test(holdId)) throw invalid('holdId must be hld_ and 22 base64url characters.');
  return holdId;
}

export const readHoldsQuery = (query: unknown): HoldFilter => readStrict(holdsQuerySchema, query, 'query');
export const readHoldDecisionBody = (body: unknown): void => void readStrict(holdDecisionBodySchema, body, 'body');

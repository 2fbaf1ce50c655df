import { z } from 'zod';
import { paymentResultSchema } from '../shared/responses.js';
import { AGENT_MANDATE_RULES } from './domain/index.js';
import type { AgentFundsView, DepositAnswer, IssuerDepositAnswer, IssuerFundsView } from './funds.js';
import { type HeldSettlementView, MAX_LISTED_HOLDS } from './holds.js';
import { HOLD_STATUSES } from './inputs.js';
import type { SettlementAnswer } from './service.js';

/** Response shapes of the settlement agent (decision 0027), checked against the service's types below. */

const violationSchema = z.object({ rule: z.enum(AGENT_MANDATE_RULES), message: z.string() });

export const settlementAnswerSchema = z.object({
  status: z.enum(['SETTLED', 'PENDING', 'BLOCKED', 'FAILED']).describe("the payment's status; PENDING with held true when the agent's mandate holds the settlement"),
  held: z.boolean().describe('true: a rule of the agent mandate is violated; nothing was sent'),
  holdId: z.string().nullable().describe("the held settlement (hld_...), which an operator releases or dismisses under /agent/holds; also in a release's answer; else null"),
  railPaymentId: z.string().nullable(),
  result: paymentResultSchema.nullable().describe('the PaymentResult; null when held'),
  violations: z.array(violationSchema).describe('every violated rule; empty unless held'),
  agent: z.object({ agentId: z.string(), checked: z.array(z.enum(AGENT_MANDATE_RULES)) }).nullable(),
  mandate: z
    .object({
      type: z.string(),
      issuer: z.string(),
      reference: z.string().describe('base64url SHA-256 of the mandate as presented; a mandate settles once'),
      payee: z.object({ id: z.string(), name: z.string() }),
      paymentAmount: z.object({ amount: z.number().int().describe('minor units'), currency: z.string() }),
      constraints: z.array(z.object({ type: z.string(), outcome: z.string() })),
      expiresAt: z.number().int().describe('epoch seconds'),
      quoteId: z.string().describe('the quote computed for the call, which the mandate was checked against'),
    })
    .nullable(),
});

/** A held settlement (decision 0047). */
export const heldSettlementSchema = z.object({
  holdId: z.string(),
  agentId: z.string(),
  request: z
    .object({ amount: z.string().describe('decimal text'), sourceCurrency: z.string(), destinationCurrency: z.string(), recipientAddress: z.string() })
    .describe('the settlement request as given'),
  amountUsd: z.string().describe('decimal text: the USD value the mandate was checked at'),
  violations: z.array(violationSchema).describe('every violated rule'),
  status: z.enum(HOLD_STATUSES),
  railPaymentId: z.string().nullable().describe('the payment that settled it; null unless RELEASED'),
  createdAt: z.number().int().describe('epoch seconds'),
  decidedAt: z.number().int().nullable().describe('epoch seconds; null while HELD'),
});

export const heldSettlementListSchema = z.object({ count: z.number().int(), holds: z.array(heldSettlementSchema).describe(`most recent first, at most ${MAX_LISTED_HOLDS}`) });

/** An agent's funds (decision 0049); USD amounts as decimal text. */
export const agentFundsSchema = z.object({
  agentId: z.string(),
  depositedUsd: z.string().describe('every deposit credited'),
  spentUsd: z.string().describe("the agent's SETTLED and PENDING settlements"),
  availableUsd: z.string().describe('deposited less spent: what its settlements may still spend'),
  fundingWallets: z.array(z.string()).describe("wallets whose transfers to the treasury are the agent's deposits"),
  treasury: z.string().describe("the rail's treasury: deposits are transfers of the rail's token to it"),
});

export const depositAnswerSchema = z.object({
  agentId: z.string(),
  txHash: z.string(),
  credited: z.array(z.object({ logIndex: z.number().int(), fromWallet: z.string(), amountUsd: z.string() })).describe('transfers credited by this call; empty when credited before'),
  funds: agentFundsSchema,
});

/** A trusted AP2 issuer's funds (decision 0049 §9); USD amounts as decimal text. */
export const issuerFundsSchema = z.object({
  issuer: z.string(),
  depositedUsd: z.string().describe('every deposit credited'),
  spentUsd: z.string().describe('the SETTLED and PENDING settlements under its mandates alone (no X-Agent-Id)'),
  availableUsd: z.string().describe('deposited less spent: what settlements under its mandates alone may still spend'),
  fundingWallets: z.array(z.string()).describe("wallets the operator configured for the issuer (AP2_TRUSTED_ISSUERS): their transfers to the treasury are the issuer's deposits"),
  treasury: z.string().describe("the rail's treasury: deposits are transfers of the rail's token to it"),
});

export const issuerDepositAnswerSchema = z.object({
  issuer: z.string(),
  txHash: z.string(),
  credited: z.array(z.object({ logIndex: z.number().int(), fromWallet: z.string(), amountUsd: z.string() })).describe('transfers credited by this call; empty when credited before'),
  funds: issuerFundsSchema,
});

/** The settlement agent's error body: {error, code} and, for a mandate or an agent refused, reason. */
export const agentErrorSchema = z.object({ error: z.string(), code: z.string(), reason: z.string().optional() });

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type AgentResponseSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof settlementAnswerSchema>, SettlementAnswer>>,
  Assert<MutuallyAssignable<z.infer<typeof heldSettlementSchema>, HeldSettlementView>>,
  Assert<MutuallyAssignable<z.infer<typeof agentFundsSchema>, AgentFundsView>>,
  Assert<MutuallyAssignable<z.infer<typeof depositAnswerSchema>, DepositAnswer>>,
  Assert<MutuallyAssignable<z.infer<typeof issuerFundsSchema>, IssuerFundsView>>,
  Assert<MutuallyAssignable<z.infer<typeof issuerDepositAnswerSchema>, IssuerDepositAnswer>>,
];

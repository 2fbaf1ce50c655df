import { z } from 'zod';
import type { SettlementAnswer } from './agent-service.js';
import { AGENT_MANDATE_RULES } from './domain/index.js';
import { paymentResultSchema } from './responses.js';

/** Response shapes of the settlement agent (decision 0027), checked against the service's types below. */

export const settlementAnswerSchema = z.object({
  status: z.enum(['SETTLED', 'PENDING', 'BLOCKED', 'FAILED']).describe("the payment's status; PENDING with held true when the agent's mandate holds the settlement"),
  held: z.boolean().describe('true: a rule of the agent mandate is violated; nothing was sent'),
  railPaymentId: z.string().nullable(),
  result: paymentResultSchema.nullable().describe('the PaymentResult; null when held'),
  violations: z.array(z.object({ rule: z.enum(AGENT_MANDATE_RULES), message: z.string() })).describe('every violated rule; empty unless held'),
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

/** The settlement agent's error body: {error, code} and, for a mandate or an agent refused, reason. */
export const agentErrorSchema = z.object({ error: z.string(), code: z.string(), reason: z.string().optional() });

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type AgentResponseSchemasMatchTheService = [Assert<MutuallyAssignable<z.infer<typeof settlementAnswerSchema>, SettlementAnswer>>];

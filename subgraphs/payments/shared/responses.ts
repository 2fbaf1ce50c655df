import { z } from 'zod';
import type { PaymentResult } from '../domain/index.js';

/**
 * The PaymentResult (spec §2) as every family answers it: the integration API, its pacs.002 report
 * and batch entries, and the settlement agent's answers. Checked against the domain type below.
 */
const epoch = z.number().int().describe('epoch seconds');

export const paymentResultSchema = z.object({
  railPaymentId: z.string(),
  tmsReference: z.string(),
  status: z.enum(['SETTLED', 'PENDING', 'BLOCKED', 'FAILED']),
  submittedAt: epoch,
  settledAt: epoch.describe('epoch seconds; 0 until settled'),
  settlement: z.object({
    txHash: z.string().describe('empty until sent'),
    amount: z.string(),
    currency: z.string(),
    asset: z.string(),
    network: z.string(),
    exchangeRate: z.string().describe('USD per unit of currency; empty until read'),
    fee: z.string().describe('in the asset; empty until settled'),
  }),
  vop: z.object({ requestId: z.string(), result: z.string(), proceedSafe: z.boolean(), score: z.number(), resolvedBy: z.string(), message: z.string() }),
  compliance: z.object({ fatfR16Compliant: z.boolean(), micaCompliant: z.boolean(), geniusCompliant: z.boolean(), regulatoryNote: z.string() }),
});

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type PaymentResultSchemaMatchesTheDomain = Assert<MutuallyAssignable<z.infer<typeof paymentResultSchema>, PaymentResult>>;

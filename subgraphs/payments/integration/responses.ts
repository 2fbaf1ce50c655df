import { z } from 'zod';
import type { PaymentResult } from '../domain/index.js';
import type { PaymentsService } from './service.js';

/**
 * Response shapes of the integration API (spec §2, §4): Fastify's compiled serialisers and the
 * OpenAPI document; checked against the domain and service types below.
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

export const fxRateSchema = z.object({ currency: z.string(), rate: z.string().describe('USD per unit of currency'), updatedAt: epoch });

/** The integration API's error body (the spec does not show one; decision 0025): {error, code}. */
export const integrationErrorSchema = z.object({ error: z.string(), code: z.string().describe('catalog code (docs/errors.md)') });

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type ResponseSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof paymentResultSchema>, PaymentResult>>,
  Assert<MutuallyAssignable<z.infer<typeof fxRateSchema>, Awaited<ReturnType<PaymentsService['rate']>>>>,
];

import { z } from 'zod';
import type { PaymentsService } from './service.js';

/**
 * Response shapes of the integration API (spec §2, §4): Fastify's compiled serialisers and the
 * OpenAPI document; checked against the service types below. The PaymentResult's schema is shared
 * with the settlement agent (shared/responses.ts).
 */
const epoch = z.number().int().describe('epoch seconds');

export const fxRateSchema = z.object({ currency: z.string(), rate: z.string().describe('USD per unit of currency'), updatedAt: epoch });

/** The integration API's error body (the spec does not show one; decision 0025): {error, code}. */
export const integrationErrorSchema = z.object({ error: z.string(), code: z.string().describe('catalog code (docs/errors.md)') });

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type ResponseSchemasMatchTheService = [Assert<MutuallyAssignable<z.infer<typeof fxRateSchema>, Awaited<ReturnType<PaymentsService['rate']>>>>];

import { z } from 'zod';
import { paymentRequiredSchema } from '../../../platform/access/x402-schemas.js';
import { STREAM_UNIT_TYPES } from '../data/stream-prices.js';
import { complianceErrorSchema } from '../shared/responses.js';
import type { StreamService } from './service.js';

/**
 * Response shapes of the streaming sessions (decision 0019): Fastify's compiled serialisers and the
 * OpenAPI document; checked against the service's answers below. USDC amounts are decimal strings
 * (never floats); unit counts are integers.
 */
const usdc = (what: string) => z.string().describe(`${what}, USDC as a decimal string`);
const isoTime = (what: string) => z.string().describe(`${what}, ISO 8601`);

const sessionShape = {
  sessionId: z.string().describe('str_ and 22 base64url characters'),
  status: z.enum(['ACTIVE', 'EXHAUSTED', 'EXPIRED']).describe('EXHAUSTED: the balance buys no unit; EXPIRED: 24 hours after opening'),
  unitType: z.enum(STREAM_UNIT_TYPES),
  unitPriceUsdc: usdc('price of one unit'),
  fundedUsdc: usdc('amount paid to open the session'),
  balanceUsdc: usdc('what is left'),
  balanceUnits: z.number().int().describe('whole units the balance still buys'),
  unitsUsed: z.number().int(),
  payer: z.string().describe('the paying address (checksummed)'),
  transaction: z.string().describe('hash of the settled transfer that funded the session'),
  openedAt: isoTime('when the session was opened'),
  expiresAt: isoTime('when the session stops taking ticks'),
  lastTickAt: isoTime('the last tick').nullable(),
};

export const streamSessionSchema = z.object(sessionShape);

export const streamOpenedSchema = z.object({
  ...sessionShape,
  token: z.string().describe('the session bearer token (sst_...): shown this once, stored hashed; send it as Authorization: Bearer on ticks and reads'),
});

export const streamTickSchema = z.object({
  sessionId: z.string(),
  unitsCharged: z.number().int(),
  costUsdc: usdc('what this tick took'),
  balanceUsdc: usdc('what is left'),
  balanceUnits: z.number().int(),
  unitsUsed: z.number().int(),
  status: z.enum(['ACTIVE', 'EXHAUSTED', 'EXPIRED']),
  tickedAt: isoTime('the time of the tick'),
});

/** The 402 of POST /stream/open: x402's descriptor for the amount asked, and what it buys. */
export const streamPaymentRequiredSchema = paymentRequiredSchema({
  streamPreview: z.object({
    amountUsdc: z.string(),
    unitType: z.enum(STREAM_UNIT_TYPES),
    unitPriceUsdc: z.string(),
    balanceUnits: z.number().int(),
    validForHours: z.number().int(),
  }),
});

/** 402 of a tick the balance does not cover (CMP_ERR_STREAM_INSUFFICIENT_BALANCE): nothing was charged. */
export const streamInsufficientBalanceSchema = complianceErrorSchema.extend({
  sessionId: z.string(),
  requestedUnits: z.number().int(),
  costUsdc: z.string(),
  balanceUsdc: z.string(),
  balanceUnits: z.number().int(),
});

/** 410 of a tick after expiry (CMP_ERR_STREAM_EXPIRED). */
export const streamExpiredSchema = complianceErrorSchema.extend({ sessionId: z.string(), expiresAt: z.string(), balanceUsdc: z.string() });

/** 400 of an amount that is not a whole number of units (CMP_ERR_STREAM_AMOUNT_NOT_WHOLE_UNITS), or any malformed request. */
export const streamBadRequestSchema = complianceErrorSchema.extend({
  unitType: z.string().optional(),
  unitPriceUsdc: z.string().optional(),
  nearestAmountsUsdc: z.array(z.string()).optional(),
});

/** 500 CMP_ERR_STREAM_NOT_RECORDED: the payment settled, the session could not be written. */
export const streamNotRecordedSchema = complianceErrorSchema.extend({ transaction: z.string().optional(), payer: z.string().optional() });

type Answer<Capability extends keyof StreamService> = Awaited<ReturnType<StreamService[Capability]>>;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type StreamResponseSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof streamOpenedSchema>, Answer<'open'>>>,
  Assert<MutuallyAssignable<z.infer<typeof streamSessionSchema>, Answer<'get'>>>,
  Assert<MutuallyAssignable<z.infer<typeof streamTickSchema>, Answer<'tick'>>>,
];

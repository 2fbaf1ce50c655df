import { z } from 'zod';
import { feeParameters } from './data/index.js';

/**
 * Edge validation of quote requests, shared by REST (query and JSON body) and GraphQL.
 * Unknown fields are refused: a misspelt `hasFX` would otherwise quote the wrong fee silently.
 */
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

const amountUsd = z
  .number({ error: 'must be a number' })
  .positive('must be greater than 0')
  .max(feeParameters.maxAmountUsd, `must be at most ${feeParameters.maxAmountUsd}`);
const esgScore = z.number({ error: 'must be a number' }).min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100');
const monthlyVolumeUsd = z.number({ error: 'must be a number' }).nonnegative('must be 0 or more').max(1e15, 'is implausibly large');

/** A query-string number: digits with an optional fraction, nothing else (no sign, exponent or blank). */
function numberText(inner: z.ZodNumber) {
  return z
    .string({ error: 'must be given once, as a number' })
    .trim()
    .refine((text) => text.startsWith('-') || DECIMAL_TEXT.test(text), 'must be a number')
    .transform(Number)
    .pipe(inner);
}

const booleanText = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((text) => text === 'true');

export const quoteQuerySchema = z.strictObject({
  amountUsd: numberText(amountUsd),
  hasFx: booleanText.optional(),
  esgScore: numberText(esgScore).optional(),
  monthlyVolumeUsd: numberText(monthlyVolumeUsd).optional(),
});

export const quoteBodySchema = z.strictObject({
  amountUsd,
  hasFx: z.boolean({ error: 'must be true or false' }).optional(),
  esgScore: esgScore.optional(),
  monthlyVolumeUsd: monthlyVolumeUsd.optional(),
});

export const esgQuoteQuerySchema = z.strictObject({
  amountUsd: numberText(amountUsd),
  esgScore: numberText(esgScore).optional(),
});

export const esgQuoteBodySchema = z.strictObject({ amountUsd, esgScore: esgScore.optional() });

export type QuoteRequest = z.infer<typeof quoteBodySchema>;
export type EsgQuoteRequest = z.infer<typeof esgQuoteBodySchema>;

/** A valid request, returned with every 400 of the quote endpoints (Document 1 §2, error body). */
export const quoteRequestExample = { amountUsd: 10000, hasFx: true, esgScore: 75, monthlyVolumeUsd: 0 };
export const esgQuoteRequestExample = { amountUsd: 10000, esgScore: 75 };

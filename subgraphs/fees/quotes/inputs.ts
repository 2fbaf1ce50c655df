import { Big } from 'big.js';
import { z } from 'zod';
import { feeParameters } from '../data/index.js';

/**
 * Edge validation of quote requests, shared by REST (query and JSON body) and GraphQL.
 * Unknown fields are refused: a misspelt `hasFX` would otherwise quote the wrong fee silently.
 * No message repeats the caller's value (decision 0003), so a huge value gets a short answer.
 */
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;
/** Longest query-string value read at all; the longest valid one ("1000000000.000000") has 17 characters. */
export const MAX_QUERY_VALUE_LENGTH = 32;
/** USD amounts are USDC amounts: whole base units of 10⁻⁶ (docs/fee-model.md). */
const USD_DECIMALS = 6;
const ONE_BASE_UNIT = new Big(1).div(10 ** USD_DECIMALS);
/** esgScore is a 0-100 score; more than 6 decimals is noise no oracle publishes (decision 0003). */
const SCORE_DECIMALS = 6;

/** Whether `value` (a number or decimal text) has at most `decimals` decimal places, exactly (big.js, no float rounding). */
function hasAtMostDecimals(value: number | string, decimals: number): boolean {
  const exact = new Big(value);
  return exact.round(decimals, Big.roundDown).eq(exact);
}

/** Whether a positive amount is below one USDC base unit; 0 and negatives are left to `.positive()`. */
function isBelowOneBaseUnit(value: number): boolean {
  return value > 0 && new Big(value).lt(ONE_BASE_UNIT);
}

const amountUsd = z
  .number({ error: 'must be a number' })
  .positive('must be greater than 0')
  .max(feeParameters.maxAmountUsd, `must be at most ${feeParameters.maxAmountUsd}`)
  .refine((value) => !isBelowOneBaseUnit(value), 'must be at least 0.000001 (one USDC base unit)')
  .refine((value) => isBelowOneBaseUnit(value) || hasAtMostDecimals(value, USD_DECIMALS), 'must have at most 6 decimal places (USDC base units)');
const esgScore = z
  .number({ error: 'must be a number' })
  .min(0, 'must be between 0 and 100')
  .max(100, 'must be between 0 and 100')
  .refine((value) => hasAtMostDecimals(value, SCORE_DECIMALS), 'must have at most 6 decimal places');
const monthlyVolumeUsd = z
  .number({ error: 'must be a number' })
  .nonnegative('must be 0 or more')
  .max(1e15, 'is implausibly large')
  .refine((value) => hasAtMostDecimals(value, USD_DECIMALS), 'must have at most 6 decimal places (USDC base units)');

/**
 * A query-string number: digits with an optional fraction, nothing else (no sign, exponent or
 * blank), at most MAX_QUERY_VALUE_LENGTH characters. The decimal places are counted on the text,
 * before Number() could round `100.0000000000000000001` to 100.
 */
function numberText(inner: z.ZodType<number, number>, decimals: number, decimalsMessage: string) {
  return z
    .string({ error: 'must be given once, as a number' })
    .max(MAX_QUERY_VALUE_LENGTH, { error: `must be at most ${MAX_QUERY_VALUE_LENGTH} characters`, abort: true })
    .trim()
    .refine((text) => text.startsWith('-') || DECIMAL_TEXT.test(text), { error: 'must be a number', abort: true })
    .refine((text) => text.startsWith('-') || hasAtMostDecimals(text, decimals), { error: decimalsMessage, abort: true })
    .transform(Number)
    .pipe(inner);
}

const booleanText = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((text) => text === 'true');

const amountUsdText = numberText(amountUsd, USD_DECIMALS, 'must have at most 6 decimal places (USDC base units)');
const esgScoreText = numberText(esgScore, SCORE_DECIMALS, 'must have at most 6 decimal places');
const monthlyVolumeUsdText = numberText(monthlyVolumeUsd, USD_DECIMALS, 'must have at most 6 decimal places (USDC base units)');

export const quoteQuerySchema = z.strictObject({
  amountUsd: amountUsdText,
  hasFx: booleanText.optional(),
  esgScore: esgScoreText.optional(),
  monthlyVolumeUsd: monthlyVolumeUsdText.optional(),
});

export const quoteBodySchema = z.strictObject({
  amountUsd,
  hasFx: z.boolean({ error: 'must be true or false' }).optional(),
  esgScore: esgScore.optional(),
  monthlyVolumeUsd: monthlyVolumeUsd.optional(),
});

export const esgQuoteQuerySchema = z.strictObject({
  amountUsd: amountUsdText,
  esgScore: esgScoreText.optional(),
});

export const esgQuoteBodySchema = z.strictObject({ amountUsd, esgScore: esgScore.optional() });

/** GET /verify-fees: amountUsd, hasFx (default false), esgScore (default 50); the standard volume tier. */
export const verifyFeesQuerySchema = quoteQuerySchema.pick({ amountUsd: true, hasFx: true, esgScore: true });

/** The same terms as a GraphQL input (feeVerification). */
export const verifyFeesBodySchema = quoteBodySchema.pick({ amountUsd: true, hasFx: true, esgScore: true });

export type QuoteRequest = z.infer<typeof quoteBodySchema>;
export type VerifyFeesRequest = z.infer<typeof verifyFeesQuerySchema>;
export type EsgQuoteRequest = z.infer<typeof esgQuoteBodySchema>;

/** A valid request, returned with every 400 of the quote endpoints (Document 1 §2, error body). */
export const quoteRequestExample = { amountUsd: 10000, hasFx: true, esgScore: 75, monthlyVolumeUsd: 0 };
export const esgQuoteRequestExample = { amountUsd: 10000, esgScore: 75 };

/**
 * POST /stability/quote/verify (decision 0026): a quote id and the terms it is used for. esgScore
 * and monthlyVolumeUsd, when omitted, are the issued quote's own (from the quote ledger), else the
 * fee model's defaults; the HMAC decides in every case.
 */
export const quoteVerifyBodySchema = quoteBodySchema.extend({
  quoteId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  hasFx: z.boolean({ error: 'must be true or false' }),
});
export type QuoteVerifyRequest = z.infer<typeof quoteVerifyBodySchema>;

/** GET /stability/fx/:currency: the code's form is checked by the service (400 FEE_ERR_INVALID_CURRENCY); a long one stops here. */
export const fxCurrencyParamsSchema = z.strictObject({ currency: z.string().max(16, 'must be an ISO 4217 code') });

import { z } from 'zod';
import { STREAM_UNIT_TYPES } from '../data/stream-prices.js';

/**
 * Edge validation of the streaming-session requests (Document 2 §2 discovery entry of POST
 * /stream/open, §8 "Stream session amount 0.01 to 10000 USDC"; decision 0019): strict bodies, the
 * amount read as decimal text and converted to base units by string arithmetic (never a float).
 */
export const USDC_DECIMALS = 6;
const BASE_UNITS_PER_USDC = 10n ** BigInt(USDC_DECIMALS);
/** Document 2 §8, in base units: 0.01 and 10000 USDC. */
export const STREAM_MIN_BASE_UNITS = 10_000n;
export const STREAM_MAX_BASE_UNITS = 10_000n * BASE_UNITS_PER_USDC;
/** The most units one tick may ask for: every base unit of the largest session at the lowest price (1). */
export const MAX_TICK_UNITS = Number(STREAM_MAX_BASE_UNITS);

/** USDC as decimal text: at most 5 integer digits (10000 is the most) and 6 decimals, no sign, exponent or spaces. */
const USDC_TEXT = /^(0|[1-9][0-9]{0,4})(\.[0-9]{1,6})?$/;

/** Exact base units of a decimal USDC text that matches USDC_TEXT. */
export function usdcTextToBaseUnits(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * BASE_UNITS_PER_USDC + BigInt(fraction.padEnd(USDC_DECIMALS, '0'));
}

/** Base units as USDC decimal text without trailing zeros: 2775000n is "2.775", 10000n is "0.01". */
export function baseUnitsToUsdcText(amount: bigint): string {
  const sign = amount < 0n ? '-' : '';
  const magnitude = amount < 0n ? -amount : amount;
  const whole = magnitude / BASE_UNITS_PER_USDC;
  const fraction = (magnitude % BASE_UNITS_PER_USDC).toString().padStart(USDC_DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * amountUsdc as a JSON string ("2.775", preferred: exact whatever the client's number type) or a
 * JSON number (2.775; its shortest decimal text is what is read, so 0.1 is 0.1, and 1e-7 is refused).
 */
const amountUsdc = z
  .union([z.string().max(32, 'must be at most 32 characters'), z.number()], { error: 'must be a decimal amount of USDC, as a string such as "2.5" or a number' })
  .transform((value, context) => {
    const text = typeof value === 'number' ? String(value) : value;
    if (!USDC_TEXT.test(text)) {
      context.addIssue({ code: 'custom', message: 'must be a decimal amount of USDC with at most 6 decimal places, such as "2.5"' });
      return z.NEVER;
    }
    const amount = usdcTextToBaseUnits(text);
    if (amount < STREAM_MIN_BASE_UNITS || amount > STREAM_MAX_BASE_UNITS) {
      context.addIssue({ code: 'custom', message: 'must be between 0.01 and 10000 USDC' });
      return z.NEVER;
    }
    return amount;
  })
  .describe('USDC to fund the session with, 0.01 to 10000, at most 6 decimals: a string ("2.775") or a number');

export const streamOpenBodySchema = z.strictObject({
  amountUsdc,
  unitType: z.enum(STREAM_UNIT_TYPES, { error: `must be one of ${STREAM_UNIT_TYPES.join(', ')}` }),
});
export type StreamOpenBody = z.output<typeof streamOpenBodySchema>;

export const streamTickBodySchema = z.strictObject({
  units: z.number({ error: 'must be a whole number of units' }).int('must be a whole number of units').min(1, 'must be at least 1').max(MAX_TICK_UNITS, `must be at most ${MAX_TICK_UNITS}`),
});
export type StreamTickBody = z.output<typeof streamTickBodySchema>;

/** A session id as the service issues it: `str_` and 16 random bytes in base64url. */
export const streamSessionIdText = z.string().regex(/^str_[A-Za-z0-9_-]{22}$/, 'must be a sessionId: str_ and 22 base64url characters');
export const streamParamsSchema = z.object({ sessionId: streamSessionIdText });

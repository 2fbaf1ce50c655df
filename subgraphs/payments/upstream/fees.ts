import { z } from 'zod';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamTransport } from '../../../platform/upstream.js';

/**
 * The payments subgraph's client of the fees subgraph's public REST interface (DESIGN.md §3):
 * the fee quote a payment settles under (POST /stability/quote, which the settlement router
 * recomputes to the base unit: decision 0009) and the FX rate against USD.
 *
 * The FX rate is the fees subgraph's (GET /stability/fx/{currency}, decision 0026): units of the
 * currency per 1 USD, the Federal Reserve H.10 figure as published; a currency it has no rate for
 * (404) answers null, and a payment in it is not sent (decision 0025). A quote id given with a
 * payment is checked by fees (POST /stability/quote/verify: HMAC and expiry for the payment's terms).
 */

export const FEES_SERVICE = 'fees';

/** FX rate (spec §2): units of `currency` per 1 USD (decision 0026). */
export interface FxRate {
  currency: string;
  /** Decimal text. */
  rate: string;
  /** Epoch seconds. */
  updatedAt: number;
  /** Where the rate comes from. */
  source: string;
}

/** A quote id checked for a payment's terms (POST /stability/quote/verify). */
export interface QuoteCheck {
  valid: boolean;
  reason: 'valid' | 'expired' | 'malformed' | 'signature-mismatch';
  /** The terms the quote was issued for (valid only); a settlement under it uses exactly these. */
  quote: FeeQuote | null;
}

/** The parts of an issued fee quote (srg-quote/1.0) a settlement uses: the router's arguments and the fee. */
export interface FeeQuote {
  quoteId: string;
  amountUsd: number;
  hasFx: boolean;
  esgScore: number;
  monthlyVolumeUsd: number;
  /** USD (USDC) of the whole fee. */
  totalFeeUsd: number;
  /** ISO timestamp. */
  expiresAt: string;
}

const quoteAnswerSchema = z.object({
  quoteId: z.string().min(1).max(200),
  input: z.object({ amountUsd: z.number(), hasFx: z.boolean(), esgScore: z.number(), monthlyVolumeUsd: z.number() }),
  fees: z.object({ total: z.object({ usd: z.number() }) }),
  oracleContext: z.object({ expiresAt: z.string() }),
});

const fxRateAnswerSchema = z.object({
  currency: z.string(),
  rate: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .refine((text) => /[1-9]/.test(text)),
  updatedAt: z.number().int(),
  source: z.string(),
});

const quoteCheckAnswerSchema = z.object({
  valid: z.boolean(),
  reason: z.enum(['valid', 'expired', 'malformed', 'signature-mismatch']),
  quoteId: z.string(),
  terms: z.object({ amountUsd: z.number(), hasFx: z.boolean(), esgScore: z.number(), monthlyVolumeUsd: z.number() }),
  totalFeeUsd: z.number().nullable(),
  expiresAt: z.string().nullable(),
});

export interface FeesClient {
  /** The rate against USD (units of the currency per 1 USD), or null when fees has none for the currency. */
  fxRate(currency: string): Promise<FxRate | null>;
  /** Whether `quoteId` was issued for a payment of `amountUsd` (hasFx: its currency is not USD) and is unexpired. */
  checkQuote(quoteId: string, terms: { amountUsd: number; hasFx: boolean }): Promise<QuoteCheck>;
  /** A fresh fee quote for these terms (the fee model's default ESG score and volume tier). */
  quote(terms: { amountUsd: number; hasFx: boolean }): Promise<FeeQuote>;
}

export function createFeesClient(options: { transport: UpstreamTransport }): FeesClient {
  return {
    async fxRate(currency) {
      const path = `/stability/fx/${encodeURIComponent(currency)}`;
      const response = await options.transport({ method: 'GET', path });
      if (response.status === 404) return null;
      if (response.status !== 200) throw new UpstreamAnswerError(FEES_SERVICE, response.status, `${path}: ${upstreamErrorText(response)}`);
      const parsed = fxRateAnswerSchema.safeParse(response.body);
      if (!parsed.success || parsed.data.currency !== currency) throw new UpstreamAnswerError(FEES_SERVICE, response.status, `${path}: the answer does not have the documented shape`);
      return parsed.data;
    },
    async checkQuote(quoteId, terms) {
      const path = '/stability/quote/verify';
      const response = await options.transport({ method: 'POST', path, body: { quoteId, ...terms } });
      if (response.status !== 200) throw new UpstreamAnswerError(FEES_SERVICE, response.status, `${path}: ${upstreamErrorText(response)}`);
      const parsed = quoteCheckAnswerSchema.safeParse(response.body);
      if (!parsed.success) throw new UpstreamAnswerError(FEES_SERVICE, response.status, `${path}: the answer does not have the documented shape`);
      const { valid, reason, terms: quoted, totalFeeUsd, expiresAt } = parsed.data;
      if (!valid || totalFeeUsd === null || expiresAt === null) return { valid: false, reason: valid ? 'malformed' : reason, quote: null };
      return { valid, reason, quote: { quoteId: parsed.data.quoteId, ...quoted, totalFeeUsd, expiresAt } };
    },
    async quote(terms) {
      const response = await options.transport({ method: 'POST', path: '/stability/quote', body: terms });
      if (response.status !== 200) throw new UpstreamAnswerError(FEES_SERVICE, response.status, `/stability/quote: ${upstreamErrorText(response)}`);
      const parsed = quoteAnswerSchema.safeParse(response.body);
      if (!parsed.success) throw new UpstreamAnswerError(FEES_SERVICE, response.status, '/stability/quote: the answer does not have the documented shape');
      const { quoteId, input, fees, oracleContext } = parsed.data;
      return { quoteId, ...input, totalFeeUsd: fees.total.usd, expiresAt: oracleContext.expiresAt };
    },
  };
}

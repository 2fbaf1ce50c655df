import { z } from 'zod';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamTransport } from '../../../platform/upstream.js';

/**
 * The payments subgraph's client of the fees subgraph's public REST interface (DESIGN.md §3):
 * the fee quote a payment settles under (POST /stability/quote, which the settlement router
 * recomputes to the base unit: decision 0009) and the FX rate against USD.
 *
 * The FX rate: the fees subgraph owns `Currency` (DESIGN.md §4) but serves no FX path yet, so
 * only USD-denominated currencies have a rate, USD itself at par (USDC is redeemable one for one
 * with USD: a definition, not a market figure). Any other currency answers null: no rate, and a
 * payment in it is not sent (decision 0025). When fees gains its FX path, fxRate calls it here.
 */

export const FEES_SERVICE = 'fees';

/** Currencies whose amounts are USD amounts: the US dollar (USDC, the settlement asset, is redeemable one for one). */
const PAR_CURRENCIES = new Set(['USD']);

/** FX rate (spec §2): USD per unit of `currency`. */
export interface FxRate {
  currency: string;
  /** Decimal text. */
  rate: string;
  /** Epoch seconds. */
  updatedAt: number;
  /** Where the rate comes from. */
  source: string;
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

export interface FeesClient {
  /** The rate against USD, or null when fees has none for the currency. `nowSeconds` stamps a par rate. */
  fxRate(currency: string, nowSeconds: number): Promise<FxRate | null>;
  /** A fresh fee quote for these terms (the fee model's default ESG score and volume tier). */
  quote(terms: { amountUsd: number; hasFx: boolean }): Promise<FeeQuote>;
}

export function createFeesClient(options: { transport: UpstreamTransport }): FeesClient {
  return {
    async fxRate(currency, nowSeconds) {
      return PAR_CURRENCIES.has(currency) ? { currency, rate: '1', updatedAt: nowSeconds, source: 'par: USDC is redeemable one for one with USD' } : null;
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

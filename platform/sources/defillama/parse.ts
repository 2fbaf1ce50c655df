// DefiLlama /stablecoins JSON into raw pegged-asset records, field names as the API spells them.

import { z } from 'zod';
import { malformedBody } from '../errors.js';

const assetSchema = z.object({
  /** symbol: the token's ticker, e.g. USDT. */
  symbol: z.string(),
  /** price: the latest price in USD (with includePrices=true); null or absent when unknown. */
  price: z.number().nullable().optional(),
  /** circulating: supply in circulation by peg; peggedUSD for dollar stablecoins. */
  circulating: z.object({ peggedUSD: z.number() }).partial().optional(),
});

export type DefillamaAsset = z.infer<typeof assetSchema>;

const responseSchema = z.object({
  /** peggedAssets: one entry per stablecoin. */
  peggedAssets: z.array(assetSchema),
});

export function parseDefillamaStablecoins(body: unknown): DefillamaAsset[] {
  const result = responseSchema.safeParse(body);
  if (!result.success) throw malformedBody('defillama', z.prettifyError(result.error), result.error);
  return result.data.peggedAssets;
}

// Pure: DefiLlama pegged assets into a quote per asked symbol.

import type { DefillamaAsset } from './parse.js';

/** One stablecoin as DefiLlama reports it; a figure it does not give is absent. */
export interface StablecoinQuote {
  /** USD per token. */
  price?: number;
  /** Circulating supply, in USD of the peg. */
  circulatingUsd?: number;
}

/** The first asset of each symbol asked for; a symbol DefiLlama does not list gets an empty quote. */
export function mapStablecoinQuotes(assets: readonly DefillamaAsset[], symbols: readonly string[]): Record<string, StablecoinQuote> {
  const quotes: Record<string, StablecoinQuote> = {};
  for (const symbol of symbols) {
    const asset = assets.find((candidate) => candidate.symbol === symbol);
    const circulating = asset?.circulating?.peggedUSD;
    quotes[symbol] = {
      ...(typeof asset?.price === 'number' ? { price: asset.price } : {}),
      ...(typeof circulating === 'number' ? { circulatingUsd: circulating } : {}),
    };
  }
  return quotes;
}

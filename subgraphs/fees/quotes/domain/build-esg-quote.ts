import { classifyEsgScore, esgBpsFor, type EsgScoreSource, type FeeBreakdown, type FeeParameters, usdAtBps } from '../../domain/index.js';

export const ESG_QUOTE_SCHEMA = 'srg-esg-quote/1.0';

export interface EsgQuoteTerms {
  amountUsd: number;
  esgScore: number;
}

/** The ESG oracle's quote (its shape is "not shown" in Document 1; decision 0003). */
export interface EsgQuote {
  schema: string;
  timestamp: string;
  input: EsgQuoteTerms & { esgScoreSource: EsgScoreSource };
  fee: FeeBreakdown['esg'];
  range: { minBps: number; maxBps: number };
}

/** The ESG component alone, priced for one transaction: the same formula the stability quote uses. */
export function buildEsgQuote(terms: EsgQuoteTerms, esgScoreSource: EsgScoreSource, now: Date, parameters: FeeParameters): EsgQuote {
  const bps = esgBpsFor(terms.esgScore);
  return {
    schema: ESG_QUOTE_SCHEMA,
    timestamp: now.toISOString(),
    input: { amountUsd: terms.amountUsd, esgScore: terms.esgScore, esgScoreSource },
    fee: {
      bps: bps.toNumber(),
      pct: bps.div(100).toNumber(),
      usd: usdAtBps(terms.amountUsd, bps).toNumber(),
      score: terms.esgScore,
      tier: classifyEsgScore(terms.esgScore, parameters.esgTiers).tier,
      formula: parameters.esgFormula,
    },
    range: { minBps: 0, maxBps: parameters.esgMaxBps },
  };
}

import { Big } from 'big.js';
import {
  classifyEsgScore,
  type CompetitiveBenchmark,
  computeFees,
  esgBpsFor,
  type EsgScoreSource,
  type FeeBreakdown,
  type FeeParameters,
  type OracleReadings,
  type QuoteTerms,
  usdAtBps,
  usdAtPct,
} from '../../domain/index.js';
import { issueQuoteId, type QuoteSigner } from './quote-id.js';

export const QUOTE_SCHEMA = 'srg-quote/1.0';

export interface QuoteContext {
  now: Date;
  parameters: FeeParameters;
  benchmarks: readonly CompetitiveBenchmark[];
  signer: QuoteSigner;
  /** 16 hex digits drawn fresh for this quote by the caller (platform/ids); see issueQuoteId. */
  nonce: string;
  esgScoreSource: EsgScoreSource;
  network: { name: string; chainId: number };
  /** The oracles' latest successful runs (decision 0036); null where none is on record. */
  oracle: OracleReadings;
}

export interface Quote {
  schema: string;
  timestamp: string;
  quoteId: string;
  validForSeconds: number;
  input: QuoteTerms & { esgScoreSource: EsgScoreSource };
  fees: Pick<FeeBreakdown, 'core' | 'fx' | 'esg' | 'license' | 'total'>;
  settlement: FeeBreakdown['settlement'];
  esgImpact: EsgImpact;
  volumeTier: string;
  competitive: CompetitiveComparison;
  oracleContext: OracleContext;
}

export interface EsgImpact {
  score: number;
  tier: string;
  feeBps: number;
  feeUsd: number;
  /** What this transaction would save at a perfect score of 100 (equal to the ESG fee). */
  savingAtPerfectScoreUsd: number;
  nextTier: { tier: string; minScore: number; feeBpsAtMinScore: number; savingUsd: number } | null;
  /** The rail's E, S and G scores of the ESG oracle's latest run, whose average is the default esgScore. */
  railScores: OracleReadings['esg'];
}

export interface CompetitiveComparison {
  railTotalPct: number;
  railTotalUsd: number;
  comparisons: Array<{
    id: string;
    name: string;
    pct: number;
    estimatedUsd: number;
    railSavingUsd: number;
    source: string;
    url: string;
    asOf: string;
  }>;
}

export interface OracleContext {
  network: string;
  chainId: number;
  esgScoreSource: EsgScoreSource;
  feeParametersAsOf: string;
  coreDiscountPct: number;
  issuedAt: string;
  expiresAt: string;
  /** The stability oracle's latest run: score, band, peg deviation and the inputs' confidence. */
  stability: OracleReadings['stability'];
}

function describeEsgImpact(terms: QuoteTerms, fees: FeeBreakdown, parameters: FeeParameters, oracle: OracleReadings): EsgImpact {
  const current = classifyEsgScore(terms.esgScore, parameters.esgTiers);
  const index = parameters.esgTiers.indexOf(current);
  const better = index > 0 ? parameters.esgTiers[index - 1] : undefined;
  const nextTier = better
    ? {
        tier: better.tier,
        minScore: better.minScore,
        feeBpsAtMinScore: esgBpsFor(better.minScore).toNumber(),
        savingUsd: new Big(fees.esg.usd).minus(usdAtBps(terms.amountUsd, esgBpsFor(better.minScore))).toNumber(),
      }
    : null;
  return {
    score: terms.esgScore,
    tier: current.tier,
    feeBps: fees.esg.bps,
    feeUsd: fees.esg.usd,
    savingAtPerfectScoreUsd: fees.esg.usd,
    nextTier,
    railScores: oracle.esg,
  };
}

/** Prices the same amount on the published alternatives that apply to this kind of transfer. */
function compareWithBenchmarks(terms: QuoteTerms, fees: FeeBreakdown, benchmarks: readonly CompetitiveBenchmark[]): CompetitiveComparison {
  const kind = terms.hasFx ? 'cross-currency' : 'same-currency';
  const comparisons = benchmarks
    .filter((benchmark) => benchmark.appliesTo === kind)
    .map((benchmark) => {
      const estimated = usdAtPct(terms.amountUsd, benchmark.pct, benchmark.fixedUsd);
      return {
        id: benchmark.id,
        name: benchmark.name,
        pct: benchmark.pct,
        estimatedUsd: estimated.toNumber(),
        railSavingUsd: estimated.minus(fees.total.usd).toNumber(),
        source: benchmark.source,
        url: benchmark.url,
        asOf: benchmark.asOf,
      };
    });
  return { railTotalPct: fees.total.pct, railTotalUsd: fees.total.usd, comparisons };
}

export function buildQuote(terms: QuoteTerms, context: QuoteContext): Quote {
  const { now, parameters } = context;
  const breakdown = computeFees(terms, parameters);
  const expiresAt = new Date(now.getTime() + parameters.quoteValiditySeconds * 1000);
  return {
    schema: QUOTE_SCHEMA,
    timestamp: now.toISOString(),
    quoteId: issueQuoteId(terms, now, context.nonce, context.signer),
    validForSeconds: parameters.quoteValiditySeconds,
    input: { ...terms, esgScoreSource: context.esgScoreSource },
    fees: {
      core: breakdown.core,
      fx: breakdown.fx,
      esg: breakdown.esg,
      license: breakdown.license,
      total: breakdown.total,
    },
    settlement: breakdown.settlement,
    esgImpact: describeEsgImpact(terms, breakdown, parameters, context.oracle),
    volumeTier: breakdown.volumeTier,
    competitive: compareWithBenchmarks(terms, breakdown, context.benchmarks),
    oracleContext: {
      network: context.network.name,
      chainId: context.network.chainId,
      esgScoreSource: context.esgScoreSource,
      feeParametersAsOf: parameters.asOf,
      coreDiscountPct: breakdown.coreDiscountPct,
      issuedAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
      stability: context.oracle.stability,
    },
  };
}

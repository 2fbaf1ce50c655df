export interface VolumeTierRule {
  tier: string;
  minMonthlyVolumeUsd: number;
  coreDiscountPct: number;
}

export interface EsgTierRule {
  tier: string;
  minScore: number;
}

export interface ScenarioExampleInput {
  name: string;
  amountUsd: number;
  hasFx: boolean;
  esgScore: number;
  monthlyVolumeUsd: number;
}

/** Rates and schedules of the fee model; kept in data/fee-parameters.json. */
export interface FeeParameters {
  source: string;
  url: string;
  asOf: string;
  coreBps: number;
  fxBps: number;
  licenseBps: number;
  esgMaxBps: number;
  esgFormula: string;
  defaultEsgScore: number;
  quoteValiditySeconds: number;
  maxAmountUsd: number;
  /** Ordered by ascending minMonthlyVolumeUsd, the first starting at 0. */
  volumeTiers: VolumeTierRule[];
  /** Ordered by descending minScore, the last starting at 0. */
  esgTiers: EsgTierRule[];
  scenarioExamples: ScenarioExampleInput[];
}

export interface CompetitiveBenchmark {
  id: string;
  name: string;
  pct: number;
  fixedUsd: number;
  appliesTo: 'cross-currency' | 'same-currency';
  derivation: string;
  source: string;
  url: string;
  asOf: string;
}

/** What a caller asks a quote for, after validation at the edge. */
export interface QuoteTerms {
  amountUsd: number;
  hasFx: boolean;
  esgScore: number;
  monthlyVolumeUsd: number;
}

/** request: given; oracle: omitted, the ESG oracle's latest scores.average; schema-default: omitted and no oracle run on record yet (50). */
export type EsgScoreSource = 'request' | 'oracle' | 'schema-default';

export interface BpsAndUsd {
  bps: number;
  usd: number;
}

export interface FeeBreakdown {
  core: BpsAndUsd;
  fx: BpsAndUsd;
  esg: BpsAndUsd & { pct: number; score: number; tier: string; formula: string };
  license: BpsAndUsd;
  total: BpsAndUsd & { pct: number };
  settlement: { netUsd: number; grossUsd: number };
  volumeTier: string;
  coreDiscountPct: number;
}

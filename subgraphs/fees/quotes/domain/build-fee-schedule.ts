import { Big } from 'big.js';
import { type CompetitiveBenchmark, computeFees, discountedCoreBps, esgBpsFor, type EsgTierRule, type FeeParameters, type ScenarioExampleInput } from '../../domain/index.js';

export const FEE_SCHEDULE_SCHEMA = 'srg-fee-schedule/1.0';
export const ESG_FEE_SCHEDULE_SCHEMA = 'srg-esg-fee-schedule/1.0';

export interface EsgFeeTier {
  tier: string;
  minScore: number;
  /** Exclusive except for the top tier, which includes 100. */
  maxScore: number;
  minFeeBps: number;
  maxFeeBps: number;
  minFeePct: number;
  maxFeePct: number;
}

export interface VolumeTierDescription {
  tier: string;
  minMonthlyVolumeUsd: number;
  /** Exclusive upper bound; null for the top tier. */
  maxMonthlyVolumeUsd: number | null;
  coreDiscountPct: number;
  coreBps: number;
}

export interface FeeScheduleRate {
  bps: number;
  pct: number;
  applies: string;
}

export interface FeeSchedule {
  schema: string;
  timestamp: string;
  components: {
    core: FeeScheduleRate & { volumeDiscounted: boolean };
    fx: FeeScheduleRate;
    esg: { minBps: number; maxBps: number; formula: string; applies: string; tiers: EsgFeeTier[] };
    license: FeeScheduleRate;
    rounding: string;
  };
  volumeTiers: VolumeTierDescription[];
  scenarioExamples: Array<{
    name: string;
    input: ScenarioExampleInput;
    volumeTier: string;
    totalBps: number;
    totalPct: number;
    totalUsd: number;
    netUsd: number;
  }>;
  competitive: { benchmarks: CompetitiveBenchmark[]; note: string };
  source: { source: string; asOf: string };
}

export interface EsgFeeSchedule {
  schema: string;
  timestamp: string;
  formula: string;
  minBps: number;
  maxBps: number;
  tiers: EsgFeeTier[];
}

/** Each ESG tier with the score range it covers and the fee at both ends of that range. */
export function describeEsgTiers(parameters: FeeParameters): EsgFeeTier[] {
  return parameters.esgTiers.map((tier: EsgTierRule, index) => {
    const upper = index === 0 ? 100 : parameters.esgTiers[index - 1]!.minScore;
    const lowestFeeBps = esgBpsFor(upper).toNumber();
    const highestFeeBps = esgBpsFor(tier.minScore).toNumber();
    return {
      tier: tier.tier,
      minScore: tier.minScore,
      maxScore: upper,
      minFeeBps: lowestFeeBps,
      maxFeeBps: highestFeeBps,
      minFeePct: new Big(lowestFeeBps).div(100).toNumber(),
      maxFeePct: new Big(highestFeeBps).div(100).toNumber(),
    };
  });
}

function describeVolumeTiers(parameters: FeeParameters): VolumeTierDescription[] {
  return parameters.volumeTiers.map((tier, index) => {
    const next = parameters.volumeTiers[index + 1];
    return {
      tier: tier.tier,
      minMonthlyVolumeUsd: tier.minMonthlyVolumeUsd,
      maxMonthlyVolumeUsd: next ? next.minMonthlyVolumeUsd : null,
      coreDiscountPct: tier.coreDiscountPct,
      coreBps: discountedCoreBps(parameters.coreBps, tier.coreDiscountPct).toNumber(),
    };
  });
}

export function buildFeeSchedule(now: Date, parameters: FeeParameters, benchmarks: readonly CompetitiveBenchmark[]): FeeSchedule {
  return {
    schema: FEE_SCHEDULE_SCHEMA,
    timestamp: now.toISOString(),
    components: {
      core: { bps: parameters.coreBps, pct: parameters.coreBps / 100, applies: 'every settlement', volumeDiscounted: true },
      fx: { bps: parameters.fxBps, pct: parameters.fxBps / 100, applies: 'only when source and destination currencies differ (hasFx true)' },
      esg: {
        minBps: 0,
        maxBps: parameters.esgMaxBps,
        formula: parameters.esgFormula,
        applies: 'every settlement',
        tiers: describeEsgTiers(parameters),
      },
      license: { bps: parameters.licenseBps, pct: parameters.licenseBps / 100, applies: 'fixed' },
      rounding: 'each component USD = amountUsd × bps / 10000, rounded half-even to 6 decimals; total = sum of components; net = gross − total',
    },
    volumeTiers: describeVolumeTiers(parameters),
    scenarioExamples: parameters.scenarioExamples.map((example) => {
      const fees = computeFees(example, parameters);
      return {
        name: example.name,
        input: example,
        volumeTier: fees.volumeTier,
        totalBps: fees.total.bps,
        totalPct: fees.total.pct,
        totalUsd: fees.total.usd,
        netUsd: fees.settlement.netUsd,
      };
    }),
    competitive: {
      benchmarks: benchmarks.map(({ id, name, pct, fixedUsd, appliesTo, derivation, source, url, asOf }) => ({
        id,
        name,
        pct,
        fixedUsd,
        appliesTo,
        derivation,
        source,
        url,
        asOf,
      })),
      note: 'Each quote prices its own amount on the benchmarks that apply to it (quote.competitive).',
    },
    source: { source: parameters.source, asOf: parameters.asOf },
  };
}

export function buildEsgFeeSchedule(now: Date, parameters: FeeParameters): EsgFeeSchedule {
  return {
    schema: ESG_FEE_SCHEDULE_SCHEMA,
    timestamp: now.toISOString(),
    formula: parameters.esgFormula,
    minBps: 0,
    maxBps: parameters.esgMaxBps,
    tiers: describeEsgTiers(parameters),
  };
}

import { Big } from 'big.js';
import { computeFees, discountedCoreBps, esgBpsFor } from './compute-fees.js';
import type { CompetitiveBenchmark, EsgTierRule, FeeParameters } from './types.js';

export const FEE_SCHEDULE_SCHEMA = 'srg-fee-schedule/1.0';
export const ESG_FEE_SCHEDULE_SCHEMA = 'srg-esg-fee-schedule/1.0';

/** Each ESG tier with the score range it covers and the fee at both ends of that range. */
export function describeEsgTiers(parameters: FeeParameters) {
  return parameters.esgTiers.map((tier: EsgTierRule, index) => {
    const upper = index === 0 ? 100 : parameters.esgTiers[index - 1]!.minScore;
    const lowestFeeBps = esgBpsFor(upper).toNumber();
    const highestFeeBps = esgBpsFor(tier.minScore).toNumber();
    return {
      tier: tier.tier,
      minScore: tier.minScore,
      /** Exclusive except for the top tier, which includes 100. */
      maxScore: upper,
      minFeeBps: lowestFeeBps,
      maxFeeBps: highestFeeBps,
      minFeePct: new Big(lowestFeeBps).div(100).toNumber(),
      maxFeePct: new Big(highestFeeBps).div(100).toNumber(),
    };
  });
}

function describeVolumeTiers(parameters: FeeParameters) {
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

export function buildFeeSchedule(now: Date, parameters: FeeParameters, benchmarks: readonly CompetitiveBenchmark[]) {
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
        id, name, pct, fixedUsd, appliesTo, derivation, source, url, asOf,
      })),
      note: 'Each quote prices its own amount on the benchmarks that apply to it (quote.competitive).',
    },
    source: { source: parameters.source, asOf: parameters.asOf },
  };
}


export function buildEsgFeeSchedule(now: Date, parameters: FeeParameters) {
  return {
    schema: ESG_FEE_SCHEDULE_SCHEMA,
    timestamp: now.toISOString(),
    formula: parameters.esgFormula,
    minBps: 0,
    maxBps: parameters.esgMaxBps,
    tiers: describeEsgTiers(parameters),
  };
}

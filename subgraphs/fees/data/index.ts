import { z } from 'zod';
import type { CompetitiveBenchmark, FeeParameters } from '../domain/index.js';
import competitiveJson from './competitive-benchmarks.json' with { type: 'json' };
import feeParametersJson from './fee-parameters.json' with { type: 'json' };

const feeParametersSchema = z.object({
  source: z.string(),
  url: z.string(),
  asOf: z.string(),
  coreBps: z.number().nonnegative(),
  fxBps: z.number().nonnegative(),
  licenseBps: z.number().nonnegative(),
  esgMaxBps: z.number().nonnegative(),
  esgFormula: z.string(),
  defaultEsgScore: z.number().min(0).max(100),
  quoteValiditySeconds: z.number().int().positive(),
  maxAmountUsd: z.number().positive(),
  volumeTiers: z.array(z.object({ tier: z.string(), minMonthlyVolumeUsd: z.number().nonnegative(), coreDiscountPct: z.number().min(0).max(100) })).min(1),
  esgTiers: z.array(z.object({ tier: z.string(), minScore: z.number().min(0).max(100) })).min(1),
  scenarioExamples: z.array(
    z.object({
      name: z.string(),
      amountUsd: z.number().positive(),
      hasFx: z.boolean(),
      esgScore: z.number().min(0).max(100),
      monthlyVolumeUsd: z.number().nonnegative(),
    }),
  ),
});

const competitiveSchema = z.object({
  source: z.string(),
  asOf: z.string(),
  benchmarks: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      pct: z.number().nonnegative(),
      fixedUsd: z.number().nonnegative(),
      appliesTo: z.enum(['cross-currency', 'same-currency']),
      derivation: z.string(),
      source: z.string(),
      url: z.string().url(),
      asOf: z.string(),
    }),
  ),
});

export const feeParameters: FeeParameters = feeParametersSchema.parse(feeParametersJson);
export const competitiveBenchmarks: CompetitiveBenchmark[] = competitiveSchema.parse(competitiveJson).benchmarks;

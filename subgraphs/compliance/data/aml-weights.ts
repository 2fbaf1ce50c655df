// The AML model's parameters (aml-weights.json, explained in docs/aml-model.md), validated once:
// every signal present, every number in range, and the spec's rule that sanctions-correlated
// signals are never reduced for a mature wallet. A malformed file throws from the loader.

import { z } from 'zod';
import { AML_MATURITIES, AML_SIGNAL_CATEGORIES, AML_SIGNAL_CODES, AML_SIGNAL_SCALINGS, amlWeightProblems, type AmlWeights } from '../aml/domain/index.js';
import { readDataFile } from './files.js';

const positive = z.number().positive();
const fraction = z.number().gt(0).lt(1);
const count = z.number().int().min(1);

const signalSchema = z.strictObject({
  category: z.enum(AML_SIGNAL_CATEGORIES),
  weight: z.number().min(0).max(100),
  scaling: z.enum(AML_SIGNAL_SCALINGS),
  sanctionsCorrelated: z.boolean(),
});

export const amlWeightsSchema = z.strictObject({
  version: z.string().min(1),
  documentation: z.string(),
  cohortMultipliers: z.strictObject(Object.fromEntries(AML_MATURITIES.map((maturity) => [maturity, positive])) as Record<(typeof AML_MATURITIES)[number], typeof positive>),
  parameters: z.strictObject({
    reportingThresholdUsd: positive,
    reportingThresholdSource: z.strictObject({ rule: z.string().min(1), url: z.url() }),
    structuringBandFraction: fraction,
    structuringWindowHours: count,
    structuringPatternMinPrior: count,
    zScoreMinTransactions: z.number().int().min(2),
    zScoreStdDevFloorFraction: fraction,
    zScoreAnomaly: positive,
    zScoreExtreme: positive,
    velocityWindowMinutes: count,
    velocityBurstScreens: count,
    dormancyDays: count,
    roundAmountUnitUsd: positive,
    roundAmountMinUsd: positive,
    riskScoreSmoothing: fraction,
    escalationMinScore: z.number().int().min(50).max(74),
    escalationMinSignals: count,
  }),
  signals: z.strictObject(Object.fromEntries(AML_SIGNAL_CODES.map((code) => [code, signalSchema])) as Record<(typeof AML_SIGNAL_CODES)[number], typeof signalSchema>),
});

/** Validates a weights document (the shipped one, or a test's); throws naming every problem. */
export function parseAmlWeights(document: unknown): AmlWeights {
  const { documentation: _documentation, ...weights } = amlWeightsSchema.parse(document);
  const problems = amlWeightProblems(weights);
  if (problems.length > 0) throw new Error(`aml-weights.json: ${problems.join('; ')}`);
  return weights;
}

let shipped: AmlWeights | undefined;

/** data/aml-weights.json, parsed on first use. */
export function amlWeights(): AmlWeights {
  shipped ??= parseAmlWeights(JSON.parse(readDataFile('aml-weights.json')));
  return shipped;
}

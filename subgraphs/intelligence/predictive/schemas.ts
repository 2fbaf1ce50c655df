import { z } from 'zod';

/** The zod shapes shared by the ledger and the 48-hour call (REST bodies and OpenAPI). */

export const evidenceSchema = z.object({
  id: z.string(),
  label: z.string(),
  asOf: z.string().nullable().describe('date of the observation behind the figure; null for a count over history'),
  value: z.number(),
});

export const resolutionRuleSchema = z.object({
  quantity: z.string().describe('what is recomputed at the horizon'),
  series: z.string().describe('the daily series that dates the data: the call resolves once it has an observation after baseDate'),
  comparison: z.enum(['EQUALS', 'ABOVE', 'AT_OR_BELOW']),
  threshold: z.number().nullable(),
  category: z.string().nullable(),
  baseDate: z.string(),
  targetDate: z.string().describe('the quantity is recomputed on the dataset as it stood on this day (no observation dated later)'),
  text: z.string(),
});

export const resolutionSchema = z.object({
  status: z.enum(['RESOLVED', 'VOID']),
  outcome: z.boolean().nullable().describe('whether the stated outcome happened; null when VOID'),
  resolvedAt: z.string(),
  observedValue: z.number().nullable(),
  observedCategory: z.string().nullable(),
  observedAsOf: z.string().nullable(),
  reason: z.string(),
});

export const ledgerCallSchema = z.object({
  id: z.string().describe('model:subject:period'),
  model: z.string(),
  subject: z.string(),
  period: z.string().describe('the business day or ISO week (its Monday) the call is for: one call per model, subject and period'),
  issuedAt: z.string(),
  resolvesAt: z.string().describe('ISO 8601: the end of the target day, when the call falls due'),
  statement: z.string(),
  probability: z.number().describe('0-1: probability of the stated outcome'),
  evidence: z.array(evidenceSchema),
  resolutionRule: resolutionRuleSchema,
  method: z.string().describe('how the probability was derived'),
  status: z.enum(['PENDING', 'RESOLVED', 'VOID']),
  resolution: resolutionSchema.nullable(),
});

export const reliabilityBucketSchema = z.object({
  from: z.number(),
  to: z.number(),
  resolved: z.number().int(),
  meanProbability: z.number().nullable(),
  observedFrequency: z.number().nullable(),
});

export const calibrationShape = {
  calls: z.number().int(),
  pending: z.number().int(),
  resolved: z.number().int(),
  void: z.number().int(),
  hits: z.number().int().describe('resolved calls whose stated outcome happened'),
  hitRate: z.number().nullable(),
  meanProbability: z.number().nullable(),
  brierScore: z.number().nullable().describe('mean of (p - o)^2 over resolved calls (Brier 1950): 0 perfect, 0.25 a coin toss at p = 0.5'),
  reliability: z.array(reliabilityBucketSchema),
};

export const calibrationSchema = z.object(calibrationShape);

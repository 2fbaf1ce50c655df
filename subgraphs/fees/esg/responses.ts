import { z } from 'zod';
import { intelligenceSchema, oracleAsOf as asOf, oracleDataQuality as dataQuality, oracleStateSchema as oracleState } from '../runs/responses.js';
import { type Assert, type MutuallyAssignable, timestamp } from '../shared/responses.js';
import type { buildEsgHealth, buildEsgReliability, buildEsgScore } from './domain/index.js';

/**
 * Response shapes of the ESG oracle's REST paths (Document 1 §2; decision 0035): the serialisers
 * and the OpenAPI documents. The checks at the end keep each one and its builder's type mutually assignable.
 */
const esgScores = z.object({
  environmental: z.number(),
  social: z.number().describe('composite of education, health, human rights, gender equity (docs/esg-oracle-methodology.md)'),
  governance: z.number(),
  average: z.number().describe('mean of E, S and G: the esgScore input of the quotes'),
});

export const esgScoreResponseSchema = z.object({
  schema: z.string().describe('srg-esg-score/1.0'),
  timestamp,
  scores: esgScores,
  fee: z.object({ pct: z.number(), bps: z.number(), tier: z.string(), formula: z.string() }),
  dataQuality,
  asOf,
  intelligence: intelligenceSchema.optional(),
});

export const esgReliabilityResponseSchema = z.object({
  schema: z.string().describe('srg-esg-reliability/1.0'),
  timestamp,
  isHealthy: z.boolean(),
  oracle: oracleState,
  scores: z.object({
    current: z.number(),
    averageScore24h: z.number(),
    history: z.array(esgScores.extend({ timestamp: z.number().int() })).describe('The last 24 successful runs, newest first'),
  }),
  dataQuality,
  asOf,
});

export const esgHealthResponseSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  esgOracle: z.enum(['SUCCESS', 'FAILED']),
  uptimeSeconds: z.number().int(),
  uptimeHuman: z.string(),
  timestamp,
});

export type EsgResponseSchemasMatchTheViews = [
  Assert<MutuallyAssignable<z.infer<typeof esgScoreResponseSchema>, ReturnType<typeof buildEsgScore>>>,
  Assert<MutuallyAssignable<z.infer<typeof esgReliabilityResponseSchema>, ReturnType<typeof buildEsgReliability>>>,
  Assert<MutuallyAssignable<z.infer<typeof esgHealthResponseSchema>, ReturnType<typeof buildEsgHealth>>>,
];

import { z } from 'zod';
import { manifestHeaderFields, type Assert, type MutuallyAssignable } from './responses.js';
import type { buildEsgHealth, buildEsgReliability, buildEsgScore, buildOracleHistory, buildOracleStatus, buildReliability, buildStabilityHealth } from './domain/oracle-views.js';

/**
 * Response shapes of the oracles' REST paths (Document 1 §2; decision 0035): the serialisers and the
 * OpenAPI documents. The checks at the end keep each one and its builder's type mutually assignable.
 */
const timestamp = z.string().describe('ISO 8601 date-time');
const dataQuality = z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']).describe('LIVE: every feed answered as configured; PARTIAL: some fell back or are unavailable; ESTIMATED: inputs estimated');
const asOf = z.string().describe('Date of the newest observation the run used');
const oracleState = z.object({
  status: z.enum(['SUCCESS', 'FAILED']).describe('The newest finished run: SUCCESS, or FAILED while the last good output is served'),
  lastUpdate: timestamp.describe('When the output served was produced'),
  uptimeSeconds: z.number().int().describe('Since the start of the current unbroken series of successful runs'),
  uptimePct: z.number().describe('Successful runs / runs due over the last 24 hours, from the record'),
  updateFrequencySeconds: z.number().int(),
});

export const intelligenceSchema = z
  .object({
    reasoning: z.string(),
    confidence: z.number().describe('0-1'),
    alerts: z.array(z.string()).max(3),
    outlook: z.enum(['IMPROVING', 'STABLE', 'DETERIORATING', 'UNCERTAIN']),
    model: z.string(),
    generatedAt: timestamp,
  })
  .describe('Qualitative only; the scores stay authoritative. Omitted when the synthesiser failed');

const feedState = z.object({
  feed: z.string(),
  mode: z.enum(['live', 'snapshot']),
  status: z.enum(['ok', 'fallback', 'unavailable']),
  reason: z.string().optional(),
  asOf: z.string().nullable().optional(),
});

export const reliabilityResponseSchema = z.object({
  schema: z.string().describe('srg-reliability/1.0'),
  timestamp,
  isHealthy: z.boolean().describe('All systems nominal: newest run SUCCESS and current, every feed answered, no peg alert'),
  oracle: oracleState,
  stability: z.object({
    currentScore: z.number().describe('0-100'),
    averageScore24h: z.number(),
    threshold: z.object({ stable: z.number().int(), caution: z.number().int(), unstable: z.number().int() }),
  }),
  peg: z.object({
    deviationBps: z.number().nullable().describe('Supply-weighted deviation of the basket\'s stablecoins from 1 USD, from live prices; null when not measured (snapshot mode)'),
    deviationThresholdBps: z.number().int(),
    basketWeights: z.record(z.string(), z.number()),
    verificationCycleSeconds: z.number().int(),
  }),
  confidence: z.object({ score: z.number().describe('0-100'), scale: z.literal('0-100') }),
  usdHealth: z.record(z.string(), z.unknown()).describe('USD structural health (version 9.0): docs/stability-model.md'),
  dataQuality,
  asOf,
  intelligence: intelligenceSchema.optional(),
});

export const stabilityHealthResponseSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  oracle: z.enum(['SUCCESS', 'FAILED']),
  uptimeSeconds: z.number().int(),
  uptimeHuman: z.string().describe('hours, minutes and seconds, e.g. 2h 5m 7s'),
  network: z.string(),
  chainId: z.number().int(),
  timestamp,
  feeds: z.array(feedState).describe('Each signal feed of the latest run: a feed down is named here'),
});

export const oracleStatusResponseSchema = z.object({
  timestamp: z.number().int().describe('Epoch seconds of the run'),
  status: z.string(),
  data: z.record(z.string(), z.unknown()).describe('The full output of the latest run: tiers, USD health, peg, alerts, recommendations, overall status'),
  lastUpdate: timestamp,
});

export const oracleHistoryResponseSchema = z
  .array(z.object({ timestamp: z.number().int(), stabilityScore: z.number(), overall: z.string() }))
  .describe('The last 24 successful runs, newest first');

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

export const esgManifestResponseSchema = z.object({
  schema: z.string().describe('srg-esg-manifest/1.0'),
  ...manifestHeaderFields,
  fee: z.object({ esgMaxBps: z.number(), esgFormula: z.string() }),
  methodology: z.string(),
  contracts: z.object({ esgOracle: z.string().nullable() }),
  endpoints: z.record(z.string(), z.string()).describe('generated from the routes: name to method and path relative to {esg_url}'),
  onboarding: z.object({ humanRequired: z.boolean() }),
  timestamp,
});


export type OracleResponseSchemasMatchTheViews = [
  Assert<MutuallyAssignable<z.infer<typeof esgScoreResponseSchema>, ReturnType<typeof buildEsgScore>>>,
  Assert<MutuallyAssignable<z.infer<typeof esgReliabilityResponseSchema>, ReturnType<typeof buildEsgReliability>>>,
  Assert<MutuallyAssignable<z.infer<typeof esgHealthResponseSchema>, ReturnType<typeof buildEsgHealth>>>,
  Assert<MutuallyAssignable<z.infer<typeof oracleHistoryResponseSchema>, ReturnType<typeof buildOracleHistory>>>,
];
// reliability, health and status hold the pipeline's own types (usdHealth, data): checked once they are fixed.
export type OracleBuilders = [typeof buildReliability, typeof buildStabilityHealth, typeof buildOracleStatus];

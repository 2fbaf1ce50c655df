import { z } from 'zod';
import { intelligenceSchema, oracleAsOf as asOf, oracleDataQuality as dataQuality, oracleStateSchema as oracleState } from '../runs/responses.js';
import { type Assert, type MutuallyAssignable, timestamp } from '../shared/responses.js';
import type { buildOracleHistory, buildOracleStatus, buildReliability, buildStabilityHealth } from './domain/index.js';

/**
 * Response shapes of the stability oracle's REST paths (Document 1 §2; decision 0035): the
 * serialisers and the OpenAPI documents. The checks at the end keep each one and its builder's
 * type mutually assignable.
 */
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
    deviationBps: z.number().nullable().describe("Supply-weighted deviation of the basket's stablecoins from 1 USD, from live prices; null when not measured (snapshot mode)"),
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

export const oracleHistoryResponseSchema = z.array(z.object({ timestamp: z.number().int(), stabilityScore: z.number(), overall: z.string() })).describe('The last 24 successful runs, newest first');

export type StabilityResponseSchemasMatchTheViews = [Assert<MutuallyAssignable<z.infer<typeof oracleHistoryResponseSchema>, ReturnType<typeof buildOracleHistory>>>];
// reliability, health and status hold the pipeline's own types (usdHealth, data): checked once they are fixed.
export type OracleBuilders = [typeof buildReliability, typeof buildStabilityHealth, typeof buildOracleStatus];

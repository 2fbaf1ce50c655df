import { z } from 'zod';

/** Response shapes for the OpenAPI documents (Document 1 §2); the fields are those the spec lists. */
const bpsUsd = z.object({ bps: z.number(), usd: z.number() });

export const quoteErrorSchema = z.object({
  error: z.string().describe('What is wrong with the request'),
  example: z.record(z.string(), z.unknown()).describe('A valid request'),
});

export const quoteResponseSchema = z.object({
  schema: z.string().describe('srg-quote/1.0'),
  timestamp: z.string(),
  quoteId: z.string().describe('<prefix>-<digits>-<token>; pass it to the settlement router'),
  validForSeconds: z.number().int(),
  input: z.object({
    amountUsd: z.number(),
    hasFx: z.boolean(),
    esgScore: z.number(),
    monthlyVolumeUsd: z.number(),
    esgScoreSource: z.string().describe('request or schema-default'),
  }),
  fees: z.object({
    core: bpsUsd,
    fx: bpsUsd,
    esg: z.object({ bps: z.number(), pct: z.number(), usd: z.number(), score: z.number(), tier: z.string(), formula: z.string() }),
    license: bpsUsd,
    total: z.object({ bps: z.number(), pct: z.number(), usd: z.number() }),
  }),
  settlement: z.object({ netUsd: z.number(), grossUsd: z.number() }),
  esgImpact: z.unknown().describe('score, tier, fee and the saving at the next tier'),
  volumeTier: z.string(),
  competitive: z.unknown().describe('this amount priced on published alternatives'),
  oracleContext: z.unknown().describe('network, chainId, issue and expiry times, parameter version'),
});

export const esgQuoteResponseSchema = z.object({
  schema: z.string(),
  timestamp: z.string(),
  input: z.object({ amountUsd: z.number(), esgScore: z.number(), esgScoreSource: z.string() }),
  fee: z.object({ bps: z.number(), pct: z.number(), usd: z.number(), score: z.number(), tier: z.string(), formula: z.string() }),
  range: z.object({ minBps: z.number(), maxBps: z.number() }),
});

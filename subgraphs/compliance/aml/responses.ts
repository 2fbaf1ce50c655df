import { z } from 'zod';
import {
  AML_ACTIONS,
  AML_CONFIDENCES,
  AML_DIRECTIONS,
  AML_EVENT_LEVELS,
  AML_MATURITIES,
  AML_RECOMMENDATIONS,
  AML_RISK_TIERS,
  AML_SIGNAL_CATEGORIES,
  AML_SIGNAL_CODES,
  SANCTIONS_FINDING_KINDS,
} from './domain/index.js';
import type { AmlService } from './service.js';

/**
 * Response shapes of the AML endpoints (Document 2 §2 "AML screening result", §4; docs/aml-model.md):
 * Fastify's compiled serialisers and the OpenAPI document; checked against the service's types below.
 */
const epoch = z.number().int().describe('epoch seconds');
const maturity = z.enum(AML_MATURITIES);

export const amlSignalSchema = z.object({
  code: z.enum(AML_SIGNAL_CODES),
  category: z.enum(AML_SIGNAL_CATEGORIES),
  description: z.string(),
  weight: z.number().describe('points added to the risk score: baseWeight x multiplier'),
  baseWeight: z.number().describe('points at the DEVELOPING baseline (data/aml-weights.json)'),
  multiplier: z.number().describe("the wallet cohort's multiplier as applied; never below 1 for a sanctions-correlated signal"),
  sanctionsCorrelated: z.boolean(),
  measured: z.number().nullable().describe('the value the rule measured (amount, z-score, count, days)'),
  threshold: z.number().nullable().describe("the rule's threshold"),
});

export const sanctionsFindingSchema = z.object({
  kind: z.enum(SANCTIONS_FINDING_KINDS),
  entNum: z.number().int().describe('OFAC ent_num'),
  name: z.string().describe('the SDN entry'),
  type: z.enum(['individual', 'entity', 'vessel', 'aircraft']),
  programs: z.array(z.string()),
  matchedName: z.string().describe('the listed name, alias or address that matched'),
  score: z.number().describe('1 for an address; name similarity (>= 0.70) for a name'),
  currency: z.string().nullable().describe("OFAC's currency code of a listed address (XBT, ETH, USDT ...)"),
  address: z.string().nullable(),
});

export const amlReasoningSchema = z.object({
  recommendation: z.enum(AML_RECOMMENDATIONS),
  confidence: z.enum(AML_CONFIDENCES),
  rationale: z.string(),
  keyFactors: z.array(z.string()),
  processedAt: epoch,
  model: z.string().describe('the synthesiser that worded the rationale; the rule-based one says so'),
});

export const amlScreenResultSchema = z.object({
  wallet: z.string(),
  riskScore: z.number().int().describe('0-100'),
  riskTier: z.enum(AML_RISK_TIERS),
  action: z.enum(AML_ACTIONS),
  signals: z.array(amlSignalSchema),
  sanctions: z.object({
    hit: z.boolean(),
    matches: z.array(sanctionsFindingSchema),
    list: z.object({ source: z.string(), url: z.string(), asOf: z.string(), stale: z.boolean().describe('the list is older than 30 days at the time of the answer (decision 0055)') }),
  }),
  profile: z.object({ maturity, txCount: z.number().int(), txVolumeAvg: z.number().describe('USD'), riskScore: z.number() }),
  paymentId: z.string(),
  checkedAt: epoch,
  reasoning: amlReasoningSchema.optional().describe('present only when the tier is HIGH (FLAG); ESCALATE_TO_BLOCK makes the action BLOCK'),
});

export const amlProfileSchema = z.object({
  wallet: z.string(),
  maturity,
  txCount: z.number().int().describe('counted (not blocked) transactions'),
  txVolumeAvg: z.number().describe('USD, mean amount'),
  txVolumeStdDev: z.number().nullable().describe('USD, sample standard deviation; null below 2 transactions'),
  txVolumeTotal: z.number(),
  txVolumeMax: z.number(),
  counterpartyCount: z.number().int(),
  screenCount: z.number().int(),
  blockedCount: z.number().int(),
  riskScore: z.number().nullable().describe("exponentially weighted mean of the screens' risk scores; null before the first screen"),
  firstSeenAt: epoch.nullable(),
  lastSeenAt: epoch.nullable(),
  lastScreenedAt: epoch.nullable(),
});

export const amlEventsSchema = z.object({
  wallet: z.string(),
  count: z.number().int(),
  events: z.array(
    z.object({
      paymentId: z.string(),
      level: z.enum(AML_EVENT_LEVELS).exclude(['INFO']),
      riskScore: z.number().int(),
      riskTier: z.enum(AML_RISK_TIERS),
      action: z.enum(AML_ACTIONS),
      direction: z.enum(AML_DIRECTIONS),
      amountUsd: z.number(),
      signals: z.array(z.enum(AML_SIGNAL_CODES)),
      sanctionsHit: z.boolean(),
      recommendation: z.enum(AML_RECOMMENDATIONS).nullable(),
      checkedAt: epoch,
    }),
  ),
});

type Answer<Capability extends keyof AmlService> = Awaited<ReturnType<AmlService[Capability]>>;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type AmlResponseSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof amlScreenResultSchema>, Answer<'screen'>>>,
  Assert<MutuallyAssignable<z.infer<typeof amlProfileSchema>, Answer<'profile'>>>,
  Assert<MutuallyAssignable<z.infer<typeof amlEventsSchema>, Answer<'events'>>>,
];

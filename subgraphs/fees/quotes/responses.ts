import { z } from 'zod';
import { type Assert, type MutuallyAssignable, timestamp } from '../shared/responses.js';
import type { EsgFeeSchedule, EsgQuote, FeeSchedule, Manifest, Quote } from './domain/index.js';
import type { FeeVerification } from './fee-verification.js';
import type { FxRateAnswer } from './fx-rates.js';
import type { QuoteVerification } from './quote-verification.js';

/**
 * Response shapes of the REST paths (Document 1 §2): the serialisers and the OpenAPI documents.
 * Every field is described; the compile-time checks at the end keep each schema and its domain
 * type mutually assignable, and shapes.test.ts keeps each one equal to its GraphQL type.
 */
const bpsUsd = z.object({ bps: z.number(), usd: z.number() });
const esgScoreSource = z.enum(['request', 'oracle', 'schema-default']).describe("request; oracle: omitted, the ESG oracle's latest scores.average; schema-default: omitted before any oracle run (50)");
const esgFee = z.object({
  bps: z.number(),
  pct: z.number().describe('percent'),
  usd: z.number(),
  score: z.number(),
  tier: z.string(),
  formula: z.string(),
});

export const quoteResponseSchema = z.object({
  schema: z.string().describe('srg-quote/1.0'),
  timestamp,
  quoteId: z.string().describe('<prefix>-<digits>-<token>; pass it to the settlement router'),
  validForSeconds: z.number().int(),
  input: z.object({
    amountUsd: z.number(),
    hasFx: z.boolean(),
    esgScore: z.number(),
    monthlyVolumeUsd: z.number(),
    esgScoreSource,
  }),
  fees: z.object({
    core: bpsUsd,
    fx: bpsUsd,
    esg: esgFee,
    license: bpsUsd,
    total: z.object({ bps: z.number(), pct: z.number(), usd: z.number() }),
  }),
  settlement: z.object({ netUsd: z.number(), grossUsd: z.number() }),
  esgImpact: z
    .object({
      score: z.number(),
      tier: z.string(),
      feeBps: z.number(),
      feeUsd: z.number(),
      savingAtPerfectScoreUsd: z.number(),
      nextTier: z.object({ tier: z.string(), minScore: z.number(), feeBpsAtMinScore: z.number(), savingUsd: z.number() }).nullable(),
      railScores: z
        .object({ environmental: z.number(), social: z.number(), governance: z.number(), average: z.number(), runAt: timestamp })
        .nullable()
        .describe("the ESG oracle's latest run; null before any"),
    })
    .describe('score, tier, fee and the saving at the next tier'),
  volumeTier: z.string(),
  competitive: z
    .object({
      railTotalPct: z.number(),
      railTotalUsd: z.number(),
      comparisons: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          pct: z.number(),
          estimatedUsd: z.number(),
          railSavingUsd: z.number(),
          source: z.string(),
          url: z.string(),
          asOf: z.string(),
        }),
      ),
    })
    .describe('this amount priced on published alternatives'),
  oracleContext: z
    .object({
      network: z.string(),
      chainId: z.number().int(),
      esgScoreSource,
      feeParametersAsOf: z.string(),
      coreDiscountPct: z.number(),
      issuedAt: timestamp,
      expiresAt: timestamp,
      stability: z
        .object({ score: z.number(), status: z.string(), pegDeviationBps: z.number().nullable(), pegAlert: z.boolean(), confidence: z.number(), runAt: timestamp })
        .nullable()
        .describe("the stability oracle's latest run; null before any"),
    })
    .describe("network, chainId, issue and expiry times, parameter version, the oracles' latest runs"),
});

export const esgQuoteResponseSchema = z.object({
  schema: z.string(),
  timestamp,
  input: z.object({ amountUsd: z.number(), esgScore: z.number(), esgScoreSource }),
  fee: esgFee,
  range: z.object({ minBps: z.number(), maxBps: z.number() }),
});

const contractAddress = z.string().nullable().describe('EVM address; null until the deployment supplies it');

/** The fields every manifest of ours opens with (the stability and ESG oracles'). */
export const manifestHeaderFields = {
  name: z.string(),
  version: z.string(),
  description: z.string(),
  category: z.string(),
  network: z.string(),
  chainId: z.number().int(),
  capabilities: z.array(z.string()),
};

export const manifestResponseSchema = z.object({
  schema: z.string().describe('srg-manifest/1.0'),
  ...manifestHeaderFields,
  fees: z.object({
    coreBps: z.number(),
    fxBps: z.number(),
    licenseBps: z.number(),
    esgMaxBps: z.number(),
    esgFormula: z.string(),
    typicalTotalBps: z.number(),
    worstCaseTotalBps: z.number(),
    bestCaseTotalBps: z.number(),
  }),
  contracts: z.object({
    token: contractAddress,
    esgOracle: contractAddress,
    redistribution: contractAddress,
    stabilityPID: contractAddress,
    basketPeg: contractAddress,
  }),
  endpoints: z.record(z.string(), z.string()).describe('map of available endpoints, generated from the routes: name to method and path relative to {stability_url}'),
  onboarding: z.object({ humanRequired: z.boolean() }),
  timestamp,
});

/** GET /esg/manifest (decision 0033). */
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

const feeRate = z.object({ bps: z.number(), pct: z.number(), applies: z.string() });
const esgFeeTier = z.object({
  tier: z.string(),
  minScore: z.number(),
  maxScore: z.number().describe('exclusive, except 100 for the top tier'),
  minFeeBps: z.number(),
  maxFeeBps: z.number(),
  minFeePct: z.number(),
  maxFeePct: z.number(),
});

export const feeScheduleResponseSchema = z.object({
  schema: z.string().describe('srg-fee-schedule/1.0'),
  timestamp,
  components: z.object({
    core: feeRate.extend({ volumeDiscounted: z.boolean() }),
    fx: feeRate,
    esg: z.object({ minBps: z.number(), maxBps: z.number(), formula: z.string(), applies: z.string(), tiers: z.array(esgFeeTier) }),
    license: feeRate,
    rounding: z.string(),
  }),
  volumeTiers: z.array(
    z.object({
      tier: z.string(),
      minMonthlyVolumeUsd: z.number(),
      maxMonthlyVolumeUsd: z.number().nullable().describe('exclusive; null for the top tier'),
      coreDiscountPct: z.number(),
      coreBps: z.number(),
    }),
  ),
  scenarioExamples: z.array(
    z.object({
      name: z.string(),
      input: z.object({ name: z.string(), amountUsd: z.number(), hasFx: z.boolean(), esgScore: z.number(), monthlyVolumeUsd: z.number() }),
      volumeTier: z.string(),
      totalBps: z.number(),
      totalPct: z.number(),
      totalUsd: z.number(),
      netUsd: z.number(),
    }),
  ),
  competitive: z.object({
    benchmarks: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        pct: z.number(),
        fixedUsd: z.number(),
        appliesTo: z.enum(['cross-currency', 'same-currency']),
        derivation: z.string(),
        source: z.string(),
        url: z.string(),
        asOf: z.string(),
      }),
    ),
    note: z.string(),
  }),
  source: z.object({ source: z.string(), asOf: z.string() }),
});

export const esgFeeScheduleResponseSchema = z.object({
  schema: z.string().describe('srg-esg-fee-schedule/1.0'),
  timestamp,
  formula: z.string(),
  minBps: z.number(),
  maxBps: z.number(),
  tiers: z.array(esgFeeTier),
});

const baseUnitAmount = z.string().regex(/^\d+$/).describe('USDC base units (6 decimals), as a decimal string');
const feeAmounts = {
  core: baseUnitAmount,
  fx: baseUnitAmount,
  esg: baseUnitAmount,
  license: baseUnitAmount,
  total: baseUnitAmount,
  net: baseUnitAmount,
};

/** GET /stability/verify-fees (Document 1 §"Fee verification"; the nested objects and nulls: decision 0009). */
export const verifyFeesResponseSchema = z.object({
  schema: z.string(),
  timestamp,
  offChain: z.object({ ...feeAmounts, totalBps: z.number() }),
  onChain: z.object({ ...feeAmounts, router: z.string(), chainId: z.number().int(), blockNumber: z.string() }).nullable(),
  onChainError: z.string().nullable(),
  feesMatch: z.boolean().nullable(),
  note: z.string(),
});

/** GET /stability/fx/:currency (decision 0026): the spec's {currency, rate, updatedAt} and where the figure comes from. */
export const fxRateResponseSchema = z.object({
  currency: z.string().describe('ISO 4217 code'),
  rate: z.string().describe('Units of the currency per 1 USD, decimal text as published'),
  updatedAt: z.number().int().describe('Epoch seconds of the observation date (00:00 UTC)'),
  direction: z.literal('units of currency per 1 USD'),
  observationDate: z.string().describe('YYYY-MM-DD'),
  dataQuality: z.enum(['published', 'definition']).describe('published: an observation of the source; definition: USD itself'),
  source: z.string(),
  url: z.string(),
  asOf: z.string().describe('Date of the shipped snapshot'),
  licence: z.string(),
});

/** POST /stability/quote/verify (decision 0026). */
export const quoteVerificationResponseSchema = z.object({
  quoteId: z.string(),
  valid: z.boolean(),
  reason: z.enum(['valid', 'expired', 'malformed', 'signature-mismatch']),
  terms: z.object({ amountUsd: z.number(), hasFx: z.boolean(), esgScore: z.number(), monthlyVolumeUsd: z.number() }).describe('The terms the quote id was checked against'),
  termsSource: z.enum(['request', 'ledger', 'oracle', 'defaults']).describe('Where esgScore and monthlyVolumeUsd came from'),
  totalFeeUsd: z.number().nullable().describe('The quoted fee (USDC) when valid'),
  issuedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
});

/** One shape, defined once: a field added to a domain type and not here (or the reverse) fails `tsc`. */
export type ResponseSchemasMatchTheDomain = [
  Assert<MutuallyAssignable<z.infer<typeof quoteResponseSchema>, Quote>>,
  Assert<MutuallyAssignable<z.infer<typeof esgQuoteResponseSchema>, EsgQuote>>,
  Assert<MutuallyAssignable<z.infer<typeof manifestResponseSchema>, Manifest>>,
  Assert<MutuallyAssignable<z.infer<typeof feeScheduleResponseSchema>, FeeSchedule>>,
  Assert<MutuallyAssignable<z.infer<typeof esgFeeScheduleResponseSchema>, EsgFeeSchedule>>,
  Assert<MutuallyAssignable<z.infer<typeof verifyFeesResponseSchema>, FeeVerification>>,
  Assert<MutuallyAssignable<z.infer<typeof fxRateResponseSchema>, FxRateAnswer>>,
  Assert<MutuallyAssignable<z.infer<typeof quoteVerificationResponseSchema>, QuoteVerification>>,
];

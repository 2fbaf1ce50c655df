import { z } from 'zod';
import parametersJson from '../data/parameters/fx-settlement.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeFxSettlement, type FxSettlement, type FxSettlementParameters, seriesAsOfDay } from './domain/index.js';

const parameters = parametersJson as FxSettlementParameters;

/** The corridors the answer covers (keys of data/parameters/fx-settlement.json), as USD_<quote>. */
export const FX_CORRIDORS = Object.keys(parameters.corridors) as [string, ...string[]];

export const fxSettlementParams = z.object({
  corridor: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(FX_CORRIDORS))
    .optional()
    .describe(`one corridor: ${FX_CORRIDORS.join(', ')}; all of them when absent`),
});

export type FxSettlementParams = z.infer<typeof fxSettlementParams>;

const carrySchema = z.object({
  usdRateName: z.string(),
  usdRate: z.number(),
  quoteRateName: z.string(),
  quoteRate: z.number(),
  differentialBps: z.number().describe('USD overnight rate minus the quote currency one, bps a year'),
  horizonCarryBps: z.number(),
  asOf: z.string(),
});

const corridorSchema = z.object({
  base: z.literal('USD'),
  quote: z.string(),
  rate: z.number().describe('quote currency units per USD'),
  asOf: z.string(),
  rateAgeDays: z.number().int(),
  change30dPct: z.number(),
  movePercentile: z.number(),
  realisedVolatility30d: z.number().describe('annualised, percent'),
  volatilityPercentile: z.number(),
  regime: z.enum(['CALM', 'NORMAL', 'ELEVATED', 'STRESSED']),
  settlementBufferBps: z.number().int(),
  recommendation: z.enum(['SETTLE_NOW', 'STAGGER', 'DEFER']),
  reasons: z.array(z.string()),
  carry: carrySchema.nullable(),
});

export const fxSettlementSchema = z.object({
  horizonHours: z.number().describe('from receipt of the stablecoin to settlement of the FX leg'),
  corridors: z.record(z.string(), corridorSchema).describe('keyed by corridor, USD_<quote>'),
  summary: z.object({
    settleNow: z.array(z.string()),
    stagger: z.array(z.string()),
    defer: z.array(z.string()),
    widestBuffer: z.object({ corridor: z.string(), settlementBufferBps: z.number().int() }).nullable(),
  }),
  narrative: z.string(),
});

/** GraphQL names no object keyed by corridor: a list of corridors, each naming itself. */
export function fxSettlementToGraphQL(body: FxSettlement) {
  return { ...body, corridors: Object.entries(body.corridors).map(([corridor, entry]) => ({ corridor, ...entry })) };
}

/** GET /v1/intelligence/fx-settlement[?corridor=USD_EUR] (spec §4: shape not shown; designed in docs/intelligence/fx-settlement.md). */
export const fxSettlementEndpoint: SignalEndpoint<FxSettlementParams, FxSettlement> = {
  id: 'fx-settlement',
  summary: 'FX settlement conditions per corridor: buffer, timing and carry for stablecoin payments settled into local currency',
  params: fxSettlementParams,
  invalidParamsCode: 'INT_ERR_INVALID_PARAMETER',
  cacheKey: (params) => `fx-settlement:${params.corridor ?? 'all'}`,
  response: fxSettlementSchema,
  compute: ({ dataset, now, params }) => {
    const today = now.toISOString().slice(0, 10);
    return computeFxSettlement(seriesAsOfDay(dataset.series, today), parameters, { today, ...(params.corridor ? { corridor: params.corridor } : {}) });
  },
  // The spec names no header of its own for fx-settlement (Document 3 §4); X-Rail-Cache-Hit and X-Rail-Generated come from the framework.
  headers: () => ({}),
  graphql: { field: 'fxSettlement', toGraphQL: fxSettlementToGraphQL },
};

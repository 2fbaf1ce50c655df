import { z } from 'zod';
import parametersJson from '../data/parameters/commodity.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { type CommodityParameters, type CommodityStress, computeCommodityStress, seriesAsOfDay } from './domain/index.js';

const parameters = parametersJson as CommodityParameters;

const readingShape = {
  value: z.number().describe('latest price of the headline series'),
  units: z.string(),
  asOf: z.string(),
  signal: z.string(),
  score: z.number().describe('0-100: percentile rank of the size of the 1- and 3-month moves over the last ten years'),
  monthlyChange: z.number().nullable().describe('percent change over one month'),
  threeMonthChange: z.number().nullable().describe('percent change over three months'),
};

export const commodityStressSchema = z.object({
  stressIndex: z.number().describe('0-100'),
  regime: z.enum(['CALM', 'MODERATE', 'STRESSED', 'CRISIS']),
  commodities: z
    .object({
      oil: z.object({ ...readingShape, wti: z.number().nullable(), brentWtiSpread: z.number().nullable() }),
      gas: z.object({ ...readingShape, europeTtf: z.number().nullable(), europeTtfAsOf: z.string().nullable() }),
      gold: z.object({
        ...readingShape,
        flightToSafety: z.enum(['ACTIVE', 'WATCH', 'ABSENT']),
        flightToSafetyBasis: z.string(),
        realYield10y: z.number().nullable(),
      }),
      wheat: z.object({ ...readingShape, droughtExposure: z.string() }),
      corn: z.object({ ...readingShape, droughtExposure: z.string() }),
      copper: z.object({ ...readingShape, demandRegime: z.enum(['EXPANDING', 'STABLE', 'CONTRACTING', 'UNKNOWN']), copperGoldRatioChange: z.number().nullable() }),
    })
    .partial(),
  crossCommoditySignal: z.string(),
  inflationLeadSignal: z.string(),
  narrative: z.string(),
});

/** GET /v1/intelligence/commodity (spec §2 shape 10; method: docs/intelligence/commodity.md). */
export const commodityEndpoint: SignalEndpoint<Record<string, never>, CommodityStress> = {
  id: 'commodity',
  summary: 'Multi-commodity stress: oil, gas, gold, wheat, corn and copper against their own ten years',
  response: commodityStressSchema,
  compute: ({ dataset, now }) => computeCommodityStress(seriesAsOfDay(dataset.series, now.toISOString().slice(0, 10)), parameters),
  headers: (body) => ({ 'x-rail-commodity-stress': String(body.stressIndex), 'x-rail-commodity-regime': body.regime }),
  graphql: { field: 'commodityStress' },
};

import { z } from 'zod';
import parametersJson from '../data/parameters/supply-chain.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeSupplyChain, type GaugeReading, type SupplyChain, type SupplyChainParameters } from './domain/index.js';

const parameters = parametersJson as SupplyChainParameters;

export const gaugeSchema = z.object({
  levelCm: z.number().nullable().describe('null only when status is DATA_UNAVAILABLE: no open series exists for the gauge'),
  status: z.string(),
  bottleneckRisk: z.string(),
  asOf: z.string().nullable().describe('date of the reading'),
  stale: z.boolean().describe('the reading is older than the gauge allows for a live level'),
  reference: z.string().describe('what levelCm is measured against'),
  seasonalPercentile: z.number().optional().describe('percentile among the same calendar month on record (Great Lakes)'),
});

export const supplyChainSchema = z.object({
  gscpiZScore: z.number().describe('NY Fed Global Supply Chain Pressure Index, standard deviations from average'),
  regime: z.enum(['EXTREME', 'ELEVATED', 'NORMAL', 'SLACK']),
  gscpiAsOf: z.string(),
  gscpiChange: z.number().nullable().describe('change over the momentum window, standard deviations'),
  waterLevels: z.object({ rhineKaub: gaugeSchema, mississippi: gaugeSchema, panamaCanal: gaugeSchema, greatLakes: gaugeSchema }),
  goodsInflationLeadSignal: z.string(),
  leadMonths: z.number(),
});

/** Objects keyed by name become lists with the name as a field (GraphQL cannot name keys it does not know). */
export function gaugeList(readings: Record<string, GaugeReading>) {
  return Object.entries(readings).map(([gauge, reading]) => ({ gauge, ...reading }));
}

/** GET /v1/intelligence/supply-chain (spec §2 shape 4). */
export const supplyChainEndpoint: SignalEndpoint<Record<string, never>, SupplyChain> = {
  id: 'supply-chain',
  summary: 'Global supply-chain pressure (GSCPI) and water levels at four chokepoints',
  response: supplyChainSchema,
  compute: ({ dataset, now }) => computeSupplyChain(dataset.series, parameters, now.toISOString().slice(0, 10)),
  headers: (body) => ({ 'x-rail-gscpi': String(body.gscpiZScore), 'x-rail-regime': body.regime }),
  graphql: { field: 'supplyChain', toGraphQL: (body) => ({ ...body, waterLevels: gaugeList(body.waterLevels) }) },
};

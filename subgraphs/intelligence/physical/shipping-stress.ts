import { z } from 'zod';
import shippingJson from '../data/parameters/shipping-stress.json' with { type: 'json' };
import supplyChainJson from '../data/parameters/supply-chain.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeShippingStress, type GaugesParameters, type ShippingStress, type ShippingStressParameters } from './domain/index.js';

const parameters = shippingJson as ShippingStressParameters;
/** The chokepoint gauges are supply-chain's: one calibration for both endpoints. */
const gauges = supplyChainJson as GaugesParameters;

const modeSchema = z.object({
  score: z.number().nullable().describe('0-100; null when no input of the mode exists'),
  status: z.string(),
  basis: z.string().describe('the open substitute the score reads'),
  asOf: z.string().nullable(),
  stale: z.boolean(),
  missing: z.array(z.string()).describe('inputs the mode would need that are not openly published'),
});

const routeSchema = z.object({
  label: z.string(),
  status: z.string(),
  score: z.number().nullable(),
  drivers: z.array(z.string()),
  missingDrivers: z.array(z.string()),
  corridors: z.array(z.string()),
});

export const shippingStressSchema = z.object({
  compositeIndex: z.number().describe('0-100, weighted mean of the freight modes scored'),
  regime: z.enum(['SEVERE', 'STRESSED', 'MODERATE', 'CALM']),
  modes: z.object({ ocean: modeSchema, air: modeSchema, truck: modeSchema, rail: modeSchema, inlandWaterway: modeSchema }),
  energyCosts: z.object({
    brentUsd: z.number(),
    asOf: z.string(),
    change30dPct: z.number().nullable(),
    change90dPct: z.number().nullable(),
    percentile: z.number(),
    costPressure: z.string(),
    basis: z.string(),
  }),
  tradeRoutes: z.record(z.string(), routeSchema).describe('eight key trade routes'),
  settlementRelevance: z.object({ invoiceDelayRisk: z.string(), tradeFinanceStress: z.string(), affectedCorridors: z.array(z.string()), guidance: z.string() }),
});

export function shippingStressToGraphQL(body: ShippingStress) {
  return {
    ...body,
    modes: Object.entries(body.modes).map(([mode, reading]) => ({ mode, ...reading })),
    tradeRoutes: Object.entries(body.tradeRoutes).map(([route, reading]) => ({ route, ...reading })),
  };
}

/** GET /v1/intelligence/shipping-stress (spec §2 shape 16: body designed, decision 0064). */
export const shippingStressEndpoint: SignalEndpoint<Record<string, never>, ShippingStress> = {
  id: 'shipping-stress',
  summary: 'Freight conditions across ocean, air, truck, rail and inland waterways, fuel costs, eight trade routes and their settlement relevance',
  response: shippingStressSchema,
  compute: ({ dataset, now }) => computeShippingStress(dataset.series, parameters, gauges, now.toISOString().slice(0, 10)),
  headers: (body) => ({ 'x-rail-shipping-stress': String(body.compositeIndex), 'x-rail-shipping-regime': body.regime }),
  graphql: { field: 'shippingStress', toGraphQL: shippingStressToGraphQL },
};

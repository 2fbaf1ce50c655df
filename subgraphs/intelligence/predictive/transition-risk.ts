import { z } from 'zod';
import parametersJson from '../data/parameters/transition-risk.json' with { type: 'json' };
import fuelsJson from '../data/predictive/reference/ipcc-2006-fuel-factors.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeTransitionRisk, type FuelTable, type SectorExposure, type TransitionRisk, type TransitionRiskParameters } from './domain/index.js';

const parameters = parametersJson as TransitionRiskParameters;

const sourceSchema = z.object({ title: z.string().min(1), publisher: z.string().min(1), url: z.url(), licence: z.string().min(1), asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });
const fuelSchema = z.object({ co2KgPerTj: z.number().positive(), ncvGjPerTonne: z.number().positive().nullable(), densityKgPerM3: z.number().positive().nullable(), ncvBasis: z.string() });

/** The IPCC fuel factors as a reference table with its source (data/predictive/reference/). */
export function fuelTable(): FuelTable {
  const table = z.object({ source: sourceSchema, fuels: z.record(z.string(), fuelSchema) }).parse(fuelsJson);
  const { title, publisher, url, licence, asOf } = table.source;
  return { fuels: table.fuels, source: { id: 'ipcc_2006_fuel_factors', title, units: 'kg CO2 per TJ; GJ per tonne; kg per m3', frequency: 'annual', publisher, url, licence, asOf, live: false } };
}

const fuels = fuelTable();

const statusSchema = z.enum(['SEVERE', 'HIGH', 'ELEVATED', 'MODERATE', 'LOW', 'UNSCORED']);

const sectorSchema = z.object({
  basis: z.string(),
  emissionFactorTco2PerTj: z.number().nullable(),
  carbonCostUsdPerGj: z.number().nullable(),
  carbonCost: z.object({ value: z.number(), unit: z.string() }).nullable(),
  carbonCostSharePct: z.number().nullable().describe("carbon cost as a percent of the fuel's own cost (Brent per barrel for oil products)"),
  exposureScore: z.number().nullable().describe('0-100: the share, capped at 100; null when the fuel cost is not openly published'),
  status: statusSchema,
  signal: z.string(),
});

export const transitionRiskParamsSchema = z.object({
  carbonPrice: z.coerce
    .number()
    .min(parameters.scenarioBounds.min)
    .max(parameters.scenarioBounds.max)
    .default(parameters.defaultScenarioEurPerTonne)
    .describe('carbon price scenario, EUR per tonne of CO2'),
});

export const transitionRiskSchema = z.object({
  carbonPrice: z.object({
    scenarioEurPerTonne: z.number(),
    scenarioUsdPerTonne: z.number().nullable(),
    eurPerUsd: z.number().nullable(),
    eurPerUsdAsOf: z.string().nullable(),
    marketEurPerTonne: z.number().nullable().describe('the EU ETS allowance price: null, no openly licensed series'),
    marketBasis: z.string(),
  }),
  transitionRiskScore: z.number().nullable().describe('0-100: mean exposure score of the sectors scored'),
  regime: statusSchema,
  sectors: z.object({ power: sectorSchema, steel: sectorSchema, cement: sectorSchema, aviation: sectorSchema, shipping: sectorSchema, autos: sectorSchema }),
  grid: z.array(z.object({ region: z.enum(['us', 'eu', 'world']), intensityGco2PerKwh: z.number(), year: z.string(), carbonCostEurPerMwh: z.number() })),
  brent: z.object({ usdPerBarrel: z.number(), asOf: z.string() }).nullable(),
  narrative: z.string(),
});

/** GraphQL cannot name an object keyed by sector: a list of named sectors. */
export function transitionRiskToGraphQL(body: TransitionRisk) {
  return { ...body, sectors: (Object.entries(body.sectors) as Array<[string, SectorExposure]>).map(([sector, exposure]) => ({ sector, ...exposure })) };
}

/** GET /v1/intelligence/transition-risk (decision 0076; method: docs/intelligence/transition-risk.md). */
export const transitionRiskEndpoint: SignalEndpoint<{ carbonPrice: number }, TransitionRisk> = {
  id: 'transition-risk',
  summary: 'Energy-transition risk: six sectors priced at a carbon price scenario on IPCC fuel factors, Ember grid intensity and Brent',
  params: transitionRiskParamsSchema,
  invalidParamsCode: 'INT_ERR_INVALID_PARAMETER',
  cacheKey: (params) => `transition-risk:${params.carbonPrice}`,
  response: transitionRiskSchema,
  // A caller without parameters (the bench, the determinism test) gets the default scenario.
  compute: ({ dataset, params }) => computeTransitionRisk(dataset.series, fuels, params.carbonPrice ?? parameters.defaultScenarioEurPerTonne, parameters),
  headers: (body) => ({ 'x-rail-transition-risk': body.transitionRiskScore === null ? 'none' : String(body.transitionRiskScore), 'x-rail-transition-regime': body.regime }),
  graphql: { field: 'transitionRisk', toGraphQL: transitionRiskToGraphQL },
};

import { z } from 'zod';
import parametersJson from '../data/parameters/water-risk.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeWaterRisk, type WaterRisk, type WaterRiskParameters } from './domain/index.js';

const parameters = parametersJson as WaterRiskParameters;

const regionSchema = z.object({
  droughtSeverity: z.string().describe('baseline drought risk (Aqueduct 4.0), not current drought conditions'),
  stressScore: z.number().describe('0-100'),
  sectors: z.object({ agriculture: z.string(), semiconductors: z.string(), beverages: z.string(), energy: z.string() }),
  hazards: z.object({ bws: z.number(), drr: z.number(), rfr: z.number() }).partial().describe('mean Aqueduct category 0-4 over the countries with a value'),
  countriesWithData: z.number().int(),
  basis: z.string(),
});

export const waterRiskSchema = z.object({
  globalStressIndex: z.number().describe('0-100, mean of the region stress scores'),
  regions: z.record(z.string(), regionSchema).describe('US Southwest, US Midwest, Western Europe, South Asia, East Asia, Sub-Saharan Africa'),
  tnfdAlignment: z.object({ physicalRiskRating: z.string(), disclosureRecommendation: z.string() }),
  narrative: z.string(),
});

/** Regions and their sectors as lists with the name as a field: GraphQL cannot name keys it does not know. */
export function waterRiskToGraphQL(body: WaterRisk) {
  return {
    ...body,
    regions: Object.entries(body.regions).map(([region, scored]) => ({
      region,
      ...scored,
      sectors: Object.entries(scored.sectors).map(([sector, rating]) => ({ sector, rating })),
    })),
  };
}

/** GET /v1/intelligence/water-risk (spec §2 shape 12; the method not shown is GET, decision 0062). */
export const waterRiskEndpoint: SignalEndpoint<Record<string, never>, WaterRisk> = {
  id: 'water-risk',
  summary: 'Water stress of six regions and four sectors (WRI Aqueduct 4.0 baseline) with a TNFD physical-risk rating',
  response: waterRiskSchema,
  compute: ({ dataset }) => computeWaterRisk(dataset.series, parameters),
  headers: (body) => ({ 'x-rail-water-stress': String(body.globalStressIndex), 'x-rail-tnfd-rating': body.tnfdAlignment.physicalRiskRating }),
  graphql: { field: 'waterRisk', toGraphQL: waterRiskToGraphQL },
};

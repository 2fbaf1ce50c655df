import { z } from 'zod';
import parametersJson from '../data/parameters/biodiversity.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { type Biodiversity, type BiodiversityParameters, computeBiodiversity, type SectorDependency } from './domain/index.js';
import { dependencyTable } from './reference.js';
import type { SameType } from './shape.js';

const parameters = parametersJson as BiodiversityParameters;
const table = dependencyTable();

const sectorDependencyShape = {
  dependencyScore: z.number().describe('0-100: mean ENCORE dependency rating over the services rated'),
  exposureLevel: z.string(),
  isicCode: z.string(),
  materialDependencies: z.array(z.string()).describe('ecosystem services rated high or very high'),
};

const bodyShape = {
  globalBiodiversityIndex: z.number().describe('Living Planet Index, world, 1970 = 100'),
  natureRiskScore: z.number().describe('0-100, higher is riskier'),
  tnfdRating: z.string(),
  iucnSignals: z.object({
    criticallyEndangered: z.number().int().nullable().describe('null: the IUCN Red List is not open for commercial use'),
    endangered: z.number().int().nullable().describe('null: the IUCN Red List is not open for commercial use'),
    trend: z.string(),
    hotspots: z.array(z.object({ region: z.string(), livingPlanetIndex: z.number(), changeSince1970Pct: z.number() })),
  }),
  pai7: z.object({ biodiversitySensitiveAreaExposure: z.string(), disclosureFlag: z.boolean(), affectedRegions: z.array(z.string()) }),
  narrative: z.string(),
};

export const biodiversitySchema = z.object({ ...bodyShape, sectorDependencyMatrix: z.record(z.string(), z.object(sectorDependencyShape)) });

/** GraphQL cannot key an object by sector: the matrix is a list with the sector as a field. */
export const biodiversityGraphQLSchema = z.object({ ...bodyShape, sectorDependencyMatrix: z.array(z.object({ sector: z.string(), ...sectorDependencyShape })) });

const agrees: SameType<z.infer<typeof biodiversitySchema>, Biodiversity> = true;
void agrees;

export function biodiversityToGraphQL(body: Biodiversity): z.infer<typeof biodiversityGraphQLSchema> {
  const matrix = Object.entries(body.sectorDependencyMatrix).map(([sector, dependency]: [string, SectorDependency]) => ({ sector, ...dependency }));
  return { ...body, sectorDependencyMatrix: matrix };
}

/** GET /v1/intelligence/biodiversity (spec §2 shape 15). */
export const biodiversityEndpoint: SignalEndpoint<Record<string, never>, Biodiversity> = {
  id: 'biodiversity',
  summary: 'Nature risk: Living Planet Index, ENCORE sector dependencies, TNFD-style rating and the SFDR PAI 7 screen',
  response: biodiversitySchema,
  compute: ({ dataset }) => computeBiodiversity(dataset.series, table, parameters),
  headers: (body) => ({ 'x-rail-biodiversity-risk': String(body.natureRiskScore), 'x-rail-tnfd-rating': body.tnfdRating }),
  graphql: { field: 'biodiversity', toGraphQL: biodiversityToGraphQL },
};

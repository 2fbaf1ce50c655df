import { z } from 'zod';
import parametersJson from '../data/parameters/climate.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { type Climate, type ClimateParameters, computeClimate } from './domain/index.js';
import type { SameType } from './shape.js';

const parameters = parametersJson as ClimateParameters;

export const climateSchema = z.object({
  climateScore: z.number().describe('0-100: weighted mean of the precipitation and food-price components present'),
  summary: z.object({
    globalFoodSystemRisk: z.string(),
    regionsAtRisk: z.number().int(),
    criticalCommodities: z.array(z.string()),
    cascadeSignals: z.array(z.string()),
  }),
  regions: z.array(
    z.object({
      name: z.string(),
      precipitationShiftPct: z.number().describe('mean annual precipitation 2021-2023 against 1972-1974, percent'),
      classification: z.string(),
      commodities: z.array(z.string()),
    }),
  ),
  transmission: z.object({ foodInflationPressure: z.string(), migrationPressure: z.string() }),
  coverage: z.object({
    regionsAssessed: z.number().int(),
    regionsRequired: z.number().int(),
    missingRegions: z.array(z.string()).describe('zones without an open precipitation series: not in regions'),
  }),
});

const agrees: SameType<z.infer<typeof climateSchema>, Climate> = true;
void agrees;

/** GET /v1/intelligence/climate (spec §2 shape 1; the method is not shown: GET, as it takes no body). */
export const climateEndpoint: SignalEndpoint<Record<string, never>, Climate> = {
  id: 'climate',
  summary: 'Fifty-year structural precipitation shift across ten agricultural zones and its transmission to food prices and migration',
  response: climateSchema,
  compute: ({ dataset }) => computeClimate(dataset.series, parameters),
  headers: (body) => ({ 'x-rail-climate-score': String(body.climateScore) }),
  graphql: { field: 'climate' },
};

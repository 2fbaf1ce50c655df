import { z } from 'zod';
import parametersJson from '../data/parameters/climate-pulse.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { type ClimatePulse, type ClimatePulseParameters, computeClimatePulse } from './domain/index.js';
import type { SameType } from './shape.js';

const parameters = parametersJson as ClimatePulseParameters;

export const climatePulseSchema = z.object({
  summary: z.object({
    overallSignal: z.string(),
    regionsWithHeatAnomaly: z.number().int(),
    regionsWithDrought: z.number().int(),
    commoditySignal: z.string(),
    laborProductivityImpact: z.string(),
  }),
  regions: z.array(
    z.object({
      name: z.string(),
      tempAnomaly: z.number().nullable().describe('30-day mean, degrees C against 1991-2020; null when the region has no temperature series'),
      droughtSeverity: z.string(),
      commodityImpact: z.array(z.string()),
      signal: z.enum(['HEAT_AND_DROUGHT', 'HEAT', 'DROUGHT', 'COLD', 'NORMAL', 'NO_DATA']),
    }),
  ),
});

const agrees: SameType<z.infer<typeof climatePulseSchema>, ClimatePulse> = true;
void agrees;

/** GET /v1/intelligence/climate-pulse (spec §2 shape 9). */
export const climatePulseEndpoint: SignalEndpoint<Record<string, never>, ClimatePulse> = {
  id: 'climate-pulse',
  summary: 'Temperature anomaly and drought in eight US economic regions',
  response: climatePulseSchema,
  compute: ({ dataset }) => computeClimatePulse(dataset.series, parameters),
  headers: (body) => ({
    'x-rail-climate-signal': body.summary.overallSignal,
    'x-rail-heat-regions': String(body.summary.regionsWithHeatAnomaly),
    'x-rail-drought-regions': String(body.summary.regionsWithDrought),
  }),
  graphql: { field: 'climatePulse' },
};

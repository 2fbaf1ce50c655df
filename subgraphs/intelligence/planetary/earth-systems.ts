import { z } from 'zod';
import parametersJson from '../data/parameters/earth-systems.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeEarthSystems, type EarthSystems, type EarthSystemsParameters } from './domain/index.js';
import { tippingPointTable } from './reference.js';
import type { SameType } from './shape.js';

const parameters = parametersJson as EarthSystemsParameters;
const tipping = tippingPointTable();

export const earthSystemsSchema = z.object({
  sustainability: z.object({
    earthHealthIndex: z.number().describe('0-100, higher is healthier'),
    planetaryStatus: z.string(),
    tippingPointAlert: z.string(),
  }),
  atmosphere: z.object({
    co2: z.object({ currentPpm: z.number(), signal: z.string() }),
    temperature: z.object({
      currentAnomalyC: z.number().describe('trailing 12-month mean warming above 1850-1900, degrees C'),
      distanceToParisC: z.number().describe('1.5 C minus currentAnomalyC; negative when the 12-month mean is above 1.5 C'),
    }),
  }),
  tippingPoints: z.array(z.object({ name: z.string(), proximityRisk: z.string(), threshold: z.string() })),
});

const agrees: SameType<z.infer<typeof earthSystemsSchema>, EarthSystems> = true;
void agrees;

/** GET /v1/intelligence/earth-systems (spec §2 shape 2). */
export const earthSystemsEndpoint: SignalEndpoint<Record<string, never>, EarthSystems> = {
  id: 'earth-systems',
  summary: 'Earth Health Index, CO2 and warming against the Paris limit, proximity of the nine core climate tipping points',
  response: earthSystemsSchema,
  compute: ({ dataset }) => computeEarthSystems(dataset.series, tipping, parameters),
  headers: (body) => ({ 'x-rail-earth-health-index': String(body.sustainability.earthHealthIndex) }),
  graphql: { field: 'earthSystems' },
};

import { z } from 'zod';
import parametersJson from '../data/parameters/energy-transition.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeEnergyTransition, type EnergyTransition, type EnergyTransitionParameters } from './domain/index.js';

const parameters = parametersJson as EnergyTransitionParameters;

export const energyTransitionSchema = z.object({
  renewableSharePct: z.number().describe('US renewables share of electricity generation, percent'),
  renewableShareYear: z.number().int(),
  renewableTrend: z.enum(['ACCELERATING', 'RISING', 'FLAT', 'FALLING']),
  renewableTrendPpPerYear: z.number(),
  fossilDemandCurve: z.enum(['DECLINING', 'PLATEAU', 'RISING']),
  fossilDemand: z.object({
    latestTwh: z.number(),
    latestYear: z.number().int(),
    peakTwh: z.number(),
    peakYear: z.number().int(),
    changeFromPeakPct: z.number(),
    changePct: z.number(),
    windowYears: z.number().int(),
  }),
  signal: z.string(),
  signalText: z.string(),
  gridCarbonIntensity: z.object({ us: z.number().nullable(), eu: z.number().nullable(), global: z.number().nullable(), unit: z.string(), year: z.number().int().nullable(), basis: z.string() }),
  dataVintage: z.string(),
});

/** GET /v1/intelligence/energy-transition (spec §2 shape 5): no X-Rail header of its own. */
export const energyTransitionEndpoint: SignalEndpoint<Record<string, never>, EnergyTransition> = {
  id: 'energy-transition',
  summary: 'US renewable share and trend, US fossil demand curve, grid carbon intensity (US, EU, world)',
  response: energyTransitionSchema,
  compute: ({ dataset }) => computeEnergyTransition(dataset.series, parameters),
  headers: () => ({}),
  graphql: { field: 'energyTransition' },
};

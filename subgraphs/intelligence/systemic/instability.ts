import { z } from 'zod';
import cascadeJson from '../data/parameters/cascade.json' with { type: 'json' };
import parametersJson from '../data/parameters/instability.json' with { type: 'json' };
import { seriesAsOfDay } from '../market/domain/index.js';
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { propagationStepSchema } from './cascade.js';
import { type CascadeParameters, computeInstability, type Instability, type InstabilityParameters, measureReadings, readLayers } from './domain/index.js';
import { mergeInputs, readPartOne } from './part-one.js';

const parameters = parametersJson as InstabilityParameters;
const cascadeParameters = cascadeJson as CascadeParameters;

const intensities = ['ACUTE', 'ELEVATED', 'MODERATE', 'LOW'] as const;

export const instabilitySchema = z.object({
  usInstabilityScore: z.number().describe('0-100: policy uncertainty 40% + trade policy volatility 20% + dollar weaponization 20% + uncertainty trend 20%'),
  fiscalDominanceScore: z.number().describe('0-100: debt to GDP 40% + deficit trend 30% + inflation expectations 30%'),
  overallIntensity: z.enum([...intensities, 'NONE']),
  components: z.object({
    usInstability: z.object({
      policyUncertainty: z.number().nullable(),
      tradePolicyVolatility: z.number().nullable(),
      dollarWeaponization: z.number().nullable(),
      uncertaintyTrend: z.number().nullable(),
      uncertaintyLevel: z.string().nullable(),
    }),
    fiscalDominance: z.object({
      debtToGdpPct: z.number().nullable(),
      debtToGdpScore: z.number().nullable(),
      deficitTrend: z.enum(['DETERIORATING', 'STABLE', 'IMPROVING']).nullable(),
      deficitTrendScore: z.number().nullable(),
      inflationExpectationsPct: z.number().nullable(),
      inflationExpectationsScore: z.number().nullable(),
      cpiInflationPct: z.number().nullable(),
    }),
  }),
  origins: z.array(
    z.object({
      actor: z.string(),
      mode: z.string(),
      intensity: z.enum(intensities),
      ongoingSince: z.string().describe('date'),
      keySignals: z.array(z.string()),
      absorptionOutlook: z.string(),
      historicalComparisons: z.array(z.string()),
    }),
  ),
  scenarios: z.array(
    z.object({
      type: z.string(),
      label: z.string(),
      confidence: z.number(),
      entryLayer: z.number().int(),
      propagation: z.array(propagationStepSchema),
      unpricedEffects: z.array(z.string()),
      historicalAnalog: z.string(),
      timelineNarrative: z.string(),
    }),
  ),
  dataAsOf: z.object({ epuDate: z.string().nullable(), tradeDate: z.string().nullable(), deficitDate: z.string().nullable() }),
  systemicNarrative: z.string(),
  watchList: z.array(z.string()),
});

/** GET /v1/intelligence/instability (spec §2 shape 8, §4 "Instability model"; docs/intelligence/instability.md). */
export const instabilityEndpoint: SignalEndpoint<Record<string, never>, Instability> = {
  id: 'instability',
  summary: 'Structural instability of the United States, China, Russia and the European Union; US instability and fiscal dominance scores',
  response: instabilitySchema,
  compute: async (context) => {
    const partOne = await readPartOne(context, ['macroStress', 'commodity', 'currencyStress', 'shippingStress']);
    const series = seriesAsOfDay(context.dataset.series, context.now.toISOString().slice(0, 10));
    const { readings, used: readingSeries } = measureReadings(series, partOne.bodies, cascadeParameters.readings);
    const layers = readLayers(readings, cascadeParameters);
    const answer = computeInstability(series, { currencyStress: partOne.bodies.currencyStress, layers, propagation: cascadeParameters }, parameters);
    return { body: answer.body, inputs: mergeInputs(partOne.inputs, readingSeries, answer.used), missing: [...new Set([...answer.missing, ...partOne.missing])] };
  },
  headers: (body) => ({
    'x-rail-us-instability': String(body.usInstabilityScore),
    'x-rail-fiscal-dominance': String(body.fiscalDominanceScore),
    'x-rail-instability-intensity': body.overallIntensity,
  }),
  graphql: { field: 'instability' },
};

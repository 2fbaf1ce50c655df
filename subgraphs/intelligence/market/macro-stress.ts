import { z } from 'zod';
import parametersJson from '../data/parameters/macro-stress.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeMacroStress, type MacroStress, type MacroStressParameters, seriesAsOfDay } from './domain/index.js';

const parameters = parametersJson as MacroStressParameters;

const componentSchema = z.object({
  value: z.number(),
  signal: z.string(),
  score: z.number().describe('percentile rank 0-100 over the lookback window'),
  units: z.string(),
  asOf: z.string(),
});

export const macroStressSchema = z.object({
  stressIndex: z.number().describe('0-100'),
  regime: z.enum(['EXPANSION', 'LATE_CYCLE', 'STRESS', 'CRISIS']),
  components: z.object({ igSpread: componentSchema, hySpread: componentSchema, tedSpread: componentSchema, vix: componentSchema, lendingStandards: componentSchema }).partial(),
  leadSignals: z.object({ fxImplication: z.string(), lookAheadWeeks: z.number() }),
});

/** GET /v1/intelligence/macro-stress (spec §2 shape 3). */
export const macroStressEndpoint: SignalEndpoint<Record<string, never>, MacroStress> = {
  id: 'macro-stress',
  summary: 'Credit regime from five credit and volatility series',
  response: macroStressSchema,
  compute: ({ dataset, now }) => computeMacroStress(seriesAsOfDay(dataset.series, now.toISOString().slice(0, 10)), parameters),
  headers: (body) => ({ 'x-rail-stress-index': String(body.stressIndex), 'x-rail-regime': body.regime }),
  graphql: { field: 'macroStress' },
};

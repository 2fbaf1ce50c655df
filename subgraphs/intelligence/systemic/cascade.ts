import { z } from 'zod';
import parametersJson from '../data/parameters/cascade.json' with { type: 'json' };
import { seriesAsOfDay } from '../market/domain/index.js';
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { type Cascade, cascadeMissing, type CascadeParameters, computeCascade, measureReadings } from './domain/index.js';
import { mergeInputs, readPartOne } from './part-one.js';

const parameters = parametersJson as CascadeParameters;

const layerSchema = z.object({
  layer: z.number().int(),
  name: z.string(),
  status: z.enum(['CRITICAL', 'STRESSED', 'ELEVATED', 'NORMAL', 'NO_DATA']),
  score: z.number().nullable().describe('0-100; null when the layer has no data'),
  basis: z.string(),
});

const triggerSchema = z.object({
  id: z.string(),
  label: z.string(),
  value: z.number().nullable(),
  threshold: z.string(),
  met: z.boolean().nullable().describe('null: the reading is unknown (no open input)'),
  meaning: z.string(),
});

export const propagationStepSchema = z.object({
  layer: z.number().int(),
  status: z.enum(['ACTIVE', 'FORMING', 'EXPECTED']),
  pricedIn: z.boolean(),
  typicalLag: z.string(),
  leadSignal: z.string().optional(),
  layerScore: z.number().nullable(),
});

export const cascadeSchema = z.object({
  nervousSystem: z.object({
    systemicRiskScore: z.number().describe('0-100'),
    overallStatus: z.enum(['CRITICAL', 'HIGH', 'ELEVATED', 'STABLE', 'NO_DATA']),
    activeCascadeCount: z.number().int().describe('cascades ACTIVE (FORMING ones are listed but not counted)'),
    layers: z.array(layerSchema),
  }),
  activeCascades: z
    .array(
      z.object({
        type: z.string(),
        label: z.string(),
        status: z.enum(['ACTIVE', 'FORMING']),
        confidence: z.number().describe('0-1'),
        entryLayer: z.number().int(),
        triggers: z.array(triggerSchema),
        propagation: z.array(propagationStepSchema),
        unpricedEffects: z.array(z.string()),
        historicalAnalog: z.string(),
        timelineNarrative: z.string(),
      }),
    )
    .describe('ACTIVE cascades first, then FORMING ones (decision 0069)'),
  evaluated: z.array(
    z.object({ type: z.string(), status: z.enum(['ACTIVE', 'FORMING', 'DORMANT']), conditionsMet: z.number().int(), conditionsKnown: z.number().int(), conditionsTotal: z.number().int() }),
  ),
  unpricedRisks: z.array(z.string()),
  systemicNarrative: z.string(),
  earlyWarningSignals: z.array(z.string()),
});

/** GET /v1/intelligence/cascade (spec §2 shape 7, §4 "Cascade model"; docs/intelligence/cascade.md). */
export const cascadeEndpoint: SignalEndpoint<Record<string, never>, Cascade> = {
  id: 'cascade',
  summary: 'Seven-layer shock propagation: eight cascade types, their triggers, propagation and the systemic risk score',
  response: cascadeSchema,
  compute: async (context) => {
    const partOne = await readPartOne(context, ['macroStress', 'commodity', 'currencyStress', 'sovereignDebt', 'supplyChain', 'shippingStress', 'energyTransition', 'climate']);
    const series = seriesAsOfDay(context.dataset.series, context.now.toISOString().slice(0, 10));
    const { readings, used } = measureReadings(series, partOne.bodies, parameters.readings);
    return { body: computeCascade(readings, parameters), inputs: mergeInputs(partOne.inputs, used), missing: [...new Set([...cascadeMissing(parameters, readings), ...partOne.missing])] };
  },
  headers: (body) => ({
    'x-rail-systemic-risk': String(body.nervousSystem.systemicRiskScore),
    'x-rail-cascade-status': body.nervousSystem.overallStatus,
    'x-rail-active-cascades': String(body.nervousSystem.activeCascadeCount),
  }),
  graphql: { field: 'cascade' },
};

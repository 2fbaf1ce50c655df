import { z } from 'zod';
import parametersJson from '../data/parameters/aftershock.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { butterflyCatalogue } from './butterfly.js';
import { loadButterflyNetwork } from './catalogue.js';
import { type Aftershock, type AftershockParameters, type AftershockRequest, computeAftershock, RESPONSE_CLASSES } from './domain/index.js';
import { eventTypeSchema, knownOrigin, LIMITS, magnitudeSchema, originSchema } from './params.js';

const parameters = parametersJson as AftershockParameters;

const elapsed = LIMITS.aftershockElapsedHours;
const horizon = LIMITS.aftershockHorizonHours;
export const aftershockParamsSchema = z
  .strictObject({
    origin: originSchema.describe('a node id of the butterfly catalogue (GET /v1/intelligence/butterfly)'),
    eventType: eventTypeSchema,
    magnitude: magnitudeSchema,
    elapsedHours: z
      .number()
      .min(elapsed.min)
      .max(elapsed.max)
      .default(elapsed.default)
      .describe(`hours since the event, ${elapsed.min}-${elapsed.max}, default ${elapsed.default}, below horizonHours`),
    horizonHours: z.number().min(horizon.min).max(horizon.max).default(horizon.default).describe(`${horizon.min}-${horizon.max} hours (the end of wave3), default ${horizon.default}`),
  })
  .superRefine((params, context) => {
    if (params.elapsedHours >= params.horizonHours) context.addIssue({ code: 'custom', path: ['elapsedHours'], message: `must be below horizonHours (${params.horizonHours})` });
  })
  .transform(knownOrigin<AftershockRequest>(butterflyCatalogue));

const waveSchema = z.object({
  label: z.string(),
  count: z.number().int(),
  events: z.array(
    z.object({
      node: z.object({ id: z.string(), label: z.string() }),
      magnitude: z.number(),
      offsetHours: z.number().describe('hours after the primary event'),
      type: z.enum(RESPONSE_CLASSES),
      mechanism: z.string(),
    }),
  ),
});

export const aftershockSchema = z.object({
  primaryEvent: z.object({ origin: z.string().describe('the node id of the event'), eventType: z.string(), inputMagnitude: z.number(), elapsedHours: z.number() }),
  summary: z.object({ totalAftershocks: z.number().int(), amplified: z.number().int(), rebounds: z.number().int(), structural: z.number().int() }),
  waves: z.object({ wave1: waveSchema, wave2: waveSchema, wave3: waveSchema }),
  synthesis: z.string(),
  computedAt: z.string().describe('ISO 8601'),
});

/** POST /v1/intelligence/aftershock (Document 3 §4): the secondary events still ahead, in three waves. */
export const aftershockEndpoint: SignalEndpoint<AftershockRequest, Aftershock> = {
  id: 'aftershock',
  summary: 'Aftershock: the amplified, rebound and structural events still ahead of a primary event, in three waves',
  params: aftershockParamsSchema,
  example: { origin: 'commodity.oil', eventType: 'Oil supply shock of 30 percent', magnitude: 50 },
  invalidParamsCode: 'INT_ERR_INVALID_PARAMETER',
  response: aftershockSchema,
  compute: ({ params, now }) => ({ body: computeAftershock(loadButterflyNetwork(), params, parameters, now), inputs: [], missing: [] }),
  headers: () => ({}),
  graphql: { field: 'aftershock' },
};

import { z } from 'zod';
import parametersJson from '../data/parameters/butterfly.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { loadButterflyNetwork } from './catalogue.js';
import { nodeListing, nodeListingSchema } from './discovery.js';
import { type Butterfly, type ButterflyParameters, type ButterflyRequest, computeButterfly } from './domain/index.js';
import { eventTypeSchema, knownOrigin, LIMITS, magnitudeSchema, type NodeCatalogue, originSchema } from './params.js';

const parameters = parametersJson as ButterflyParameters;

export const BUTTERFLY_PATH = '/v1/intelligence/butterfly';
/** The 25 nodes of the butterfly, which the aftershock shares. */
export const butterflyCatalogue: NodeCatalogue = { model: 'butterfly', discoveryPath: BUTTERFLY_PATH, network: loadButterflyNetwork };

const { min, max, default: horizonDefault } = LIMITS.butterflyHorizonHours;
export const butterflyParamsSchema = z
  .strictObject({
    origin: originSchema,
    eventType: eventTypeSchema,
    magnitude: magnitudeSchema,
    horizonHours: z.number().min(min).max(max).default(horizonDefault).describe(`${min}-${max} hours, default ${horizonDefault}`),
  })
  .transform(knownOrigin<ButterflyRequest>(butterflyCatalogue));

const nodeRefSchema = z.object({ id: z.string(), label: z.string(), domain: z.string() });

export const butterflySchema = z.object({
  origin: z.object({ id: z.string(), label: z.string(), domain: z.string(), description: z.string() }),
  eventType: z.string(),
  inputMagnitude: z.number(),
  horizonHours: z.number(),
  cascade: z
    .array(
      z.object({
        node: nodeRefSchema,
        magnitude: z.number().describe('the attenuated magnitude, on the input scale and never above it'),
        arrivalHours: z.number().describe('hours after the event'),
        via: z.array(z.string()).describe('node ids from the origin to the node that passed the shock on, origin first'),
        mechanism: z.string(),
      }),
    )
    .describe('time-ordered'),
  synthesis: z.string(),
  computedAt: z.string().describe('ISO 8601'),
});

/** POST /v1/intelligence/butterfly (Document 3 §4), with its free GET node listing. */
export const butterflyEndpoint: SignalEndpoint<ButterflyRequest, Butterfly> = {
  id: 'butterfly',
  summary: 'Butterfly: where a shock at one node travels through the 25-node network, how strong and how soon',
  params: butterflyParamsSchema,
  example: { origin: 'geo.conflict', eventType: 'Armed conflict closes a Gulf shipping lane', magnitude: 50 },
  invalidParamsCode: 'INT_ERR_INVALID_PARAMETER',
  response: butterflySchema,
  compute: ({ params, now }) => ({ body: computeButterfly(loadButterflyNetwork(), params, parameters, now), inputs: [], missing: [] }),
  headers: () => ({}),
  discovery: {
    summary: 'Butterfly node catalogue: the node ids and descriptions a request may name (also valid for the aftershock)',
    response: nodeListingSchema,
    list: () => nodeListing('butterfly', loadButterflyNetwork()),
    graphqlField: 'butterflyNodes',
  },
  graphql: { field: 'butterfly' },
};

import { z } from 'zod';
import parametersJson from '../data/parameters/contagion.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { loadContagionNetwork } from './catalogue.js';
import { nodeListing, nodeListingSchema } from './discovery.js';
import { computeContagion, type Contagion, CONTAGION_REGIMES, type ContagionParameters, type ContagionRequest } from './domain/index.js';
import { knownOrigin, LIMITS, magnitudeSchema, type NodeCatalogue, originSchema } from './params.js';

const parameters = parametersJson as ContagionParameters;

export const CONTAGION_PATH = '/v1/intelligence/contagion';
export const contagionCatalogue: NodeCatalogue = { model: 'contagion', discoveryPath: CONTAGION_PATH, network: loadContagionNetwork };

const epochs = LIMITS.contagionEpochs;
const intervention = LIMITS.interventionStrength;
export const contagionParamsSchema = z
  .strictObject({
    origin: originSchema,
    magnitude: magnitudeSchema,
    epochs: z.number().int().min(epochs.min).max(epochs.max).default(epochs.default).describe(`weeks to simulate, a whole number ${epochs.min}-${epochs.max}, default ${epochs.default}`),
    interventionStrength: z.number().min(intervention.min).max(intervention.max).default(intervention.default).describe('0 none, 0.5 moderate, 1 maximum; default 0'),
  })
  .transform(knownOrigin<ContagionRequest>(contagionCatalogue));

export const contagionSchema = z.object({
  origin: z.object({ id: z.string(), label: z.string(), domain: z.string() }),
  regime: z.enum(CONTAGION_REGIMES).describe('from the peak systemR (Document 3 §3)'),
  summary: z.object({
    peakSystemR: z.number(),
    peakAtWeek: z.number().int(),
    finalSystemR: z.number(),
    finalActive: z.number().describe('expected number of nodes infected at the end'),
    finalRecovered: z.number().describe('expected number of nodes recovered at the end'),
    contained: z.boolean().describe('the final systemR is below 1'),
  }),
  superspreaders: z.array(z.object({ id: z.string(), label: z.string(), outboundPotential: z.number() })),
  epochs: z.array(
    z.object({
      epoch: z.number().int(),
      systemR: z.number().describe('new infections over recoveries of the week'),
      activeInfections: z.number(),
      newInfections: z.number(),
      recovered: z.number().describe('cumulative'),
    }),
  ),
  synthesis: z.string(),
  computedAt: z.string().describe('ISO 8601'),
});

/** POST /v1/intelligence/contagion (Document 3 §4), with its free GET node listing. */
export const contagionEndpoint: SignalEndpoint<ContagionRequest, Contagion> = {
  id: 'contagion',
  summary: 'Contagion: a week-by-week SIR epidemic of a shock over the 30-node network, with its reproduction number',
  params: contagionParamsSchema,
  example: { origin: 'fin.us_banking', magnitude: 50, epochs: 12 },
  invalidParamsCode: 'INT_ERR_INVALID_PARAMETER',
  response: contagionSchema,
  compute: ({ params, now }) => ({ body: computeContagion(loadContagionNetwork(), params, parameters, now), inputs: [], missing: [] }),
  headers: () => ({}),
  discovery: {
    summary: 'Contagion node catalogue: the node ids and descriptions a request may name',
    response: nodeListingSchema,
    list: () => nodeListing('contagion', loadContagionNetwork()),
    graphqlField: 'contagionNodes',
  },
  graphql: { field: 'contagion' },
};

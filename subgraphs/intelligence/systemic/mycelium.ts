import { z } from 'zod';
import cascadeJson from '../data/parameters/cascade.json' with { type: 'json' };
import parametersJson from '../data/parameters/mycelium.json' with { type: 'json' };
import { shiftDate } from '../domain/index.js';
import { seriesAsOfDay } from '../market/domain/index.js';
import type { ComputeContext, SignalEndpoint } from '../shared/signal-endpoint.js';
import { type CascadeParameters, computeMycelium, type Mycelium, type MyceliumParameters, type NetworkInputs } from './domain/index.js';
import { mergeInputs, readPartOne } from './part-one.js';

const parameters = parametersJson as unknown as MyceliumParameters;
const analogs = Object.fromEntries((cascadeJson as CascadeParameters).cascades.map((cascade) => [cascade.type, cascade.analogs]));

const nodeSchema = z.object({
  name: z.string(),
  connectivity: z.number().nullable().describe('0-100: 100 minus the mean stress of the node components; null when none is measured'),
  nutrientFlow: z.string(),
  stressSignal: z.string(),
  status: z.enum(['DEAD_ZONE', 'STRESSED', 'THINNING', 'HEALTHY', 'NO_DATA']),
  deadZones: z.array(z.string()).optional(),
  context: z.string(),
});

export const myceliumSchema = z.object({
  networkHealth: z.number().describe('0-100: mean connectivity of the nodes measured'),
  regime: z.enum(['FRUITING_BODY_IMMINENT', 'DEAD_ZONE_FORMING', 'STRESSED_CONNECTIVITY', 'THINNING', 'HEALTHY']),
  nodes: z.record(z.string(), nodeSchema).describe('six nodes keyed by id'),
  threadHealth: z.object({ thinningThreads: z.array(z.string()), deadZones: z.array(z.string()), newConnections: z.array(z.string()) }),
  fruitingBodyRisk: z.object({
    probability: z.number().describe('0-1'),
    leadTimeWeeks: z.number().describe('6-14'),
    mostLikelyType: z.string(),
    underground: z.string(),
    historicalAnalog: z.string(),
  }),
  creditGaps: z.array(z.object({ region: z.string(), gapPp: z.number(), asOf: z.string() })),
  comparedWith: z.string().nullable().describe('date of the network the threads are compared with'),
  networkNarrative: z.string(),
});

/** GraphQL cannot key an object by node id: the nodes become a list, each naming itself. */
export function myceliumToGraphQL(body: Mycelium) {
  return { ...body, nodes: Object.entries(body.nodes).map(([id, node]) => ({ id, ...node })) };
}

async function networkAt(context: ComputeContext<unknown>, date: string): Promise<{ inputs: NetworkInputs; answers: Awaited<ReturnType<typeof readPartOne>> }> {
  const now = new Date(`${date}T00:00:00Z`);
  const answers = await readPartOne({ ...context, now }, ['currencyStress', 'sovereignDebt']);
  return { inputs: { date, series: seriesAsOfDay(context.dataset.series, date), ...answers.bodies }, answers };
}

/** The newest observation among the network's series: the threads compare the network with itself `comparisonDays` before it (not before the clock, which may run past the data). */
function newestObservation(inputs: NetworkInputs): string {
  const dates = Object.values(parameters.series).flatMap((id) => inputs.series.get(id)?.asOf ?? []);
  return dates.reduce((newest, date) => (date > newest ? date : newest), '0000-01-01');
}

/** GET /v1/intelligence/mycelium (spec §2 shape 13, §4 "Mycelium"; method GET: decision 0070). */
export const myceliumEndpoint: SignalEndpoint<Record<string, never>, Mycelium> = {
  id: 'mycelium',
  summary: 'Financial network topology: six funding nodes, their threads, the network regime and the fruiting-body (crisis) risk 6-14 weeks ahead',
  response: myceliumSchema,
  compute: async (context) => {
    const today = context.now.toISOString().slice(0, 10);
    const now = await networkAt(context, today);
    const before = await networkAt(context, shiftDate(newestObservation(now.inputs), -parameters.comparisonDays));
    const answer = computeMycelium(now.inputs, before.inputs, parameters, analogs);
    return { body: answer.body, inputs: mergeInputs(now.answers.inputs, answer.used), missing: [...new Set([...answer.missing, ...now.answers.missing])] };
  },
  headers: (body) => ({
    'x-rail-network-health': String(body.networkHealth),
    'x-rail-network-regime': body.regime,
    'x-rail-fruiting-body-risk': String(body.fruitingBodyRisk.probability),
    'x-rail-lead-time-weeks': String(body.fruitingBodyRisk.leadTimeWeeks),
  }),
  graphql: { field: 'mycelium', toGraphQL: myceliumToGraphQL },
};

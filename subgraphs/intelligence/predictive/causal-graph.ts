import { z } from 'zod';
import parametersJson from '../data/parameters/causal-graph.json' with { type: 'json' };
import type { ComputeContext, SignalEndpoint } from '../shared/signal-endpoint.js';
import { loadButterflyNetwork, loadContagionNetwork } from '../simulation/catalogue.js';
import { faultLineCatalogue } from '../structural/catalogues.js';
import { tectonicEndpoint } from '../structural/tectonic.js';
import { type CatalogueNetwork, type CausalGraph, type CausalGraphParameters, computeCausalGraph, indicatorStress, type MeasuredStress } from './domain/index.js';

const parameters = parametersJson as CausalGraphParameters;

const evidenceSchema = z.object({
  source: z.string().describe('series id of the dataset, or the model whose answer carries the stress'),
  title: z.string(),
  measure: z.string(),
  value: z.number(),
  asOf: z.string(),
});

const nodeSchema = z.object({
  id: z.string(),
  label: z.string(),
  domain: z.string(),
  stress: z.number().nullable().describe('0-100; null: no open series measures the node'),
  evidence: evidenceSchema.nullable(),
});

const edgeSchema = z.object({
  from: z.string(),
  to: z.string(),
  weight: z.number(),
  class: z.string().describe('evidence class, cited in docs/intelligence/network-catalogue.md or tectonic.md'),
  mechanism: z.string(),
  lagHours: z.number().optional(),
  stress: z.number().nullable().describe("source node's stress x weight"),
  evidence: evidenceSchema.nullable(),
});

export const causalGraphSchema = z.object({
  summary: z.object({
    nodes: z.number().int(),
    edges: z.number().int(),
    measuredNodes: z.number().int(),
    measuredEdges: z.number().int(),
    systemStress: z.number().nullable(),
    hotNodes: z.array(z.string()),
    hottestEdges: z.array(z.object({ network: z.string(), from: z.string(), to: z.string(), stress: z.number(), mechanism: z.string() })),
  }),
  networks: z.array(z.object({ model: z.string(), usedBy: z.array(z.string()), stressMethod: z.string(), nodes: z.array(nodeSchema), edges: z.array(edgeSchema) })),
  synthesis: z.string(),
});

const INDICATOR_METHOD = `percentile of the node's indicator series against ${parameters.lookbackYears} years of monthly readings (data/parameters/causal-graph.json)`;

function indicatorNetworks(context: ComputeContext<unknown>): CatalogueNetwork[] {
  const stressOf = (id: string) => indicatorStress(context.dataset.series, parameters.indicators[id], parameters);
  const butterfly = loadButterflyNetwork();
  const contagion = loadContagionNetwork();
  return [
    { model: 'butterfly', usedBy: ['butterfly', 'aftershock'], stressMethod: INDICATOR_METHOD, nodes: butterfly.nodes, edges: butterfly.edges, stressOf },
    { model: 'contagion', usedBy: ['contagion'], stressMethod: INDICATOR_METHOD, nodes: contagion.nodes, edges: contagion.edges, stressOf },
  ];
}

/** The fault lines, measured by the tectonic model's own current stress, coupled as its stress transfer is. */
async function faultLineNetwork(context: ComputeContext<unknown>) {
  const tectonic = await tectonicEndpoint.compute({ ...context, params: {} });
  const today = context.now.toISOString().slice(0, 10);
  const stresses = new Map(
    tectonic.body.faultLines.map((line): [string, MeasuredStress] => [
      line.node.id,
      {
        stress: line.currentStress,
        evidence: { source: 'tectonic', title: line.node.label, measure: `currentStress of GET /v1/intelligence/tectonic (threshold ${line.node.threshold})`, value: line.currentStress, asOf: today },
      },
    ]),
  );
  const catalogue = faultLineCatalogue();
  const network: CatalogueNetwork = {
    model: 'tectonic',
    usedBy: ['tectonic'],
    stressMethod: 'currentStress of each fault line in the tectonic model (docs/intelligence/tectonic.md)',
    nodes: catalogue.faultLines.map(({ id, label, domain }) => ({ id, label, domain })),
    edges: catalogue.couplings.map((coupling) => ({ from: coupling.source, to: coupling.target, weight: coupling.weight, class: 'stress transfer', mechanism: coupling.channel })),
    stressOf: (id) => stresses.get(id) ?? null,
  };
  return { network, answer: tectonic };
}

/** GET /v1/intelligence/causal-graph (0.50 USDC, 5 minutes; decision 0077): the models' networks with the stress on each edge now. */
export const causalGraphEndpoint: SignalEndpoint<Record<string, never>, CausalGraph> = {
  id: 'causal-graph',
  summary: 'Causal graph: the node and edge catalogues of the models with the current stress on each edge and the evidence behind it',
  response: causalGraphSchema,
  compute: async (context) => {
    const faultLines = await faultLineNetwork(context);
    const { graph, read } = computeCausalGraph([...indicatorNetworks(context), faultLines.network], parameters);
    const indicatorSeries = [...new Set(Object.values(parameters.indicators).map((indicator) => indicator.series))];
    const missing = indicatorSeries.filter((id) => !context.dataset.series.get(id)?.observations.length).sort();
    const inputs = [...new Map([...read, ...faultLines.answer.inputs].map((input) => [input.id, input])).values()];
    return { body: graph, inputs, missing: [...missing, ...faultLines.answer.missing] };
  },
  headers: (body) => ({ 'x-rail-system-stress': body.summary.systemStress === null ? 'none' : String(body.summary.systemStress) }),
  graphql: { field: 'causalGraph' },
};

import { latest, onOrBefore, percentileRank, round, type Series, type SeriesSet, shiftDate } from '../../domain/index.js';

/** How a node's stress is read from one published series (data/parameters/causal-graph.json). */
export interface NodeIndicator {
  series: string;
  /** `level`: the value itself; `changePct` / `changeBy`: its move over `days` calendar days. */
  measure: 'level' | 'changePct' | 'changeBy';
  days?: number;
  /** Which way is stress: up (higher is worse), down (lower is worse) or either way (the size of the move). */
  direction: 'up' | 'down' | 'either';
  why: string;
}

export interface CausalGraphParameters {
  /** Years of history the current reading is ranked against. */
  lookbackYears: number;
  /** Days between the history's sample points (a month: comparable across daily and monthly series). */
  sampleEveryDays: number;
  /** Stress (0-100) from which a node or an edge is called hot. */
  hotAtLeast: number;
  /** How many of the most stressed edges the summary names. */
  hottestEdges: number;
  indicators: Record<string, NodeIndicator>;
}

export interface CatalogueNode {
  id: string;
  label: string;
  domain: string;
}

export interface CatalogueEdge {
  from: string;
  to: string;
  weight: number;
  class: string;
  mechanism: string;
  lagHours?: number;
}

/** A node and edge catalogue a model runs on, with how its nodes' stress is read. */
export interface CatalogueNetwork {
  model: string;
  usedBy: string[];
  /** How the nodes' stress is measured, in a sentence. */
  stressMethod: string;
  nodes: readonly CatalogueNode[];
  edges: readonly CatalogueEdge[];
  stressOf: StressReader;
}

/** What a node's stress is read from: a published series ranked against its own history, or a model's own stress. */
export interface StressEvidence {
  /** A series id of the dataset, or the model (`tectonic`) whose answer carries the stress. */
  source: string;
  title: string;
  measure: string;
  value: number;
  asOf: string;
}

/** A node's stress 0-100 with its evidence (and the series it read, for the answer's inputs). */
export interface MeasuredStress {
  stress: number;
  evidence: StressEvidence;
  series?: Series;
}

/** How a network's node stresses are read. */
export type StressReader = (nodeId: string) => MeasuredStress | null;

export interface GraphNode extends CatalogueNode {
  /** 0-100; null when no open series measures the node. */
  stress: number | null;
  evidence: StressEvidence | null;
}

export interface GraphEdge extends CatalogueEdge {
  /** Stress of the source node carried by the edge: source stress x weight; null when the source is unmeasured. */
  stress: number | null;
  evidence: StressEvidence | null;
}

export interface GraphNetwork {
  model: string;
  usedBy: string[];
  stressMethod: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface CausalGraph {
  summary: {
    nodes: number;
    edges: number;
    measuredNodes: number;
    measuredEdges: number;
    /** Mean stress of the measured edges, 0-100. */
    systemStress: number | null;
    hotNodes: string[];
    hottestEdges: Array<{ network: string; from: string; to: string; stress: number; mechanism: string }>;
  };
  networks: GraphNetwork[];
  synthesis: string;
}

const DAYS_PER_YEAR = 365.25;

/** The indicator's reading on `date` (the series as it stood then), or undefined. */
function readingOn(series: Series, indicator: NodeIndicator, date: string): number | undefined {
  const end = onOrBefore(series, date);
  if (!end) return undefined;
  if (indicator.measure === 'level') return end.value;
  const start = onOrBefore(series, shiftDate(end.date, -(indicator.days ?? 0)));
  if (!start) return undefined;
  if (indicator.measure === 'changeBy') return end.value - start.value;
  return start.value === 0 ? undefined : ((end.value - start.value) / Math.abs(start.value)) * 100;
}

/** The readings at monthly points over the lookback, ending at the newest observation. */
function sampledHistory(series: Series, indicator: NodeIndicator, parameters: CausalGraphParameters): number[] {
  const end = latest(series).date;
  const points = Math.floor((parameters.lookbackYears * DAYS_PER_YEAR) / parameters.sampleEveryDays);
  const history: number[] = [];
  for (let point = 0; point <= points; point += 1) {
    const reading = readingOn(series, indicator, shiftDate(end, -point * parameters.sampleEveryDays));
    if (reading !== undefined) history.push(reading);
  }
  return history;
}

/** Stress 0-100 of one reading against its history, in the indicator's direction. */
function directedPercentile(history: readonly number[], reading: number, direction: NodeIndicator['direction']): number {
  if (direction === 'up') return percentileRank(history, reading);
  if (direction === 'down') return 100 - percentileRank(history, reading) + (history.filter((value) => value === reading).length / history.length) * 100;
  return percentileRank(
    history.map((value) => Math.abs(value)),
    Math.abs(reading),
  );
}

function measureText(indicator: NodeIndicator): string {
  const days = indicator.days ?? 0;
  if (indicator.measure === 'level') return 'level';
  return indicator.measure === 'changePct' ? `change over ${days} days, %` : `change over ${days} days`;
}

/** The stress of a node from its indicator series, or null when it has none in the dataset. */
export function indicatorStress(series: SeriesSet, indicator: NodeIndicator | undefined, parameters: CausalGraphParameters): MeasuredStress | null {
  const source = indicator ? series.get(indicator.series) : undefined;
  if (!indicator || !source || source.observations.length === 0) return null;
  const reading = readingOn(source, indicator, latest(source).date);
  const history = sampledHistory(source, indicator, parameters);
  if (reading === undefined || history.length < 2) return null;
  const stress = round(directedPercentile(history, reading, indicator.direction), 1);
  const measure = `${measureText(indicator)}, ranked against ${parameters.lookbackYears} years of monthly readings (${indicator.direction === 'either' ? 'size of the move' : `${indicator.direction} is stress`})`;
  return { stress, evidence: { source: source.id, title: source.title, measure, value: round(reading, 4), asOf: latest(source).date }, series: source };
}

function networkStress(network: CatalogueNetwork): { graph: GraphNetwork; read: Series[] } {
  const read: Series[] = [];
  const nodes = network.nodes.map((node): GraphNode => {
    const measured = network.stressOf(node.id);
    if (measured?.series) read.push(measured.series);
    return { id: node.id, label: node.label, domain: node.domain, stress: measured?.stress ?? null, evidence: measured?.evidence ?? null };
  });
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const edges = network.edges.map((edge): GraphEdge => {
    const source = byId.get(edge.from);
    const stress = source?.stress === null || source?.stress === undefined ? null : round(source.stress * edge.weight, 1);
    const { from, to, weight, class: evidenceClass, mechanism, lagHours } = edge;
    return { from, to, weight, class: evidenceClass, mechanism, ...(lagHours === undefined ? {} : { lagHours }), stress, evidence: source?.evidence ?? null };
  });
  return { graph: { model: network.model, usedBy: network.usedBy, stressMethod: network.stressMethod, nodes, edges }, read };
}

function hottestEdges(networks: readonly GraphNetwork[], count: number): CausalGraph['summary']['hottestEdges'] {
  return networks
    .flatMap((network) => network.edges.flatMap((edge) => (edge.stress === null ? [] : [{ network: network.model, from: edge.from, to: edge.to, stress: edge.stress, mechanism: edge.mechanism }])))
    .sort((a, b) => b.stress - a.stress || a.network.localeCompare(b.network) || a.from.localeCompare(b.from) || a.to.localeCompare(b.to))
    .slice(0, count);
}

function synthesisOf(summary: CausalGraph['summary'], networks: readonly GraphNetwork[]): string {
  const measured = `${summary.measuredNodes} of ${summary.nodes} nodes are measured by a published series`;
  if (summary.systemStress === null) return `${measured}; no edge carries a measured stress.`;
  const hot = summary.hotNodes.length === 0 ? 'no node is hot' : `hot nodes: ${summary.hotNodes.join(', ')}`;
  const top = summary.hottestEdges[0];
  const edge = top ? `; the most stressed channel is ${top.from} -> ${top.to} (${top.stress}) in the ${top.network} network: ${top.mechanism}` : '';
  return `${measured} across ${networks.length} networks; mean edge stress ${summary.systemStress} of 100; ${hot}${edge}.`;
}

/**
 * The models' causal graph: each network's nodes with the stress they show now and each edge
 * carrying its source's stress scaled by the edge weight, with the evidence behind it.
 */
export function computeCausalGraph(networks: readonly CatalogueNetwork[], parameters: Pick<CausalGraphParameters, 'hotAtLeast' | 'hottestEdges'>): { graph: CausalGraph; read: Series[] } {
  const stressed = networks.map(networkStress);
  const graphs = stressed.map((one) => one.graph);
  const nodes = graphs.flatMap((graph) => graph.nodes);
  const edges = graphs.flatMap((graph) => graph.edges);
  const measuredEdges = edges.filter((edge) => edge.stress !== null);
  const summary: CausalGraph['summary'] = {
    nodes: nodes.length,
    edges: edges.length,
    measuredNodes: nodes.filter((node) => node.stress !== null).length,
    measuredEdges: measuredEdges.length,
    systemStress: measuredEdges.length === 0 ? null : round(measuredEdges.reduce((sum, edge) => sum + edge.stress!, 0) / measuredEdges.length, 1),
    hotNodes: [...new Set(nodes.filter((node) => node.stress !== null && node.stress >= parameters.hotAtLeast).map((node) => node.id))].sort(),
    hottestEdges: hottestEdges(graphs, parameters.hottestEdges),
  };
  const read = [...new Map(stressed.flatMap((one) => one.read).map((series) => [series.id, series])).values()];
  return { graph: { summary, networks: graphs, synthesis: synthesisOf(summary, graphs) }, read };
}

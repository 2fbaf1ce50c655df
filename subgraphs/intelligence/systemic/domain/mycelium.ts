import { clamp, climbLadder, type LadderRule, latest, mean, type Observation, readInputs, round, type Series, type SeriesSet } from '../../domain/index.js';
import type { CurrencyStress, SovereignDebt } from '../../market/domain/index.js';
import { piecewiseLinear } from '../../market/domain/index.js';
import { changePctAt, lastPercentile } from './series-math.js';

export type MyceliumRegime = 'FRUITING_BODY_IMMINENT' | 'DEAD_ZONE_FORMING' | 'STRESSED_CONNECTIVITY' | 'THINNING' | 'HEALTHY';
export type NodeStatus = 'DEAD_ZONE' | 'STRESSED' | 'THINNING' | 'HEALTHY' | 'NO_DATA';
type SeriesRole = 'cpRate' | 'billRate' | 'sofr' | 'fedAssets' | 'dollar' | 'gscpi' | 'usChinaImports' | 'stablecoins' | 'creditGapUS' | 'creditGapXM' | 'creditGapCN';
type CreditGapRole = 'creditGapUS' | 'creditGapXM' | 'creditGapCN';

interface ComponentSpec {
  label: string;
  units: string;
  lookbackYears?: number;
  days?: number;
  currencies?: string[];
  g10?: string[];
  sovereign?: string;
}

interface NodeSpec {
  name: string;
  components: string[];
  creditGap?: CreditGapRole;
  cascadeType: string;
  missing?: string[];
}

export interface MyceliumParameters {
  lookbackYears: number;
  comparisonDays: number;
  series: Record<SeriesRole, string>;
  components: Record<string, ComponentSpec>;
  nodes: Record<string, NodeSpec>;
  threads: Array<[string, string]>;
  nodeStatus: LadderRule<Exclude<NodeStatus, 'NO_DATA'>>[];
  nutrientFlow: LadderRule<string>[];
  componentDeadZoneAt: number;
  threadThinningBelow: number;
  regimes: LadderRule<MyceliumRegime>[];
  deadZoneNodesForming: number;
  fruitingBody: {
    weights: { networkStress: number; creditBoom: number; deadZones: number };
    creditBoom: Array<{ at: number; score: number }>;
    leadTimeWeeks: { min: number; max: number };
    analogFromProbability: number;
  };
}

/** What the mycelium reads at one date: the series as they stood then and the part-1 bodies computed on the same clock. */
export interface NetworkInputs {
  /** The date the inputs stand at. */
  date: string;
  series: SeriesSet;
  currencyStress?: CurrencyStress;
  sovereignDebt?: SovereignDebt;
}

export interface ComponentReading {
  /** 0-100 stress. */
  score: number;
  /** The measured value behind the score, in `units`. */
  value: number;
}

export interface MyceliumNode {
  name: string;
  connectivity: number | null;
  nutrientFlow: string;
  stressSignal: string;
  status: NodeStatus;
  deadZones?: string[];
  context: string;
}

export interface Mycelium {
  networkHealth: number;
  regime: MyceliumRegime;
  nodes: Record<string, MyceliumNode>;
  threadHealth: { thinningThreads: string[]; deadZones: string[]; newConnections: string[] };
  fruitingBodyRisk: { probability: number; leadTimeWeeks: number; mostLikelyType: string; underground: string; historicalAnalog: string };
  creditGaps: Array<{ region: string; gapPp: number; asOf: string }>;
  comparedWith: string | null;
  networkNarrative: string;
}

type Found = Partial<Record<SeriesRole, Series>>;

function differenceBp(minuend: Series, subtrahend: Series): Observation[] {
  const other = new Map(subtrahend.observations.map((observation) => [observation.date, observation.value]));
  return minuend.observations.flatMap((observation) => {
    const value = other.get(observation.date);
    return value === undefined ? [] : [{ date: observation.date, value: (observation.value - value) * 100 }];
  });
}

function levelReading(observations: readonly Observation[], years: number): ComponentReading | undefined {
  if (observations.length === 0) return undefined;
  return {
    score: lastPercentile(
      observations,
      observations.map((observation) => observation.value),
      years,
    ),
    value: observations.at(-1)!.value,
  };
}

/** Stress from a percent change over `days`: the percentile of the (optionally negated) change among the window's changes of the same length. */
function changeReading(series: Series | undefined, days: number, years: number, negate: boolean): ComponentReading | undefined {
  if (!series) return undefined;
  const sign = negate ? -1 : 1;
  const known = series.observations.flatMap((observation, index) => {
    const change = changePctAt(series.observations, index, days);
    return change === undefined ? [] : [{ date: observation.date, value: sign * change }];
  });
  const reading = levelReading(known, years);
  return reading && { score: reading.score, value: sign * reading.value };
}

function currencyScores(body: CurrencyStress | undefined, spec: ComponentSpec): ComponentReading | undefined {
  if (!body) return undefined;
  const scores = [...(spec.currencies ?? []).map((code) => body.emergingMarkets[code]?.score), ...(spec.g10 ?? []).map((code) => body.g10[code]?.score)].filter(
    (score): score is number => score !== undefined,
  );
  if (scores.length === 0) return undefined;
  const average = mean(scores);
  return { score: average, value: average };
}

/** Each component's stress at the date the inputs stand at; a component without its input is absent. */
export function readComponents(inputs: NetworkInputs, found: Found, parameters: MyceliumParameters): Record<string, ComponentReading | undefined> {
  const spec = parameters.components;
  const years = (id: string) => spec[id]!.lookbackYears ?? parameters.lookbackYears;
  const italy = inputs.sovereignDebt?.sovereigns[spec.italyFiscal!.sovereign!]?.sustainabilityScore;
  const euro = inputs.currencyStress?.g10.EUR?.score;
  return {
    cpBillSpread: found.cpRate && found.billRate ? levelReading(differenceBp(found.cpRate, found.billRate), years('cpBillSpread')) : undefined,
    sofrBillSpread: found.sofr && found.billRate ? levelReading(differenceBp(found.sofr, found.billRate), years('sofrBillSpread')) : undefined,
    reserveDrain: changeReading(found.fedAssets, spec.reserveDrain!.days!, years('reserveDrain'), true),
    dollarSurge: changeReading(found.dollar, spec.dollarSurge!.days!, years('dollarSurge'), false),
    emCurrencyStress: currencyScores(inputs.currencyStress, spec.emCurrencyStress!),
    euroStress: euro === undefined ? undefined : { score: euro, value: euro },
    italyFiscal: italy === undefined || italy === null ? undefined : { score: 100 - italy, value: italy },
    supplyChainPressure: found.gscpi ? levelReading(found.gscpi.observations, years('supplyChainPressure')) : undefined,
    usChinaTradeContraction: changeReading(found.usChinaImports, spec.usChinaTradeContraction!.days!, years('usChinaTradeContraction'), true),
    stablecoinContraction: changeReading(found.stablecoins, spec.stablecoinContraction!.days!, years('stablecoinContraction'), true),
    asianCurrencyStress: currencyScores(inputs.currencyStress, spec.asianCurrencyStress!),
  };
}

/** Connectivity of each node, 0-100: 100 minus the mean stress of its components present; null when none is. */
export function nodeConnectivity(components: Record<string, ComponentReading | undefined>, parameters: MyceliumParameters): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(parameters.nodes).map(([id, node]) => {
      const scores = node.components.flatMap((component) => (components[component] ? [components[component].score] : []));
      return [id, scores.length === 0 ? null : round(100 - mean(scores), 1)];
    }),
  );
}

function readNetwork(inputs: NetworkInputs, parameters: MyceliumParameters) {
  const { found, used, missing } = readInputs(inputs.series, Object.values(parameters.series));
  const byRole = Object.fromEntries(Object.entries(parameters.series).map(([role, id]) => [role, found[id]])) as Found;
  const components = readComponents(inputs, byRole, parameters);
  return { byRole, used, missing, components, connectivity: nodeConnectivity(components, parameters) };
}

/** The network regime (spec §3 vocabulary, decision 0070): the ladder on network stress (100 - health), raised to DEAD_ZONE_FORMING when enough nodes are dead zones. */
export function networkRegime(networkHealth: number, deadZoneNodes: number, parameters: Pick<MyceliumParameters, 'regimes' | 'deadZoneNodesForming'>): MyceliumRegime {
  const regime = climbLadder(parameters.regimes, 100 - networkHealth);
  const order = parameters.regimes.map((rule) => rule.regime);
  const forming = order.indexOf('DEAD_ZONE_FORMING');
  return deadZoneNodes >= parameters.deadZoneNodesForming && order.indexOf(regime) > forming ? 'DEAD_ZONE_FORMING' : regime;
}

/** Fruiting-body probability 0-1: network stress, the largest credit-to-GDP gap (BIS buffer guide: 0 at 2 pp, 1 at 10 pp) and the share of dead-zone nodes, weighted. */
export function fruitingProbability(networkHealth: number, largestGap: number | null, deadZoneShare: number, parameters: MyceliumParameters['fruitingBody']): number {
  const creditBoom = largestGap === null ? 0 : piecewiseLinear(parameters.creditBoom, largestGap);
  const { weights } = parameters;
  return round(clamp((weights.networkStress * (100 - networkHealth)) / 100 + weights.creditBoom * creditBoom + weights.deadZones * deadZoneShare, 0, 1), 2);
}

/** Lead time within the spec's 6-14 weeks: the longest at probability 0, the shortest at 1, linear between. */
export function leadTimeWeeks(probability: number, bounds: { min: number; max: number }): number {
  return Math.round(bounds.max - (bounds.max - bounds.min) * probability);
}

function describeComponents(ids: readonly string[], components: Record<string, ComponentReading | undefined>, parameters: MyceliumParameters): string[] {
  return ids.map((id) => {
    const reading = components[id];
    const spec = parameters.components[id]!;
    return reading ? `${spec.label} ${round(reading.value, 2)} ${spec.units} (stress ${round(reading.score, 1)})` : `${spec.label}: no data`;
  });
}

function buildNode(id: string, connectivity: number | null, components: Record<string, ComponentReading | undefined>, found: Found, parameters: MyceliumParameters): MyceliumNode {
  const spec = parameters.nodes[id]!;
  const described = describeComponents(spec.components, components, parameters);
  const gap = spec.creditGap && found[spec.creditGap];
  const gapText = gap ? `; credit-to-GDP gap ${latest(gap).value} pp (BIS, ${latest(gap).date})` : '';
  const missingText = spec.missing?.length ? `; not measured: ${spec.missing.join(', ')}` : '';
  if (connectivity === null)
    return {
      name: spec.name,
      connectivity: null,
      nutrientFlow: 'NO_DATA',
      stressSignal: 'NO_DATA: no component measured',
      status: 'NO_DATA',
      context: `${described.join('; ')}${gapText}${missingText}`,
    };
  const stress = 100 - connectivity;
  const deadZones = spec.components
    .filter((component) => (components[component]?.score ?? 0) >= parameters.componentDeadZoneAt)
    .map((component) => `${component}: ${parameters.components[component]!.label} at stress ${round(components[component]!.score, 1)}`);
  const node: MyceliumNode = {
    name: spec.name,
    connectivity,
    nutrientFlow: `${climbLadder(parameters.nutrientFlow, stress)}: ${described[0]}`,
    stressSignal: `${climbLadder(parameters.nodeStatus, stress)}: stress ${round(stress, 1)} from ${described.join('; ')}`,
    status: climbLadder(parameters.nodeStatus, stress),
    context: `${spec.name}: ${spec.components.length} component(s) measured from open series${gapText}${missingText}`,
  };
  return deadZones.length > 0 ? { ...node, deadZones } : node;
}

function threadText(a: string, b: string, now: number, before: number | null | undefined): string {
  return `${a}-${b}: strength ${now}${before === undefined || before === null ? '' : ` (was ${before})`}`;
}

function threads(now: Record<string, number | null>, before: Record<string, number | null> | undefined, parameters: MyceliumParameters, deadZoneIds: readonly string[]) {
  const strength = (map: Record<string, number | null>, a: string, b: string) => (map[a] === null || map[b] === null ? null : Math.min(map[a]!, map[b]!));
  const thinningThreads: string[] = [];
  const newConnections: string[] = [];
  for (const [a, b] of parameters.threads) {
    const current = strength(now, a, b);
    if (current === null) continue;
    const earlier = before && strength(before, a, b);
    // A weak thread that is regaining strength is not thinning (a review finding: it was listed as such).
    const regaining = earlier !== undefined && earlier !== null && current > earlier;
    if (current < parameters.threadThinningBelow) {
      if (!regaining) thinningThreads.push(threadText(a, b, current, earlier));
    } else if (earlier !== undefined && earlier !== null && earlier < parameters.threadThinningBelow) newConnections.push(threadText(a, b, current, earlier));
  }
  return { thinningThreads, deadZones: [...deadZoneIds], newConnections };
}

const GAP_REGIONS: Record<CreditGapRole, string> = { creditGapUS: 'US', creditGapXM: 'EU (euro area)', creditGapCN: 'CN' };

function creditGaps(found: Found) {
  return (Object.keys(GAP_REGIONS) as CreditGapRole[]).flatMap((role) => (found[role] ? [{ region: GAP_REGIONS[role], gapPp: latest(found[role]).value, asOf: latest(found[role]).date }] : []));
}

/**
 * The mycelium model (spec §4 "Mycelium", decision 0070): six nodes from funding-market, currency,
 * trade and stablecoin series, their threads against the network of `comparisonDays` earlier, the
 * regime ladder and the fruiting-body risk. `analogs` are the cascade types' dated episodes.
 */
export function computeMycelium(now: NetworkInputs, before: NetworkInputs | undefined, parameters: MyceliumParameters, analogs: Record<string, Record<'ACTIVE' | 'FORMING', string>>) {
  const current = readNetwork(now, parameters);
  const earlier = before && readNetwork(before, parameters);
  const nodes = Object.fromEntries(Object.keys(parameters.nodes).map((id) => [id, buildNode(id, current.connectivity[id]!, current.components, current.byRole, parameters)]));
  const measured = Object.entries(nodes).filter(([, node]) => node.connectivity !== null);
  const networkHealth = measured.length === 0 ? 0 : round(mean(measured.map(([, node]) => node.connectivity!)), 1);
  const deadZoneIds = measured.filter(([, node]) => node.status === 'DEAD_ZONE').map(([id]) => id);
  const regime = networkRegime(networkHealth, deadZoneIds.length, parameters);
  const gaps = creditGaps(current.byRole);
  const largestGap = gaps.length === 0 ? null : Math.max(...gaps.map((gap) => gap.gapPp));
  const probability = fruitingProbability(networkHealth, largestGap, deadZoneIds.length / Object.keys(parameters.nodes).length, parameters.fruitingBody);
  const [weakestId, weakest] = [...measured].sort((a, b) => a[1].connectivity! - b[1].connectivity!)[0] ?? ['', undefined];
  const mostLikelyType = weakest ? parameters.nodes[weakestId]!.cascadeType : 'NONE';
  const gapText = gaps.map((gap) => `${gap.region} ${gap.gapPp} pp (${gap.asOf})`).join(', ');
  const body: Mycelium = {
    networkHealth,
    regime,
    nodes,
    threadHealth: threads(current.connectivity, earlier?.connectivity, parameters, deadZoneIds),
    fruitingBodyRisk: {
      probability,
      leadTimeWeeks: leadTimeWeeks(probability, parameters.fruitingBody.leadTimeWeeks),
      mostLikelyType,
      underground: `weakest node ${weakest ? `${weakestId} (connectivity ${weakest.connectivity})` : 'none measured'}; credit-to-GDP gaps ${gapText || 'not measured'}; largest gap ${largestGap ?? 'unknown'} pp against the BIS buffer guide of 2-10 pp`,
      historicalAnalog: analogs[mostLikelyType]?.[probability >= parameters.fruitingBody.analogFromProbability ? 'ACTIVE' : 'FORMING'] ?? 'none',
    },
    creditGaps: gaps,
    comparedWith: before?.date ?? null,
    networkNarrative: `Network health ${networkHealth} (${regime}): ${deadZoneIds.length} dead-zone node(s)${deadZoneIds.length ? ` (${deadZoneIds.join(', ')})` : ''}; weakest ${weakestId || 'none'}; fruiting-body probability ${probability}, lead time ${leadTimeWeeks(probability, parameters.fruitingBody.leadTimeWeeks)} weeks, most likely ${mostLikelyType}.`,
  };
  const nodeMissing = Object.entries(parameters.nodes).flatMap(([id, node]) => (node.missing ?? []).map((item) => `${id}: ${item}`));
  return { body, used: current.used, missing: [...current.missing, ...nodeMissing] };
}

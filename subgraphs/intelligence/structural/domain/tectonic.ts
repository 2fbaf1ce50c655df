import { clamp, climbLadder, mean, round, type Series, type SeriesSet, type SignalAnswer } from '../../domain/index.js';
import type { Coupling, FaultLineCatalogue, FaultLineDefinition, FaultStatus, TectonicDomain, TectonicParameters, TectonicRegime } from './catalogue.js';
import { buildIndicator } from './grid.js';

/**
 * GET /tectonic: latent structural pressure on 21 fault lines (docs/intelligence/tectonic.md).
 * Each line's own stress is read from its indicator or its prior; stress above the transfer onset
 * loads coupled lines once (static stress transfer); a line ruptures when its stress reaches its
 * threshold, and the years to rupture are the linear time to threshold at its accumulation rate.
 */
export interface FaultNode {
  id: string;
  label: string;
  domain: TectonicDomain;
  baselineStress: number;
  accumulationRate: number;
  threshold: number;
}

export interface FaultLine {
  node: FaultNode;
  currentStress: number;
  /** null when the line is not accumulating stress (a falling trend): no rupture on the present course. */
  yearsToRupture: number | null;
  status: FaultStatus;
  transferredFrom: string[];
}

export interface Tectonic {
  summary: { byStatus: Record<FaultStatus, number>; avgStress: number; mostUrgent: string[]; regime: TectonicRegime };
  faultLines: FaultLine[];
  ruptureSequence: Array<{ nodeId: string; label: string; domain: TectonicDomain; yearsToRupture: number }>;
  synthesis: string;
}

/** A line's stress before transfer, how it was found, and the series read. */
export interface OwnStress {
  stress: number;
  baselineStress: number;
  accumulationRate: number;
  used: Series[];
  missing: string[];
}

const FAULT_STATUSES: FaultStatus[] = ['RUPTURED', 'CRITICAL', 'ELEVATED', 'BUILDING', 'STABLE'];

/** Linear map of an indicator value: calm -> 0, rupture -> threshold, clamped to 0-100. */
export function stressOf(value: number, calm: number, rupture: number, threshold: number): number {
  return clamp((threshold * (value - calm)) / (rupture - calm), 0, 100);
}

/** Least-squares slope of y on x. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const meanX = mean(points.map(([x]) => x));
  const meanY = mean(points.map(([, y]) => y));
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

/** Years to rupture: (threshold − stress) / rate; 0 at or past the threshold; null when not accumulating. */
export function yearsToRupture(currentStress: number, threshold: number, accumulationRate: number): number | null {
  if (currentStress >= threshold) return 0;
  return accumulationRate > 0 ? (threshold - currentStress) / accumulationRate : null;
}

export function faultStatus(currentStress: number, threshold: number, parameters: Pick<TectonicParameters, 'statusLadder'>): FaultStatus {
  return climbLadder(parameters.statusLadder, currentStress / threshold);
}

/** Spec §3, evaluated from the top. */
export function tectonicRegime(byStatus: Record<FaultStatus, number>, avgStress: number, rules: TectonicParameters['regime']): TectonicRegime {
  if (byStatus.RUPTURED >= rules.cascadingRuptureMinRuptured) return 'CASCADING_RUPTURE';
  if (byStatus.CRITICAL >= rules.preRuptureMinCritical) return 'PRE_RUPTURE';
  if (avgStress >= rules.elevatedStressMinAverage) return 'ELEVATED_STRESS';
  if (avgStress >= rules.buildingMinAverage) return 'BUILDING';
  return 'STABLE';
}

function observedStress(line: FaultLineDefinition, series: SeriesSet, parameters: TectonicParameters): OwnStress | undefined {
  const built = buildIndicator(line.indicator!, series);
  if (!built) return undefined;
  const { periods, values } = built.series;
  const stresses = values.map((value) => stressOf(value, line.calm!, line.rupture!, line.threshold));
  const last = periods.at(-1)!;
  const window = periods.flatMap((year, index) => (year >= last - parameters.trendYears ? [[year, stresses[index]!] as const] : []));
  const trended = window.length >= parameters.minimumTrendPoints;
  return {
    stress: stresses.at(-1)!,
    baselineStress: window[0]![1],
    accumulationRate: trended ? slope(window) : line.fallbackAccumulationRate!,
    used: built.used,
    missing: [],
  };
}

function priorStress(line: FaultLineDefinition, yearNow: number): OwnStress {
  const prior = line.prior!;
  return {
    stress: clamp(prior.baselineStress + prior.accumulationRate * (yearNow - prior.baselineYear), 0, 100),
    baselineStress: prior.baselineStress,
    accumulationRate: prior.accumulationRate,
    used: [],
    missing: line.missing ?? [],
  };
}

/** A line's own stress: its indicator where the series exist, else its prior (and the inputs it misses). */
export function ownStress(line: FaultLineDefinition, series: SeriesSet, yearNow: number, parameters: TectonicParameters): OwnStress {
  if (line.indicator) {
    const observed = observedStress(line, series, parameters);
    if (observed) return observed;
    // No invented level: the line carries only what its couplings transfer, and says what it misses.
    const absent = line.indicator.members.map((member) => member.series).filter((id) => !series.get(id)?.observations.length);
    return { stress: 0, baselineStress: 0, accumulationRate: line.fallbackAccumulationRate!, used: [], missing: [`${line.label}: ${absent.join(', ') || 'its indicator series (no common period)'}`] };
  }
  return priorStress(line, yearNow);
}

/** Stress received by each line: Σ weight × (source own stress − onset)⁺, with the sources that gave at least minimumTransfer. */
export function transferStress(own: ReadonlyMap<string, number>, couplings: readonly Coupling[], parameters: Pick<TectonicParameters, 'transferOnset' | 'minimumTransfer'>) {
  const received = new Map<string, { total: number; from: Array<{ id: string; amount: number }> }>();
  for (const coupling of couplings) {
    const amount = coupling.weight * Math.max(0, (own.get(coupling.source) ?? 0) - parameters.transferOnset);
    if (amount <= 0) continue;
    const entry = received.get(coupling.target) ?? { total: 0, from: [] };
    entry.total += amount;
    if (amount >= parameters.minimumTransfer) entry.from.push({ id: coupling.source, amount });
    received.set(coupling.target, entry);
  }
  return received;
}

function byUrgency(a: FaultLine, b: FaultLine): number {
  const years = (line: FaultLine) => line.yearsToRupture ?? Number.POSITIVE_INFINITY;
  return years(a) - years(b) || b.currentStress - a.currentStress || a.node.id.localeCompare(b.node.id);
}

export function computeTectonic(series: SeriesSet, catalogue: FaultLineCatalogue, parameters: TectonicParameters, yearNow: number): SignalAnswer<Tectonic> {
  const owns = new Map(catalogue.faultLines.map((line) => [line.id, ownStress(line, series, yearNow, parameters)]));
  const received = transferStress(new Map([...owns].map(([id, own]) => [id, own.stress])), catalogue.couplings, parameters);
  const faultLines = catalogue.faultLines.map((line): FaultLine => {
    const own = owns.get(line.id)!;
    const transfer = received.get(line.id);
    const currentStress = round(Math.min(100, own.stress + (transfer?.total ?? 0)), 1);
    const accumulationRate = round(own.accumulationRate, 2);
    const years = yearsToRupture(currentStress, line.threshold, accumulationRate);
    return {
      node: { id: line.id, label: line.label, domain: line.domain, baselineStress: round(own.baselineStress, 1), accumulationRate, threshold: line.threshold },
      currentStress,
      yearsToRupture: years === null ? null : round(years, 1),
      status: faultStatus(currentStress, line.threshold, parameters),
      transferredFrom: (transfer?.from ?? []).sort((a, b) => b.amount - a.amount || a.id.localeCompare(b.id)).map((source) => source.id),
    };
  });
  const body = summarise(faultLines, parameters, received);
  const used = [...owns.values()].flatMap((own) => own.used);
  return { body, inputs: [...new Map(used.map((one) => [one.id, one])).values()], missing: [...owns.values()].flatMap((own) => own.missing) };
}

function summarise(faultLines: FaultLine[], parameters: TectonicParameters, received: ReturnType<typeof transferStress>): Tectonic {
  const byStatus = Object.fromEntries(FAULT_STATUSES.map((status) => [status, faultLines.filter((line) => line.status === status).length])) as Record<FaultStatus, number>;
  const avgStress = round(mean(faultLines.map((line) => line.currentStress)), 1);
  const urgent = [...faultLines].sort(byUrgency);
  const ruptureSequence = urgent
    .filter((line) => line.yearsToRupture !== null)
    .map((line) => ({ nodeId: line.node.id, label: line.node.label, domain: line.node.domain, yearsToRupture: line.yearsToRupture! }));
  const regime = tectonicRegime(byStatus, avgStress, parameters.regime);
  const summary = { byStatus, avgStress, mostUrgent: urgent.slice(0, parameters.mostUrgentCount).map((line) => line.node.label), regime };
  return { summary, faultLines, ruptureSequence, synthesis: synthesis(faultLines, summary, received) };
}

function synthesis(faultLines: FaultLine[], summary: Tectonic['summary'], received: ReturnType<typeof transferStress>): string {
  const label = new Map(faultLines.map((line) => [line.node.id, line.node.label]));
  const counts = `${summary.byStatus.RUPTURED} ruptured, ${summary.byStatus.CRITICAL} critical, ${summary.byStatus.ELEVATED} elevated, ${summary.byStatus.BUILDING} building, ${summary.byStatus.STABLE} stable`;
  const first = faultLines.filter((line) => line.yearsToRupture !== null && line.yearsToRupture > 0).sort(byUrgency)[0];
  const next = first
    ? ` Next rupture on the present course: ${first.node.label} in ${first.yearsToRupture} years (stress ${first.currentStress} of ${first.node.threshold}, +${first.node.accumulationRate} a year).`
    : '';
  const heaviest = [...received].sort((a, b) => b[1].total - a[1].total || a[0].localeCompare(b[0]))[0];
  const transfer = heaviest
    ? ` Largest stress transfer: +${round(heaviest[1].total, 1)} into ${label.get(heaviest[0])}${heaviest[1].from.length ? ` from ${heaviest[1].from.map((source) => label.get(source.id)).join(', ')}` : ''}.`
    : '';
  return `${summary.regime}: average stress ${summary.avgStress} across ${faultLines.length} fault lines (${counts}). Most urgent: ${summary.mostUrgent.join(', ')}.${next}${transfer}`;
}

import { climbLadder, round, type Series, type SeriesSet, type SignalAnswer, standardDeviation } from '../../domain/index.js';
import type { CycleCatalogue, CycleDefinition, DangerLevel, ResonanceDomain, ResonanceParameters, ResonanceRegime } from './catalogue.js';
import { buildIndicator, type GridSeries, periodLabel, periodMidQuarter, PERIODS_PER_YEAR } from './grid.js';
import { analyticSignal, unwrap, wrapAngle } from './spectral.js';
import { orderParameter, pairwisePhaseConsistency, phaseDistance, singleLinkageClusters } from './synchrony.js';

/**
 * GET /resonance: when the economy's, the markets' and the climate's cycles fall into phase
 * (docs/intelligence/resonance.md). Each cycle's phase and amplitude come from the analytic signal of
 * its band-passed series (spectral.ts), projected to the day at the cycle's own phase velocity; the
 * synchrony measures are those of synchrony.ts.
 */
export interface CyclePhase {
  id: string;
  label: string;
  domain: ResonanceDomain;
  channel: string;
  /** Phase today, radians in (-π, π]; 0 = the cycle's stress peak. */
  phase: number;
  /** Phase velocity, radians per quarter. */
  velocity: number;
  /** Envelope today over the typical amplitude of the band-passed series (√2 × its standard deviation). */
  amplitude: number;
  /** Quarters since year 0 of each sample's midpoint, and the unwrapped phase there. */
  history: { times: number[]; unwrapped: number[] };
  asOf: string;
}

export interface ResonanceCluster {
  id: string;
  signals: string[];
  labels: string[];
  domains: ResonanceDomain[];
  avgPhaseDiff: number;
  combinedAmplitude: number;
  amplificationFactor: number;
  historicalAnalogs: string[];
  dangerLevel: DangerLevel;
}

export interface Alignment {
  signalA: string;
  signalB: string;
  currentDiff: number;
  quartersToAlignment: number;
  mechanism: string;
}

export interface Resonance {
  summary: { systemResonanceScore: number; regime: ResonanceRegime; resonantPairs: number; clusters: number; criticalClusters: number; approachingAlignment: number };
  clusters: ResonanceCluster[];
  approachingAlignment: Alignment[];
  synthesis: string;
}

const DEGREES = 180 / Math.PI;
const TWO_PI = 2 * Math.PI;

export function resonanceRegime(score: number, parameters: Pick<ResonanceParameters, 'regimeLadder'>): ResonanceRegime {
  return climbLadder(parameters.regimeLadder, score);
}

/** Phase velocity over the last `window` samples, clamped to the band (a band-passed cycle turns at an in-band rate). */
function phaseVelocity(unwrapped: readonly number[], window: number, quartersPerSample: number, band: CycleDefinition['band']): number {
  const last = unwrapped.length - 1;
  const steps = Math.min(window, last);
  const measured = steps > 0 ? (unwrapped[last]! - unwrapped[last - steps]!) / (steps * quartersPerSample) : TWO_PI / (Math.sqrt(band.minYears * band.maxYears) * 4);
  return Math.min(TWO_PI / (band.minYears * 4), Math.max(TWO_PI / (band.maxYears * 4), measured));
}

type CycleReading = { phase: CyclePhase; used: Series[] } | { missing: string; used: Series[] };

/** One cycle's phase today, or why it has none (no series, too short, or too stale to project). */
export function readCycle(cycle: CycleDefinition, series: SeriesSet, nowQuarters: number, parameters: ResonanceParameters): CycleReading {
  if (!cycle.indicator) return { missing: cycle.missing!, used: [] };
  const built = buildIndicator(cycle.indicator, series);
  if (!built) return { missing: `${cycle.label}: ${cycle.indicator.members.map((member) => member.series).join(', ')} not available`, used: [] };
  return phaseOf(cycle, built.series, nowQuarters, parameters, built.used);
}

function phaseOf(cycle: CycleDefinition, grid: GridSeries, nowQuarters: number, parameters: ResonanceParameters, used: Series[]): CycleReading {
  const perYear = PERIODS_PER_YEAR[grid.grid];
  const years = grid.values.length / perYear;
  if (years < parameters.minimumCyclesOfShortestPeriod * cycle.band.minYears)
    return { missing: `${cycle.label}: ${round(years, 1)} years of data, fewer than ${parameters.minimumCyclesOfShortestPeriod} of its shortest period`, used };
  const lastPeriod = grid.periods.at(-1)!;
  const gap = nowQuarters - periodMidQuarter(lastPeriod, grid.grid);
  const centralQuarters = Math.sqrt(cycle.band.minYears * cycle.band.maxYears) * 4;
  if (gap > parameters.maxProjectionShareOfPeriod * centralQuarters)
    return { missing: `${cycle.label}: last value ${periodLabel(lastPeriod, grid.grid)}, too old to project its phase to today`, used };
  const signal = analyticSignal(
    grid.values.map((value) => value * cycle.sign!),
    perYear,
    cycle.band,
  );
  const unwrapped = unwrap(signal.phase);
  const quartersPerSample = 4 / perYear;
  const window = Math.max(1, Math.round(parameters.velocityWindowShareOfShortestPeriod * cycle.band.minYears * perYear));
  const velocity = phaseVelocity(unwrapped, window, quartersPerSample, cycle.band);
  const typical = Math.SQRT2 * standardDeviation(signal.filtered);
  const phase: CyclePhase = {
    id: cycle.id,
    label: cycle.label,
    domain: cycle.domain,
    channel: cycle.channel,
    phase: wrapAngle(signal.phase.at(-1)! + velocity * gap),
    velocity,
    amplitude: typical === 0 ? 0 : signal.envelope.at(-1)! / typical,
    history: { times: grid.periods.map((period) => periodMidQuarter(period, grid.grid)), unwrapped },
    asOf: periodLabel(lastPeriod, grid.grid),
  };
  return { phase, used };
}

function phaseAt(cycle: CyclePhase, time: number, edgeQuarters: number): number | undefined {
  const { times, unwrapped } = cycle.history;
  if (time < times[0]! + edgeQuarters || time > times.at(-1)!) return undefined;
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (times[middle]! <= time) low = middle;
    else high = middle - 1;
  }
  const index = low;
  const next = times[index + 1];
  if (next === undefined) return wrapAngle(unwrapped[index]!);
  const share = (time - times[index]!) / (next - times[index]!);
  return wrapAngle(unwrapped[index]! + share * (unwrapped[index + 1]! - unwrapped[index]!));
}

/** Past quarters when the cluster's members were coherent (order parameter at least minOrderParameter) at today's part of their cycle. */
export function historicalAnalogs(members: readonly CyclePhase[], nowQuarters: number, parameters: ResonanceParameters): string[] {
  const today = orderParameter(members.map((member) => member.phase));
  const coherent = parameters.analogs.minOrderParameter;
  const near = parameters.analogs.maxMeanPhaseDistanceDegrees / DEGREES;
  const edge = parameters.analogs.edgeYears * 4;
  const first = Math.ceil(Math.max(...members.map((member) => member.history.times[0]! + edge)) - 0.5);
  const last = Math.floor(Math.min(nowQuarters - parameters.analogs.excludeRecentYears * 4, ...members.map((member) => member.history.times.at(-1)!)) - 0.5);
  const episodes: Array<{ from: number; to: number; peak: number }> = [];
  for (let quarter = first; quarter <= last; quarter++) {
    const phases = members.map((member) => phaseAt(member, quarter + 0.5, edge));
    if (phases.some((phase) => phase === undefined)) continue;
    const { r, meanPhase } = orderParameter(phases as number[]);
    if (r < coherent || phaseDistance(meanPhase, today.meanPhase) > near) continue;
    const open = episodes.at(-1);
    if (open && open.to === quarter - 1) {
      open.to = quarter;
      open.peak = Math.max(open.peak, r);
    } else episodes.push({ from: quarter, to: quarter, peak: r });
  }
  return episodes
    .reverse()
    .slice(0, parameters.analogs.maxListed)
    .map(({ from, to, peak }) => `${periodLabel(from, 'quarterly')}${to > from ? `-${periodLabel(to, 'quarterly')}` : ''} (r ${round(peak, 2)})`);
}

function cluster(members: CyclePhase[], index: number, nowQuarters: number, parameters: ResonanceParameters) {
  const pairs = members.flatMap((a, i) => members.slice(i + 1).map((b) => phaseDistance(a.phase, b.phase)));
  const amplitudes = members.map((member) => member.amplitude);
  const sum = orderParameter(
    members.map((member) => member.phase),
    amplitudes,
  );
  const combined = sum.r * amplitudes.reduce((total, amplitude) => total + amplitude, 0);
  const incoherent = Math.sqrt(amplitudes.reduce((total, amplitude) => total + amplitude ** 2, 0));
  const danger = (combined * (1 + Math.cos(sum.meanPhase))) / 2;
  const body: ResonanceCluster = {
    id: `cluster-${index + 1}`,
    signals: members.map((member) => member.id),
    labels: members.map((member) => member.label),
    domains: [...new Set(members.map((member) => member.domain))],
    avgPhaseDiff: round((pairs.reduce((total, pair) => total + pair, 0) / pairs.length) * DEGREES, 1),
    combinedAmplitude: round(combined, 2),
    amplificationFactor: round(incoherent === 0 ? 0 : combined / incoherent, 2),
    historicalAnalogs: historicalAnalogs(members, nowQuarters, parameters),
    dangerLevel: climbLadder(parameters.dangerLadder, danger),
  };
  return { body, combined, meanPhase: sum.meanPhase };
}

/** Pairs not yet resonant whose phase difference is closing, with the quarters until it closes: |Δθ| / |Δω|. */
export function approachingPairs(phases: readonly CyclePhase[], parameters: ResonanceParameters): Alignment[] {
  const threshold = parameters.resonanceThresholdDegrees / DEGREES;
  const alignments: Alignment[] = [];
  phases.forEach((a, i) => {
    for (const b of phases.slice(i + 1)) {
      const difference = wrapAngle(a.phase - b.phase);
      const relative = a.velocity - b.velocity;
      if (Math.abs(difference) <= threshold || difference * relative >= 0) continue;
      const quarters = Math.abs(difference) / Math.abs(relative);
      if (quarters > parameters.alignmentHorizonQuarters) continue;
      alignments.push({
        signalA: a.id,
        signalB: b.id,
        currentDiff: round(Math.abs(difference) * DEGREES, 1),
        quartersToAlignment: round(quarters, 1),
        mechanism: `${a.label} (${a.channel}) and ${b.label} (${b.channel}): ${round(Math.abs(difference) * DEGREES, 0)} degrees apart, closing ${round(Math.abs(relative) * DEGREES, 1)} degrees a quarter`,
      });
    }
  });
  return alignments.sort((x, y) => x.quartersToAlignment - y.quartersToAlignment || x.signalA.localeCompare(y.signalA) || x.signalB.localeCompare(y.signalB));
}

export function resonanceScore(phases: readonly CyclePhase[], clusterAmplitude: number, parameters: Pick<ResonanceParameters, 'score'>): number {
  const total = phases.reduce((sum, phase) => sum + phase.amplitude, 0);
  const coherence = Math.max(0, pairwisePhaseConsistency(phases.map((phase) => phase.phase)));
  const clustered = total === 0 ? 0 : clusterAmplitude / total;
  return round(Math.min(100, 100 * (parameters.score.coherenceWeight * coherence + parameters.score.clusteredAmplitudeWeight * clustered)), 1);
}

/** The synchrony of the phased cycles: the body of GET /resonance. */
export function synchronise(phases: CyclePhase[], missingCount: number, nowQuarters: number, parameters: ResonanceParameters): Resonance {
  const threshold = parameters.resonanceThresholdDegrees / DEGREES;
  const resonantPairs = phases.flatMap((a, i) => phases.slice(i + 1).filter((b) => phaseDistance(a.phase, b.phase) <= threshold)).length;
  const clusters = singleLinkageClusters(
    phases.map((phase) => phase.phase),
    threshold,
  )
    .map((members) => members.map((index) => phases[index]!))
    .map((members, index) => cluster(members, index, nowQuarters, parameters))
    .sort((a, b) => b.combined - a.combined || a.body.signals[0]!.localeCompare(b.body.signals[0]!))
    .map((entry, index) => ({ ...entry, body: { ...entry.body, id: `cluster-${index + 1}` } }));
  const approaching = approachingPairs(phases, parameters);
  const score = resonanceScore(
    phases,
    clusters.reduce((sum, entry) => sum + entry.combined, 0),
    parameters,
  );
  const regime = resonanceRegime(score, parameters);
  const summary = {
    systemResonanceScore: score,
    regime,
    resonantPairs,
    clusters: clusters.length,
    criticalClusters: clusters.filter((entry) => entry.body.dangerLevel === 'CRITICAL').length,
    approachingAlignment: approaching.length,
  };
  const bodies = clusters.map((entry) => entry.body);
  return { summary, clusters: bodies, approachingAlignment: approaching, synthesis: synthesis(phases, missingCount, summary, bodies, approaching) };
}

function synthesis(phases: readonly CyclePhase[], missingCount: number, summary: Resonance['summary'], clusters: ResonanceCluster[], approaching: Alignment[]): string {
  const { r } = orderParameter(phases.map((phase) => phase.phase));
  const head = `${summary.regime}: system resonance score ${summary.systemResonanceScore} from ${phases.length} phased cycles of 28 (${missingCount} without an open or recent series); Kuramoto r ${round(r, 2)}, ${summary.resonantPairs} resonant pairs in ${summary.clusters} clusters, ${summary.criticalClusters} critical.`;
  const largest = clusters[0];
  const lead = largest
    ? ` Strongest cluster: ${largest.labels.join(', ')} (${largest.dangerLevel}, combined amplitude ${largest.combinedAmplitude}, amplification ${largest.amplificationFactor}${largest.historicalAnalogs.length ? `; last in phase ${largest.historicalAnalogs[0]}` : ''}).`
    : '';
  const next = approaching[0] ? ` Next alignment: ${approaching[0].mechanism}, in ${approaching[0].quartersToAlignment} quarters.` : '';
  return `${head}${lead}${next}`;
}

export function computeResonance(series: SeriesSet, catalogue: CycleCatalogue, parameters: ResonanceParameters, nowQuarters: number): SignalAnswer<Resonance> {
  const readings = catalogue.cycles.map((cycle) => readCycle(cycle, series, nowQuarters, parameters));
  const phases = readings.flatMap((reading) => ('phase' in reading ? [reading.phase] : []));
  const missing = readings.flatMap((reading) => ('missing' in reading ? [reading.missing] : []));
  const used = readings.flatMap((reading) => reading.used);
  return { body: synchronise(phases, missing.length, nowQuarters, parameters), inputs: [...new Map(used.map((one) => [one.id, one])).values()], missing };
}

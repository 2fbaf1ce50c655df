import {
  changePct,
  climbLadder,
  daysBetween,
  type LadderRule,
  latest,
  mean,
  percentileRank,
  readInputs,
  round,
  type Series,
  type SeriesSet,
  shiftDate,
  type SignalAnswer,
} from '../../domain/index.js';
import { type GaugeName, type GaugeReading, type GaugesParameters, readGauges } from './gauges.js';

export type Mode = 'ocean' | 'air' | 'truck' | 'rail' | 'inlandWaterway';

export interface ModeParameters {
  weight: number;
  label: string;
  /** Series scored by percentile rank over the lookback window (their mean); empty for a gauge-based mode. */
  series: string[];
  /** Lower is worse (train speed): the score is 100 minus the percentile. */
  invert?: boolean;
  /** Gauges whose bottleneck risk scores the mode (inland waterways). */
  gauges?: GaugeName[];
  /** Inputs the mode would need and that are not openly published (always listed). */
  missing: string[];
  maxAgeDays: number;
}

export interface RouteParameters {
  label: string;
  modes: Mode[];
  gauges: GaugeName[];
  corridors: string[];
  missing: string[];
}

export interface ShippingStressParameters {
  lookbackYears: number;
  modes: Record<Mode, ModeParameters>;
  /** Score (0-100) of each gauge bottleneck risk; a risk not listed (UNKNOWN) does not score. */
  bottleneckScore: Record<string, number>;
  modeStatus: LadderRule<string>[];
  regimes: LadderRule<string>[];
  energy: { series: string; label: string; costPressure: LadderRule<string>[]; basis: string };
  routes: Record<string, RouteParameters>;
  routeStatus: LadderRule<string>[];
  settlement: {
    invoiceDelayRisk: LadderRule<string>[];
    tradeFinanceStress: LadderRule<string>[];
    affectedStatuses: string[];
    guidance: Record<string, string>;
  };
}

export interface ModeReading {
  score: number | null;
  status: string;
  basis: string;
  asOf: string | null;
  stale: boolean;
  missing: string[];
}

export interface RouteReading {
  label: string;
  status: string;
  score: number | null;
  drivers: string[];
  missingDrivers: string[];
  corridors: string[];
}

export interface ShippingStress {
  compositeIndex: number;
  regime: string;
  modes: Record<Mode, ModeReading>;
  energyCosts: { brentUsd: number; asOf: string; change30dPct: number | null; change90dPct: number | null; percentile: number; costPressure: string; basis: string };
  tradeRoutes: Record<string, RouteReading>;
  settlementRelevance: { invoiceDelayRisk: string; tradeFinanceStress: string; affectedCorridors: string[]; guidance: string };
}

const UNKNOWN = 'UNKNOWN';

/** Percentile rank (0-100) of the latest value among the series' observations of the last `years`. */
export function lookbackPercentile(series: Series, years: number): number {
  const last = latest(series);
  const from = shiftDate(last.date, -Math.round(years * 365.25));
  const window = series.observations.filter((observation) => observation.date >= from).map((observation) => observation.value);
  return percentileRank(window, last.value);
}

function seriesMode(found: Series[], mode: ModeParameters, parameters: ShippingStressParameters, today: string): ModeReading {
  const percentiles = found.map((one) => lookbackPercentile(one, parameters.lookbackYears));
  const raw = mean(percentiles);
  const score = round(mode.invert ? 100 - raw : raw, 1);
  const asOf = found.map((one) => latest(one).date).sort()[0]!;
  return { score, status: climbLadder(parameters.modeStatus, score), basis: mode.label, asOf, stale: daysBetween(asOf, today) > mode.maxAgeDays, missing: mode.missing };
}

function gaugeMode(gauges: Record<GaugeName, GaugeReading>, mode: ModeParameters, parameters: ShippingStressParameters): ModeReading {
  const scored = (mode.gauges ?? []).flatMap((name) => {
    const reading = gauges[name];
    const score = parameters.bottleneckScore[reading.bottleneckRisk];
    return score === undefined || reading.asOf === null ? [] : [{ score, reading }];
  });
  if (scored.length === 0) return { score: null, status: UNKNOWN, basis: mode.label, asOf: null, stale: true, missing: mode.missing };
  const score = round(mean(scored.map((one) => one.score)), 1);
  const asOf = scored.map((one) => one.reading.asOf!).sort()[0]!;
  return { score, status: climbLadder(parameters.modeStatus, score), basis: mode.label, asOf, stale: scored.some((one) => one.reading.stale), missing: mode.missing };
}

function readModes(series: SeriesSet, gauges: Record<GaugeName, GaugeReading>, parameters: ShippingStressParameters, today: string) {
  const modes = {} as Record<Mode, ModeReading>;
  const used: Series[] = [];
  const missing: string[] = [];
  for (const [name, mode] of Object.entries(parameters.modes) as Array<[Mode, ModeParameters]>) {
    missing.push(...mode.missing.map((input) => `modes.${name}: ${input}`));
    if (mode.gauges) {
      modes[name] = gaugeMode(gauges, mode, parameters);
      continue;
    }
    const read = readInputs(series, mode.series);
    missing.push(...read.missing.map((id) => `modes.${name}: ${id}`));
    used.push(...read.used);
    modes[name] = read.used.length === 0 ? { score: null, status: UNKNOWN, basis: mode.label, asOf: null, stale: true, missing: mode.missing } : seriesMode(read.used, mode, parameters, today);
  }
  return { modes, used, missing };
}

function composite(modes: Record<Mode, ModeReading>, parameters: ShippingStressParameters): number {
  let sum = 0;
  let weights = 0;
  for (const [name, mode] of Object.entries(modes) as Array<[Mode, ModeReading]>) {
    if (mode.score === null) continue;
    sum += mode.score * parameters.modes[name].weight;
    weights += parameters.modes[name].weight;
  }
  if (weights === 0) throw new Error('shipping-stress: no mode could be scored');
  return round(sum / weights, 1);
}

function energyCosts(series: SeriesSet, parameters: ShippingStressParameters) {
  const brent = series.get(parameters.energy.series);
  if (!brent || brent.observations.length === 0) throw new Error(`shipping-stress: the energy series ${parameters.energy.series} is missing`);
  const last = latest(brent);
  const percentile = round(lookbackPercentile(brent, parameters.lookbackYears), 1);
  const change = (days: number) => {
    const value = changePct(brent, days);
    return value === undefined ? null : round(value, 2);
  };
  const costs = {
    brentUsd: last.value,
    asOf: last.date,
    change30dPct: change(30),
    change90dPct: change(90),
    percentile,
    costPressure: climbLadder(parameters.energy.costPressure, percentile),
    basis: parameters.energy.basis,
  };
  return { costs, brent };
}

function routeReading(route: RouteParameters, modes: Record<Mode, ModeReading>, gauges: Record<GaugeName, GaugeReading>, parameters: ShippingStressParameters): RouteReading {
  const drivers: string[] = [];
  const missingDrivers = [...route.missing];
  const scores: number[] = [];
  for (const name of route.modes) {
    const mode = modes[name];
    if (mode.score === null) missingDrivers.push(`${name} mode`);
    else {
      scores.push(mode.score);
      drivers.push(`${name} ${mode.status} (${mode.score})`);
    }
  }
  for (const name of route.gauges) {
    const reading = gauges[name];
    const score = parameters.bottleneckScore[reading.bottleneckRisk];
    if (score === undefined || reading.levelCm === null) missingDrivers.push(`${name} gauge`);
    else {
      scores.push(score);
      drivers.push(`${name} ${reading.status} (${reading.levelCm} cm on ${reading.asOf})`);
    }
  }
  const score = scores.length === 0 ? null : Math.max(...scores);
  const status = score === null ? UNKNOWN : climbLadder(parameters.routeStatus, score);
  return { label: route.label, status, score, drivers, missingDrivers, corridors: route.corridors };
}

function settlementOf(compositeIndex: number, modes: Record<Mode, ModeReading>, routes: Record<string, RouteReading>, parameters: ShippingStressParameters) {
  const invoiceDelayRisk = climbLadder(parameters.settlement.invoiceDelayRisk, compositeIndex);
  const tradeFinanceStress = climbLadder(parameters.settlement.tradeFinanceStress, modes.ocean.score ?? compositeIndex);
  const affected = Object.values(routes).filter((route) => parameters.settlement.affectedStatuses.includes(route.status));
  const affectedCorridors = [...new Set(affected.flatMap((route) => route.corridors))].sort();
  return { invoiceDelayRisk, tradeFinanceStress, affectedCorridors, guidance: parameters.settlement.guidance[invoiceDelayRisk] ?? '' };
}

/**
 * Shipping stress (spec §2 shape 16, body designed in decision 0064): five freight modes scored
 * from open substitutes (GSCPI for ocean, Brent for the fuel of air and truck freight, STB train
 * speed for rail, chokepoint gauges for inland waterways), their weighted composite, the energy
 * cost driver, eight trade routes (status of their weakest driver) and what that means for settlement.
 */
export function computeShippingStress(series: SeriesSet, parameters: ShippingStressParameters, gaugeParameters: GaugesParameters, today: string): SignalAnswer<ShippingStress> {
  const gauges = readGauges(series, gaugeParameters, today);
  const { modes, used, missing } = readModes(series, gauges.readings, parameters, today);
  const compositeIndex = composite(modes, parameters);
  const { costs, brent } = energyCosts(series, parameters);
  const tradeRoutes = Object.fromEntries(Object.entries(parameters.routes).map(([name, route]) => [name, routeReading(route, modes, gauges.readings, parameters)]));
  const inputs = new Map<string, Series>([...used, brent, ...gauges.used].map((one) => [one.id, one]));
  return {
    body: {
      compositeIndex,
      regime: climbLadder(parameters.regimes, compositeIndex),
      modes,
      energyCosts: costs,
      tradeRoutes,
      settlementRelevance: settlementOf(compositeIndex, modes, tradeRoutes, parameters),
    },
    inputs: [...inputs.values()],
    missing: [...missing, ...gauges.missing],
  };
}

import { climbLadder, type LadderRule, latest, onOrBefore, readInputs, round, type SeriesSet, type SignalAnswer } from '../../domain/index.js';
import { type GaugeName, type GaugeReading, type GaugesParameters, readGauges } from './gauges.js';

export type SupplyChainRegime = 'EXTREME' | 'ELEVATED' | 'NORMAL' | 'SLACK';

export interface SupplyChainParameters extends GaugesParameters {
  gscpiSeries: string;
  momentumMonths: number;
  regimes: LadderRule<SupplyChainRegime>[];
  /** Lead signal of each regime: `{z}`, `{change}`, `{months}` and `{direction}` are filled from the reading. */
  leadSignals: Record<SupplyChainRegime, { text: string; leadMonths: number }>;
  directions: { rising: string; easing: string; steady: string; steadyBand: number };
}

export interface SupplyChain {
  gscpiZScore: number;
  regime: SupplyChainRegime;
  gscpiAsOf: string;
  /** GSCPI now minus GSCPI `momentumMonths` earlier, in standard deviations (same vintage). */
  gscpiChange: number | null;
  waterLevels: Record<GaugeName, GaugeReading>;
  goodsInflationLeadSignal: string;
  leadMonths: number;
}

/** The same day `months` calendar months earlier (a monthly series is dated the first of the month). */
export function monthsBefore(date: string, months: number): string {
  const [year, month] = date.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) - months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${date.slice(8, 10)}`;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}

function directionOf(change: number | null, parameters: SupplyChainParameters): string {
  if (change === null || Math.abs(change) < parameters.directions.steadyBand) return parameters.directions.steady;
  return change > 0 ? parameters.directions.rising : parameters.directions.easing;
}

/**
 * Spec §2 shape 4: the GSCPI reading (already a z-score: standard deviations from its average) and
 * its regime, the chokepoint gauges, and the goods-inflation lead signal of the regime.
 */
export function computeSupplyChain(series: SeriesSet, parameters: SupplyChainParameters, today: string): SignalAnswer<SupplyChain> {
  const read = readInputs(series, [parameters.gscpiSeries]);
  const gscpi = read.found[parameters.gscpiSeries];
  if (!gscpi) throw new Error(`supply-chain: the GSCPI series ${parameters.gscpiSeries} is missing`);
  const last = latest(gscpi);
  const earlier = onOrBefore(gscpi, monthsBefore(last.date, parameters.momentumMonths));
  const gscpiChange = earlier && earlier.date < last.date ? round(last.value - earlier.value, 2) : null;
  const gscpiZScore = round(last.value, 2);
  const regime = climbLadder(parameters.regimes, gscpiZScore);
  const lead = parameters.leadSignals[regime];
  const goodsInflationLeadSignal = fill(lead.text, {
    z: signed(gscpiZScore),
    change: gscpiChange === null ? 'n/a' : signed(gscpiChange),
    months: String(parameters.momentumMonths),
    direction: directionOf(gscpiChange, parameters),
  });
  const gauges = readGauges(series, parameters, today);
  return {
    body: { gscpiZScore, regime, gscpiAsOf: last.date, gscpiChange, waterLevels: gauges.readings, goodsInflationLeadSignal, leadMonths: lead.leadMonths },
    inputs: [gscpi, ...gauges.used],
    missing: gauges.missing,
  };
}

import { climbLadder, type LadderRule, round, type Series, type SeriesSet, type SeriesSource, type SignalAnswer, weightedMean } from '../../domain/index.js';
import {
  type CrossCommodityParameters,
  crossCommoditySignal,
  type DemandParameters,
  type DemandRegime,
  type FlightToSafety,
  type FlightToSafetyParameters,
  type InflationLeadParameters,
  inflationLeadSignal,
  readDemandRegime,
  readFlightToSafety,
} from './commodity-signals.js';
import { changeOverMonths, monthsBack, type MoveReading, readMove, signedPercent } from './moves.js';
import { pickSeries, type SeriesSlot, slotName } from './series-pick.js';

export type CommodityRegime = 'CALM' | 'MODERATE' | 'STRESSED' | 'CRISIS';
export type CommodityName = 'oil' | 'gas' | 'gold' | 'wheat' | 'corn' | 'copper';

export interface CommodityParameters {
  lookbackYears: number;
  horizons: Array<{ months: number; weight: number }>;
  commodities: Record<CommodityName, { label: string; weight: number; series: SeriesSlot[]; units: string }>;
  commoditySignals: LadderRule<string>[];
  regimes: LadderRule<CommodityRegime>[];
  flightToSafety: FlightToSafetyParameters;
  demandRegime: DemandParameters;
  droughtExposure: { text: string; missing: string[] };
  crossCommodity: CrossCommodityParameters;
  inflationLead: InflationLeadParameters;
  narratives: Record<CommodityRegime, string>;
}

/** What every commodity shows: its headline price, the size of its moves and the signal they make. */
export interface CommodityReading {
  /** Latest price of the commodity's first series (Brent, Henry Hub, ...). */
  value: number;
  units: string;
  asOf: string;
  signal: string;
  /** 0-100: mean over the commodity's series of the weighted percentile ranks of their 1- and 3-month move sizes. */
  score: number;
  /** Percent change over one month of the headline price. */
  monthlyChange: number | null;
  threeMonthChange: number | null;
}

export interface CommodityBoard {
  oil?: CommodityReading & { wti: number | null; brentWtiSpread: number | null };
  gas?: CommodityReading & { europeTtf: number | null; europeTtfAsOf: string | null };
  gold?: CommodityReading & { flightToSafety: FlightToSafety; flightToSafetyBasis: string; realYield10y: number | null };
  wheat?: CommodityReading & { droughtExposure: string };
  corn?: CommodityReading & { droughtExposure: string };
  copper?: CommodityReading & { demandRegime: DemandRegime; copperGoldRatioChange: number | null };
}

export interface CommodityStress {
  stressIndex: number;
  regime: CommodityRegime;
  commodities: CommodityBoard;
  crossCommoditySignal: string;
  inflationLeadSignal: string;
  narrative: string;
}

/** One series scored: the weighted percentile ranks of its move sizes over the horizons it has. */
function scoreSeries(series: Series, parameters: CommodityParameters): { score: number; moves: MoveReading[] } | undefined {
  const readings = parameters.horizons.flatMap((horizon) => {
    const move = readMove(series.observations, monthsBack(horizon.months), parameters.lookbackYears);
    return move ? [{ move, weight: horizon.weight }] : [];
  });
  const score = weightedMean(readings.map((reading) => ({ value: reading.move.percentile, weight: reading.weight })));
  return score === undefined ? undefined : { score, moves: readings.map((reading) => reading.move) };
}

interface CommodityRead {
  reading: CommodityReading;
  /** The series read, in slot order (a missing slot leaves no entry). */
  series: Series[];
  bySlot: Array<Series | undefined>;
}

function readCommodity(name: CommodityName, set: SeriesSet, parameters: CommodityParameters, missing: string[]): CommodityRead | undefined {
  const definition = parameters.commodities[name];
  const bySlot = definition.series.map((slot) => pickSeries(set, slot));
  bySlot.forEach((series, index) => {
    if (!series) missing.push(`${name}: ${slotName(definition.series[index]!)}`);
  });
  const scored = bySlot.flatMap((series) => {
    const result = series ? scoreSeries(series, parameters) : undefined;
    return series && result ? [{ series, score: result.score }] : [];
  });
  if (scored.length === 0) return undefined;
  const headline = scored[0]!.series;
  const last = headline.observations.at(-1)!;
  const score = round(scored.reduce((sum, entry) => sum + entry.score, 0) / scored.length, 1);
  const monthly = changeOverMonths(headline.observations, headline.observations.length - 1, 1);
  const threeMonth = changeOverMonths(headline.observations, headline.observations.length - 1, 3);
  const level = climbLadder(parameters.commoditySignals, score);
  const moves = `${monthly === undefined ? 'n/a' : signedPercent(monthly, 1)} in a month, ${threeMonth === undefined ? 'n/a' : signedPercent(threeMonth, 1)} in three`;
  const reading: CommodityReading = {
    value: round(last.value, 2),
    units: definition.units,
    asOf: last.date,
    signal: `${level}: ${definition.label} ${moves}; move size at percentile ${Math.round(score)} of ${parameters.lookbackYears} years`,
    score,
    monthlyChange: monthly === undefined ? null : round(monthly, 2),
    threeMonthChange: threeMonth === undefined ? null : round(threeMonth, 2),
  };
  return { reading, series: scored.map((entry) => entry.series), bySlot };
}

function latestOf(series: Series | undefined): { value: number | null; asOf: string | null } {
  const last = series?.observations.at(-1);
  return last ? { value: round(last.value, 2), asOf: last.date } : { value: null, asOf: null };
}

/** The commodity-specific fields of each commodity read (wti, europeTtf, flightToSafety, droughtExposure, demandRegime). */
function boardOf(read: Partial<Record<CommodityName, CommodityRead>>, set: SeriesSet, parameters: CommodityParameters, used: SeriesSource[], missing: string[]): CommodityBoard {
  const board: CommodityBoard = {};
  if (read.oil) {
    const wti = latestOf(read.oil.bySlot[1]).value;
    board.oil = { ...read.oil.reading, wti, brentWtiSpread: wti === null ? null : round(read.oil.reading.value - wti, 2) };
  }
  if (read.gas) {
    const ttf = latestOf(read.gas.bySlot[1]);
    board.gas = { ...read.gas.reading, europeTtf: ttf.value, europeTtfAsOf: ttf.asOf };
  }
  const goldObservations = read.gold?.series[0]?.observations;
  if (read.gold && goldObservations) {
    const safety = readFlightToSafety(goldObservations, set, parameters.flightToSafety, parameters.lookbackYears);
    used.push(...safety.used);
    missing.push(...safety.missing);
    board.gold = { ...read.gold.reading, flightToSafety: safety.state, flightToSafetyBasis: safety.basis, realYield10y: safety.realYield10y };
  }
  if (read.wheat || read.corn) missing.push(...parameters.droughtExposure.missing);
  if (read.wheat) board.wheat = { ...read.wheat.reading, droughtExposure: parameters.droughtExposure.text };
  if (read.corn) board.corn = { ...read.corn.reading, droughtExposure: parameters.droughtExposure.text };
  const copperObservations = read.copper?.series[0]?.observations;
  if (read.copper && copperObservations) {
    const demand = readDemandRegime(copperObservations, goldObservations, parameters.demandRegime);
    board.copper = { ...read.copper.reading, demandRegime: demand.regime, copperGoldRatioChange: demand.ratioChange };
  }
  return board;
}

/**
 * Multi-commodity stress (spec §2 shape 10): each commodity scores the size of its latest 1- and
 * 3-month price moves against its own last ten years; the stress index is the weighted mean of the
 * commodities present, the regime the first rung of the ladder the index reaches.
 */
export function computeCommodityStress(set: SeriesSet, parameters: CommodityParameters): SignalAnswer<CommodityStress> {
  const used: SeriesSource[] = [];
  const missing: string[] = [];
  const read: Partial<Record<CommodityName, CommodityRead>> = {};
  for (const name of Object.keys(parameters.commodities) as CommodityName[]) {
    const one = readCommodity(name, set, parameters, missing);
    if (!one) continue;
    read[name] = one;
    used.push(...one.series);
  }
  const present = (Object.entries(read) as Array<[CommodityName, CommodityRead]>).map(([name, one]) => ({ name, one }));
  const index = weightedMean(present.map(({ name, one }) => ({ value: one.reading.score, weight: parameters.commodities[name].weight })));
  if (index === undefined) throw new Error('commodity: no commodity could be computed');
  const stressIndex = round(index, 1);
  const regime = climbLadder(parameters.regimes, stressIndex);
  const commodities = boardOf(read, set, parameters, used, missing);
  const cross = crossCommoditySignal(
    present.map(({ name, one }) => ({ name, score: one.reading.score })),
    parameters.crossCommodity,
  );
  const inflation = inflationLeadSignal(
    present.flatMap(({ name, one }) => (one.reading.threeMonthChange === null ? [] : [{ name, change: one.reading.threeMonthChange }])),
    parameters.inflationLead,
  );
  const ranked = [...present].sort((a, b) => b.one.reading.score - a.one.reading.score).slice(0, 2);
  const leaders = ranked.map(({ name, one }) => `${name} (percentile ${Math.round(one.reading.score)})`).join(' and ');
  const narrative = `${parameters.narratives[regime]} Stress index ${stressIndex}; largest moves: ${leaders}. ${cross.split(': ')[0]} across commodities; inflation lead ${inflation.split(': ')[0]}.`;
  return { body: { stressIndex, regime, commodities, crossCommoditySignal: cross, inflationLeadSignal: inflation, narrative }, inputs: used, missing: [...new Set(missing)] };
}

// How old each input behind an answer is on the real clock: the climate readings and each
// benchmark's prices keep their own dates (decision 0068), so an answer never passes a 2024 climate
// reading off as current because its prices are from 2026.

import type { DatasetAssessment } from './assess-dataset.js';
import type { CommodityProfile, ModelParameters } from './dataset.js';
import { daysBetween } from './numeric.js';
import type { CommodityAssessment } from './score-commodity.js';
import type { CommoditySymbol } from './types.js';

export interface InputAge {
  /** "climate" (the production regions' observations) or "price:<SYMBOL>" (that benchmark's monthly prices). */
  input: string;
  /** YYYY-MM-DD, the last day the input describes: the oldest current regional observation used, or the end of the last price month. */
  asOf: string;
  /** Whole days from asOf to now, at least 0. */
  dataAgeDays: number;
  /** dataAgeDays above the input's limit (parameters.dataAge). */
  stale: boolean;
}

type DataAgeLimits = ModelParameters['dataAge'];

/** The climate readings behind the heat check: every region with a current observation. */
export function heatCheckInputs(assessment: DatasetAssessment, now: Date): InputAge[] {
  const observedAt = [...assessment.regions.values()].map((region) => region.current.observedAt);
  return agesOf([climateInput(observedAt)], now, assessment.dataset.parameters.dataAge);
}

/** The climate readings of the commodity's production regions and its prices. */
export function outlookInputs(assessment: DatasetAssessment, symbol: CommoditySymbol, now: Date): InputAge[] {
  return portfolioInputs(assessment, [symbol], now);
}

/** The climate readings of every production region of the symbols, then each symbol's prices once, in the order given. */
export function portfolioInputs(assessment: DatasetAssessment, symbols: readonly CommoditySymbol[], now: Date): InputAge[] {
  const distinct = [...new Set(symbols)].map((symbol) => assessment.commodities[symbol]);
  const climate = climateInput(distinct.flatMap(observationTimes));
  return agesOf([climate, ...distinct.map((a) => priceInput(a.profile))], now, assessment.dataset.parameters.dataAge);
}

interface DatedInput {
  input: string;
  kind: keyof DataAgeLimits;
  asOf: string;
}

function observationTimes(assessment: CommodityAssessment): string[] {
  return assessment.contributions.map((c) => c.assessment.current.observedAt);
}

/** The oldest of the current observations: the age a caller must reckon with. Undefined without any. */
function climateInput(observedAt: readonly string[]): DatedInput | undefined {
  if (observedAt.length === 0) return undefined;
  const oldest = Math.min(...observedAt.map((instant) => Date.parse(instant)));
  return { input: 'climate', kind: 'climateStaleAfterDays', asOf: new Date(oldest).toISOString().slice(0, 10) };
}

/** Benchmark prices are monthly averages, so they describe the month up to its last day. */
function priceInput(profile: CommodityProfile): DatedInput | undefined {
  const last = profile.prices.at(-1);
  return last === undefined ? undefined : { input: `price:${profile.symbol}`, kind: 'priceStaleAfterDays', asOf: endOfMonth(last.date) };
}

function agesOf(inputs: ReadonlyArray<DatedInput | undefined>, now: Date, limits: DataAgeLimits): InputAge[] {
  return inputs.flatMap((dated) => {
    if (dated === undefined) return [];
    const dataAgeDays = Math.max(0, Math.floor(daysBetween(new Date(`${dated.asOf}T00:00:00Z`), now)));
    return [{ input: dated.input, asOf: dated.asOf, dataAgeDays, stale: dataAgeDays > limits[dated.kind] }];
  });
}

function endOfMonth(date: string): string {
  const [year = 0, month = 0] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

import { climbLadder, type LadderRule, type Observation, round, type Series, weightedMean } from '../../domain/index.js';
import { changeOver, daysBack, levelPercentile, mapObservations, readMove, readVolatility } from './moves.js';

/** How the FX models read a currency's history (currency-stress and fx-settlement share it). */
export interface CurrencyReadParameters {
  lookbackYears: number;
  /** Calendar days of the change the answers show as 30dChange / change30dPct. */
  changeDays: number;
  /** Calendar days of the realised-volatility window. */
  volatilityDays: number;
  scoreWeights: { move: number; volatility: number };
}

/** A currency read from its series: its value in USD, how far and how wildly it moved, and how unusual that is. */
export interface CurrencyMeasure {
  series: Series;
  /** The series' latest value as published (units per USD for H.10 rates; the index for the broad dollar). */
  rate: number;
  asOf: string;
  /** Percent change of the currency's value in USD over changeDays: positive = it gained against the dollar. */
  changePct: number;
  /** Percentile rank of the size of that change among the window's changes of the same length. */
  movePercentile: number;
  /** Annualised realised volatility of daily log returns over volatilityDays, percent. */
  volatility: number;
  volatilityPercentile: number;
  /** Percentile rank of the currency's value in USD among the window's values (low: historically weak). */
  valuePercentile: number;
  /** 0-100: the weighted mean of movePercentile and volatilityPercentile. */
  score: number;
}

/**
 * The currency's value through time: the reciprocal of a units-per-USD rate (so that up means the
 * currency gained), or the series itself when it already measures the currency (the broad dollar index).
 */
function valueObservations(series: Series, quotedPerUsd: boolean): Observation[] {
  return quotedPerUsd ? mapObservations(series, (value) => 1 / value) : [...series.observations];
}

export function measureCurrency(series: Series, quotedPerUsd: boolean, parameters: CurrencyReadParameters): CurrencyMeasure | undefined {
  const values = valueObservations(series, quotedPerUsd);
  if (values.length < 2) return undefined;
  const move = readMove(values, daysBack(parameters.changeDays), parameters.lookbackYears);
  const volatility = readVolatility(values, parameters.volatilityDays, parameters.lookbackYears);
  if (!move || !volatility) return undefined;
  const score = weightedMean([
    { value: move.percentile, weight: parameters.scoreWeights.move },
    { value: volatility.percentile, weight: parameters.scoreWeights.volatility },
  ])!;
  const last = series.observations.at(-1)!;
  return {
    series,
    rate: last.value,
    asOf: last.date,
    changePct: move.changePct,
    movePercentile: move.percentile,
    volatility: volatility.value,
    volatilityPercentile: volatility.percentile,
    valuePercentile: levelPercentile(values, parameters.lookbackYears),
    score: round(score, 1),
  };
}

/** The change over `days` of a currency's value at its latest observation (used where only the change is needed). */
export function valueChange(series: Series, quotedPerUsd: boolean, days: number): number | undefined {
  const values = valueObservations(series, quotedPerUsd);
  return values.length < 2 ? undefined : changeOver(values, values.length - 1, daysBack(days));
}

/** A condition on a measure: each bound named must hold (all) or one must (any). */
export interface PressureRule<Level extends string> {
  level: Level;
  combine?: 'all' | 'any';
  /** How far the value sits at the extreme of its range on the side watched: 100 - valuePercentile for weakness, valuePercentile for strength. */
  extremePercentileAtLeast?: number;
  /** The change over changeDays in the direction watched, percent. */
  moveAtLeast?: number;
  volatilityPercentileAtLeast?: number;
}

export interface PressureParameters<Level extends string> {
  /** The side a policy maker or a carry holder fears: the currency weakening or strengthening. */
  side: 'weakening' | 'strengthening';
  rules: PressureRule<Level>[];
  /** Level when no rule holds. */
  otherwise: Level;
}

/** The first rule from the top that holds names the level (an ordered ladder over several conditions). */
export function readPressure<Level extends string>(measure: CurrencyMeasure, parameters: PressureParameters<Level>): Level {
  const weakening = parameters.side === 'weakening';
  const extreme = weakening ? 100 - measure.valuePercentile : measure.valuePercentile;
  const move = weakening ? -measure.changePct : measure.changePct;
  for (const rule of parameters.rules) {
    const checks = [
      rule.extremePercentileAtLeast === undefined ? undefined : extreme >= rule.extremePercentileAtLeast,
      rule.moveAtLeast === undefined ? undefined : move >= rule.moveAtLeast,
      rule.volatilityPercentileAtLeast === undefined ? undefined : measure.volatilityPercentile >= rule.volatilityPercentileAtLeast,
    ].filter((check): check is boolean => check !== undefined);
    const holds = rule.combine === 'any' ? checks.some(Boolean) : checks.every(Boolean);
    if (checks.length > 0 && holds) return rule.level;
  }
  return parameters.otherwise;
}

/** The signal level of a score on a ladder, with the figures behind it; `subject` names what moved (`EUR in dollars`). */
export function currencySignal(subject: string, measure: CurrencyMeasure, ladder: LadderRule<string>[], lookbackYears: number, changeDays: number): string {
  const level = climbLadder(ladder, measure.score);
  const sign = measure.changePct >= 0 ? '+' : '-';
  return `${level}: ${subject} ${sign}${Math.abs(measure.changePct).toFixed(2)}% in ${changeDays} days (move size percentile ${Math.round(measure.movePercentile)}), realised volatility ${measure.volatility.toFixed(1)}% (percentile ${Math.round(measure.volatilityPercentile)} of ${lookbackYears} years)`;
}

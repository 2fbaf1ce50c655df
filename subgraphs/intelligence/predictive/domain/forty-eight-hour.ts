import { climbLadder, type LadderRule, percentileRank, readInputs, round, type Series, type SeriesSet, type SeriesSource, shiftDate } from '../../domain/index.js';
import type { IntelligenceDataset } from '../../shared/signal-endpoint.js';
import { addWeekdays, dayOf, startOfDay, weekdayOnOrBefore, weekdaysBetween } from './calendar.js';
import type { DraftCall, Evidence, LedgerModel, Observation } from './ledger.js';
import { meetsThreshold } from './ledger.js';

export type LevelBucket = 'HIGH' | 'MIDDLE' | 'LOW';
export type MomentumBucket = 'RISING' | 'FALLING' | 'FLAT';
export type Direction = 'ABOVE' | 'AT_OR_BELOW';

export interface FortyEightHourParameters {
  subject: string;
  horizonBusinessDays: number;
  lookbackYears: number;
  levelWindowObservations: number;
  momentumObservations: number;
  minimumSamples: number;
  levelBuckets: LadderRule<LevelBucket>[];
  candidates: Array<{ series: string; label: string; digits: number }>;
}

/** One candidate series' call: which side of its base value it will be on, and how sure. */
export interface CandidateCall {
  series: string;
  label: string;
  units: string;
  baseDate: string;
  baseValue: number;
  direction: Direction;
  probability: number;
  /** Observations ahead the history was counted over (weekdays from the base to the target day). */
  stepsAhead: number;
  levelBucket: LevelBucket;
  levelPercentile: number;
  momentumBucket: MomentumBucket;
  momentumChange: number;
  samples: number;
  rises: number;
  /** The bucket had fewer than minimumSamples: the frequency is over all samples of the lookback. */
  unconditional: boolean;
}

function levelPercentileAt(values: readonly number[], index: number, window: number): number | undefined {
  if (index + 1 < window) return undefined;
  return percentileRank(values.slice(index + 1 - window, index + 1), values[index]!);
}

function momentumOf(change: number): MomentumBucket {
  return change > 0 ? 'RISING' : change < 0 ? 'FALLING' : 'FLAT';
}

interface Bucketed {
  level: LevelBucket;
  momentum: MomentumBucket;
  rose: boolean;
}

/** Every past observation of the lookback with its buckets and whether the value `steps` observations later was higher. */
function history(series: Series, steps: number, parameters: FortyEightHourParameters): Bucketed[] {
  const observations = series.observations;
  const values = observations.map((observation) => observation.value);
  const start = shiftDate(observations.at(-1)!.date, -Math.round(parameters.lookbackYears * 365.25));
  const samples: Bucketed[] = [];
  for (let index = parameters.momentumObservations; index + steps < values.length; index += 1) {
    if (observations[index]!.date < start) continue;
    const percentile = levelPercentileAt(values, index, parameters.levelWindowObservations);
    if (percentile === undefined) continue;
    samples.push({
      level: climbLadder(parameters.levelBuckets, percentile),
      momentum: momentumOf(values[index]! - values[index - parameters.momentumObservations]!),
      rose: values[index + steps]! > values[index]!,
    });
  }
  return samples;
}

/** The call on one series for `targetDate` (undefined when the series is too short to bucket). */
export function candidateCall(series: Series, label: string, digits: number, targetDate: string, parameters: FortyEightHourParameters): CandidateCall | undefined {
  const observations = series.observations;
  const values = observations.map((observation) => observation.value);
  const last = values.length - 1;
  const levelPercentile = levelPercentileAt(values, last, parameters.levelWindowObservations);
  if (levelPercentile === undefined || last < parameters.momentumObservations) return undefined;
  const base = observations[last]!;
  const stepsAhead = Math.max(1, weekdaysBetween(base.date, targetDate));
  const levelBucket = climbLadder(parameters.levelBuckets, levelPercentile);
  const momentumChange = values[last]! - values[last - parameters.momentumObservations]!;
  const momentumBucket = momentumOf(momentumChange);
  const all = history(series, stepsAhead, parameters);
  const alike = all.filter((sample) => sample.level === levelBucket && sample.momentum === momentumBucket);
  const unconditional = alike.length < parameters.minimumSamples;
  const counted = unconditional ? all : alike;
  const rises = counted.filter((sample) => sample.rose).length;
  const riseProbability = (rises + 1) / (counted.length + 2);
  const direction: Direction = riseProbability >= 0.5 ? 'ABOVE' : 'AT_OR_BELOW';
  return {
    series: series.id,
    label,
    units: series.units,
    baseDate: base.date,
    baseValue: round(base.value, digits),
    direction,
    probability: round(direction === 'ABOVE' ? riseProbability : 1 - riseProbability, 4),
    stepsAhead,
    levelBucket,
    levelPercentile: round(levelPercentile, 1),
    momentumBucket,
    momentumChange: round(momentumChange, digits),
    samples: counted.length,
    rises,
    unconditional,
  };
}

export interface FortyEightHourCalls {
  period: string;
  targetDate: string;
  candidates: CandidateCall[];
  /** The candidate farthest from a coin toss (first listed on a tie). */
  headline: CandidateCall | undefined;
  inputs: SeriesSource[];
  missing: string[];
}

/** The business day a call issued at `now` belongs to (a weekend serves Friday's), and its target day. */
export function callDays(now: Date, horizonBusinessDays: number): { period: string; targetDate: string } {
  const period = weekdayOnOrBefore(dayOf(now));
  return { period, targetDate: addWeekdays(period, horizonBusinessDays) };
}

/** Every candidate's call for the business day of `now`, and the headline among them (pure). */
export function fortyEightHourCalls(series: SeriesSet, now: Date, parameters: FortyEightHourParameters): FortyEightHourCalls {
  const { period, targetDate } = callDays(now, parameters.horizonBusinessDays);
  const read = readInputs(
    series,
    parameters.candidates.map((candidate) => candidate.series),
  );
  const candidates = parameters.candidates.flatMap((candidate) => {
    const one = read.found[candidate.series];
    const call = one ? candidateCall(one, candidate.label, candidate.digits, targetDate, parameters) : undefined;
    return call ? [call] : [];
  });
  const headline = candidates.reduce<CandidateCall | undefined>((best, call) => (best === undefined || Math.abs(call.probability - 0.5) > Math.abs(best.probability - 0.5) ? call : best), undefined);
  return { period, targetDate, candidates, headline, inputs: read.used, missing: read.missing };
}

function evidenceOf(call: CandidateCall): Evidence[] {
  return [
    { id: call.series, label: `${call.label}: base value`, asOf: call.baseDate, value: call.baseValue },
    { id: `${call.series}.levelPercentile`, label: `percentile of the base among the previous observations (${call.levelBucket})`, asOf: call.baseDate, value: call.levelPercentile },
    { id: `${call.series}.momentum`, label: `change over the momentum window (${call.momentumBucket})`, asOf: call.baseDate, value: call.momentumChange },
    { id: 'history.samples', label: call.unconditional ? 'samples of the lookback (bucket too thin: all samples)' : 'samples of the lookback in the same buckets', asOf: null, value: call.samples },
    { id: 'history.rises', label: `of which higher ${call.stepsAhead} observations later`, asOf: null, value: call.rises },
  ];
}

/** The headline call as the ledger records it. */
export function draftOf(calls: FortyEightHourCalls, now: Date, model: { id: string; subject: string }): DraftCall | undefined {
  const call = calls.headline;
  if (!call) return undefined;
  const side = call.direction === 'ABOVE' ? 'above' : 'at or below';
  const bucket = call.unconditional ? 'all samples (bucket too thin)' : `${call.levelBucket} level, ${call.momentumBucket} momentum`;
  return {
    model: model.id,
    subject: model.subject,
    period: calls.period,
    issuedAt: now.toISOString(),
    resolvesAt: startOfDay(shiftDate(calls.targetDate, 1)).toISOString(),
    statement: `${call.label} (${call.series}) on ${calls.targetDate} will be ${side} ${call.baseValue} ${call.units}, its value of ${call.baseDate}.`,
    probability: call.probability,
    evidence: evidenceOf(call),
    resolutionRule: {
      quantity: `${call.series} value`,
      series: call.series,
      comparison: call.direction,
      threshold: call.baseValue,
      category: null,
      baseDate: call.baseDate,
      targetDate: calls.targetDate,
      text: `the latest ${call.series} observation dated on or before ${calls.targetDate} and after ${call.baseDate}; the call holds when it is ${side} ${call.baseValue}`,
    },
    method: `${call.rises} of ${call.samples} past observations (${bucket}) were higher ${call.stepsAhead} observations later: p(rise) = (${call.rises} + 1) / (${call.samples} + 2)`,
  };
}

/** Resolution of a 48-hour call: the series' value on the target day (or the last before it, once settled). */
export function observeFortyEightHour(series: SeriesSet, call: DraftCall): Observation | undefined {
  const rule = call.resolutionRule;
  const one = series.get(rule.series);
  const last = one?.observations.at(-1);
  if (!last || last.date <= rule.baseDate) return undefined;
  return { value: last.value, category: null, asOf: last.date, outcome: meetsThreshold(last.value, rule) };
}

/** The 48-hour call as a ledger model. */
export function fortyEightHourLedgerModel(parameters: FortyEightHourParameters): LedgerModel {
  const model = { id: '48h-call', subject: parameters.subject };
  return {
    ...model,
    title: 'The 48-hour call: direction of a daily market series two business days ahead',
    period: 'business-day',
    horizon: `${parameters.horizonBusinessDays} business days of the series`,
    series: parameters.candidates.map((candidate) => candidate.series),
    periodOf: (now) => callDays(now, parameters.horizonBusinessDays).period,
    call: async (dataset: IntelligenceDataset, now: Date) => draftOf(fortyEightHourCalls(dataset.series, now, parameters), now, model),
    resolve: async (datasetAtTarget: IntelligenceDataset, call: DraftCall) => observeFortyEightHour(datasetAtTarget.series, call),
  };
}

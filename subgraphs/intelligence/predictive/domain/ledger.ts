import { daysBetween, seriesAsOf, type SeriesSet } from '../../domain/index.js';
import type { IntelligenceDataset } from '../../shared/signal-endpoint.js';
import { dayOf, weekdayOnOrBefore } from './calendar.js';

/** A figure the call was made on: a series value, or a quantity the model derived from them. */
export interface Evidence {
  id: string;
  label: string;
  /** Date of the observation behind the figure (null for a count over history). */
  asOf: string | null;
  value: number;
}

export type Comparison = 'EQUALS' | 'ABOVE' | 'AT_OR_BELOW';

/**
 * How the call is checked, by anyone holding the same data: the quantity recomputed on the dataset
 * as it stood on `targetDate` (no observation dated after it), compared with the threshold or the
 * category. `series` dates the data: the call resolves only once it has an observation after `baseDate`.
 */
export interface ResolutionRule {
  quantity: string;
  series: string;
  comparison: Comparison;
  threshold: number | null;
  category: string | null;
  baseDate: string;
  targetDate: string;
  text: string;
}

/** A call as a model drafts it, before the ledger records it. */
export interface DraftCall {
  model: string;
  subject: string;
  period: string;
  issuedAt: string;
  resolvesAt: string;
  statement: string;
  /** Probability of the stated outcome, 0-1. */
  probability: number;
  evidence: Evidence[];
  resolutionRule: ResolutionRule;
  /** How the probability was derived, in words composed from the counts. */
  method: string;
}

export type CallStatus = 'PENDING' | 'RESOLVED' | 'VOID';

/** What the recomputation at the horizon found. */
export interface Observation {
  value: number | null;
  category: string | null;
  asOf: string | null;
  outcome: boolean;
}

export interface Resolution {
  status: 'RESOLVED' | 'VOID';
  /** Null when VOID. */
  outcome: boolean | null;
  resolvedAt: string;
  observedValue: number | null;
  observedCategory: string | null;
  observedAsOf: string | null;
  reason: string;
}

export interface LedgerCall extends DraftCall {
  id: string;
  status: CallStatus;
  resolution: Resolution | null;
}

/** What the ledger holds of a model's earlier calls when it drafts the next one. */
export interface ModelRecord {
  resolved: number;
  /** Resolved calls whose stated outcome happened. */
  hits: number;
}

/**
 * A model whose calls the ledger keeps: adding one is one entry of the registry (predictive/models.ts).
 * `call` drafts the model's call for `now` (undefined when it cannot call: an input missing), knowing
 * the model's record so far;
 * `resolve` recomputes the called quantity on the dataset as it stood at the horizon.
 */
export interface LedgerModel {
  id: string;
  title: string;
  subject: string;
  /** `business-day`, `iso-week`: one call per model, subject and period. */
  period: 'business-day' | 'iso-week';
  /** The horizon in words (`7 calendar days`, `2 business days of the series`). */
  horizon: string;
  /** The daily series that date its calls (an answer about the ledger names them as its inputs). */
  series: readonly string[];
  periodOf(now: Date): string;
  call(dataset: IntelligenceDataset, now: Date, record: ModelRecord): Promise<DraftCall | undefined>;
  resolve(datasetAtTarget: IntelligenceDataset, call: DraftCall): Promise<Observation | undefined>;
}

/** The id of the one call of `model` on `subject` for `period`: the same on every replica. */
export function callId(model: string, subject: string, period: string): string {
  return `${model}:${subject}:${period}`;
}

export interface ResolutionTiming {
  /** Days after the horizon to wait for the target day's own observation (publication lag, holidays). */
  settleDays: number;
  /** Days after the horizon after which a call whose series never moved past its base date is VOID. */
  voidAfterDays: number;
}

/** The series as they stood at the end of the call's target day. */
export function seriesAtTarget(series: SeriesSet, call: DraftCall): SeriesSet {
  return seriesAsOf(series, call.resolutionRule.targetDate);
}

export type ResolutionStep = { kind: 'WAIT' } | { kind: 'VOID'; reason: string } | { kind: 'RESOLVE'; datasetAtTarget: IntelligenceDataset };

/**
 * Whether a due call can be resolved now (pure): its dating series must hold an observation after
 * the base date by the target day; the target day's own observation is awaited `settleDays` (it
 * may be a holiday, or published late); a series that never moved makes the call VOID after
 * `voidAfterDays`.
 */
export function resolutionStep(call: DraftCall, dataset: IntelligenceDataset, now: Date, timing: ResolutionTiming): ResolutionStep {
  const rule = call.resolutionRule;
  if (now.getTime() < Date.parse(call.resolvesAt)) return { kind: 'WAIT' };
  const daysPast = daysBetween(call.resolvesAt.slice(0, 10), dayOf(now));
  const series = seriesAtTarget(dataset.series, call);
  const dated = series.get(rule.series)?.asOf;
  if (dated === undefined || dated <= rule.baseDate) {
    if (daysPast < timing.voidAfterDays) return { kind: 'WAIT' };
    return { kind: 'VOID', reason: `no observation of ${rule.series} after ${rule.baseDate} dated on or before ${rule.targetDate} within ${timing.voidAfterDays} days of the horizon` };
  }
  if (dated < weekdayOnOrBefore(rule.targetDate) && daysPast < timing.settleDays) return { kind: 'WAIT' };
  return { kind: 'RESOLVE', datasetAtTarget: { ...dataset, series } };
}

/** The resolution of a call from what the recomputation observed. */
export function resolvedBy(observation: Observation, now: Date, rule: ResolutionRule): Resolution {
  const seen = observation.category ?? (observation.value === null ? 'nothing' : String(observation.value));
  return {
    status: 'RESOLVED',
    outcome: observation.outcome,
    resolvedAt: now.toISOString(),
    observedValue: observation.value,
    observedCategory: observation.category,
    observedAsOf: observation.asOf,
    reason: `${rule.quantity} on the data of ${rule.targetDate}: ${seen} (${observation.outcome ? 'as called' : 'not as called'})`,
  };
}

export function voided(reason: string, now: Date): Resolution {
  return { status: 'VOID', outcome: null, resolvedAt: now.toISOString(), observedValue: null, observedCategory: null, observedAsOf: null, reason };
}

/** Whether an observed number meets a numeric rule. */
export function meetsThreshold(value: number, rule: ResolutionRule): boolean {
  if (rule.threshold === null) throw new Error(`rule on ${rule.quantity} has no threshold`);
  return rule.comparison === 'ABOVE' ? value > rule.threshold : value <= rule.threshold;
}

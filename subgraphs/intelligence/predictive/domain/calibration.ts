import { round } from '../../domain/index.js';
import type { CallStatus, LedgerCall } from './ledger.js';

export interface ReliabilityBucket {
  /** Probability range [from, to) of the stated outcomes (the last bucket includes 1). */
  from: number;
  to: number;
  resolved: number;
  meanProbability: number | null;
  /** Share of the bucket's calls whose stated outcome happened. */
  observedFrequency: number | null;
}

export interface Calibration {
  calls: number;
  pending: number;
  resolved: number;
  void: number;
  /** Calls whose stated outcome happened. */
  hits: number;
  hitRate: number | null;
  meanProbability: number | null;
  /** Mean of (p - o)^2 over resolved calls, p the stated probability, o 1 when it happened (Brier 1950); null before any resolves. */
  brierScore: number | null;
  reliability: ReliabilityBucket[];
}

/** What calibration needs of a call. */
export interface ScoredCall {
  probability: number;
  status: CallStatus;
  outcome: boolean | null;
}

export function scoredCall(call: LedgerCall): ScoredCall {
  return { probability: call.probability, status: call.status, outcome: call.resolution?.outcome ?? null };
}

/** The Brier score: mean squared distance between the stated probability and what happened (0 perfect, 1 always wrong and sure). */
export function brierScore(resolved: ReadonlyArray<{ probability: number; outcome: boolean }>): number | null {
  if (resolved.length === 0) return null;
  return resolved.reduce((sum, call) => sum + (call.probability - (call.outcome ? 1 : 0)) ** 2, 0) / resolved.length;
}

function bucketsOf(resolved: ReadonlyArray<{ probability: number; outcome: boolean }>, count: number): ReliabilityBucket[] {
  return Array.from({ length: count }, (_, index) => {
    const from = index / count;
    const to = (index + 1) / count;
    const inside = resolved.filter((call) => call.probability >= from && (call.probability < to || (index === count - 1 && call.probability <= 1)));
    return {
      from: round(from, 2),
      to: round(to, 2),
      resolved: inside.length,
      meanProbability: inside.length === 0 ? null : round(inside.reduce((sum, call) => sum + call.probability, 0) / inside.length, 4),
      observedFrequency: inside.length === 0 ? null : round(inside.filter((call) => call.outcome).length / inside.length, 4),
    };
  });
}

/** Counts, Brier score and reliability table (probability buckets of width 1/bucketCount) of a set of calls. */
export function calibrationOf(calls: readonly ScoredCall[], bucketCount: number): Calibration {
  const resolved = calls.flatMap((call) => (call.status === 'RESOLVED' && call.outcome !== null ? [{ probability: call.probability, outcome: call.outcome }] : []));
  const hits = resolved.filter((call) => call.outcome).length;
  const brier = brierScore(resolved);
  return {
    calls: calls.length,
    pending: calls.filter((call) => call.status === 'PENDING').length,
    resolved: resolved.length,
    void: calls.filter((call) => call.status === 'VOID').length,
    hits,
    hitRate: resolved.length === 0 ? null : round(hits / resolved.length, 4),
    meanProbability: resolved.length === 0 ? null : round(resolved.reduce((sum, call) => sum + call.probability, 0) / resolved.length, 4),
    brierScore: brier === null ? null : round(brier, 4),
    reliability: bucketsOf(resolved, bucketCount),
  };
}

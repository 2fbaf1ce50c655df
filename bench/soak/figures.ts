import type { FaultEvent } from './faults.js';
import { REQUEST_KINDS, type RequestKind, type RequestRecord } from './records.js';
import { type Phase, phaseAt, PHASES, RECOVERY_MS } from './timeline.js';

/** Throughput, latency and the error budget of a group of requests (decision 0089). */
export interface GroupFigures {
  requests: number;
  /** Requests started per second of the group's time. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests whose answer was not the one expected (non-2xx, no answer, or a body without what it needs). */
  unexpected: number;
  /** The most common unexpected outcomes, `outcome problem × count`. */
  top: string[];
  /** Answers 500 among them. */
  internalErrors: number;
}

export interface LoadFigures {
  loadSeconds: number;
  phaseSeconds: Record<Phase, number>;
  byPhase: Record<Phase, GroupFigures>;
  byKind: Record<RequestKind, GroupFigures>;
  shedByPhase: Record<Phase, number>;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

function groupFigures(records: readonly RequestRecord[], seconds: number): GroupFigures {
  const latencies = records.map((one) => one.endedAt - one.startedAt).sort((a, b) => a - b);
  const unexpected = records.filter((one) => !one.expected);
  const reasons = Map.groupBy(unexpected, (one) => `${one.outcome} ${one.problem ?? ''}`.trim());
  const top = [...reasons.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 3)
    .map(([reason, list]) => `${reason} × ${list.length}`);
  return {
    requests: records.length,
    perSecond: seconds > 0 ? records.length / seconds : 0,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    unexpected: unexpected.length,
    top,
    internalErrors: records.filter((one) => one.outcome === 500).length,
  };
}

/** Milliseconds of [from, to) in each phase, sampled every 100 ms (phases change on seconds). */
function phaseDurations(from: number, to: number, events: readonly FaultEvent[]): Record<Phase, number> {
  const durations: Record<Phase, number> = { steady: 0, fault: 0, recovery: 0 };
  const step = 100;
  for (let at = from; at < to; at += step) durations[phaseAt(at, events)] += Math.min(step, to - at);
  return durations;
}

export function loadFigures(records: readonly RequestRecord[], shed: readonly number[], events: readonly FaultEvent[], loadStartedAt: number, loadEndedAt: number): LoadFigures {
  const durations = phaseDurations(loadStartedAt, loadEndedAt, events);
  const phaseOf = (record: RequestRecord) => phaseAt(record.startedAt, events);
  const byPhase = Object.fromEntries(
    PHASES.map((phase) => [
      phase,
      groupFigures(
        records.filter((one) => phaseOf(one) === phase),
        durations[phase] / 1000,
      ),
    ]),
  ) as Record<Phase, GroupFigures>;
  const loadSeconds = (loadEndedAt - loadStartedAt) / 1000;
  const byKind = Object.fromEntries(
    REQUEST_KINDS.map((kind) => [
      kind,
      groupFigures(
        records.filter((one) => one.kind === kind),
        loadSeconds,
      ),
    ]),
  ) as Record<RequestKind, GroupFigures>;
  const shedByPhase = Object.fromEntries(PHASES.map((phase) => [phase, shed.filter((at) => phaseAt(at, events) === phase).length])) as Record<Phase, number>;
  return { loadSeconds, phaseSeconds: { steady: durations.steady / 1000, fault: durations.fault / 1000, recovery: durations.recovery / 1000 }, byPhase, byKind, shedByPhase };
}

export const RECOVERY_SECONDS = RECOVERY_MS / 1000;

import type { FaultEvent } from './faults.js';

/** Where a request fell (decision 0089): during a kill or an outage, in the N seconds after it was restored, or neither. */
export const PHASES = ['steady', 'fault', 'recovery'] as const;
export type Phase = (typeof PHASES)[number];

/** The "after recovery" phase: this long after a process listened again or a proxy accepted again. */
export const RECOVERY_MS = 10_000;

/** The phase of a request by the moment it started. */
export function phaseAt(at: number, events: readonly FaultEvent[]): Phase {
  if (events.some((event) => at >= event.startedAt && at < event.restoredAt)) return 'fault';
  if (events.some((event) => at >= event.restoredAt && at < event.restoredAt + RECOVERY_MS)) return 'recovery';
  return 'steady';
}

/** Whether [from, to] overlaps a fault of one of `kinds` (or any kind). */
export function overlapsFault(from: number, to: number, events: readonly FaultEvent[], kinds?: readonly string[]): boolean {
  return events.some((event) => from <= event.restoredAt && to >= event.startedAt && (!kinds || kinds.includes(event.kind)));
}

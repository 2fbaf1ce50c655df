import type { OracleRunRecord, OracleRunStatus } from './domain/index.js';

// Test support for the oracles' views: run records on a five-minute interval from T0.

export const INTERVAL = 300;
export const T0 = new Date('2026-11-22T12:00:00.000Z');
export const minutes = (count: number) => new Date(T0.getTime() + count * 60_000);

/** A recorded run of the interval starting `slotMinutes` after T0: started a second in, finished four seconds in (unless RUNNING). */
export function run<Output>(slotMinutes: number, status: OracleRunStatus, output: Output | null, score: number | null): OracleRunRecord<Output> {
  const slot = minutes(slotMinutes);
  return {
    oracle: 'stability',
    slot,
    status,
    runner: 'h:1',
    startedAt: new Date(slot.getTime() + 1000),
    finishedAt: status === 'RUNNING' ? null : new Date(slot.getTime() + 4000),
    score,
    overall: null,
    output,
    error: status === 'FAILED' ? 'boom' : null,
  };
}

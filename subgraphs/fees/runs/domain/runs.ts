/**
 * Oracle runs (decision 0035): which interval a run belongs to, and the uptime figures read from the
 * recorded runs. Pure: the runs and `now` are passed in.
 */

export type OracleRunStatus = 'RUNNING' | 'SUCCESS' | 'FAILED';

export interface OracleRunRecord<Output = unknown> {
  oracle: string;
  slot: Date;
  status: OracleRunStatus;
  runner: string;
  startedAt: Date;
  finishedAt: Date | null;
  score: number | null;
  overall: string | null;
  output: Output | null;
  error: string | null;
}

const DAY_MS = 86_400_000;

/** Start of the interval `now` falls in: epoch time floored to a multiple of the interval. */
export function slotOf(now: Date, intervalSeconds: number): Date {
  const intervalMs = intervalSeconds * 1000;
  return new Date(Math.floor(now.getTime() / intervalMs) * intervalMs);
}

/** A run that ended; a RUNNING one is still under way (or its process died). */
export function finishedRuns<Output>(runs: readonly OracleRunRecord<Output>[]): OracleRunRecord<Output>[] {
  return runs.filter((run) => run.status !== 'RUNNING');
}

export interface OracleUptime {
  /** Seconds since the start of the current unbroken series of successful intervals; 0 when the latest interval due has no success. */
  uptimeSeconds: number;
  /** Successful intervals / intervals due, in percent (2 decimals), over the last 24 hours or since the first recorded run. */
  uptimePct: number;
  /** Intervals due in that window, and how many of them succeeded. */
  intervalsDue: number;
  intervalsSucceeded: number;
}

/**
 * Uptime from recorded runs, newest first or in any order. An interval is due once it has a
 * finished run or has ended; the current interval counts only when it already succeeded or failed,
 * so a run under way does not lower the figure. Intervals with no run at all (every replica down)
 * count as missed.
 */
export function uptimeOf(runs: readonly OracleRunRecord[], now: Date, intervalSeconds: number): OracleUptime {
  const intervalMs = intervalSeconds * 1000;
  const currentSlot = slotOf(now, intervalSeconds).getTime();
  const bySlot = new Map(runs.map((run) => [run.slot.getTime(), run.status]));
  const slots = [...bySlot.keys()];
  if (slots.length === 0) return { uptimeSeconds: 0, uptimePct: 0, intervalsDue: 0, intervalsSucceeded: 0 };
  const windowStart = Math.max(Math.min(...slots), slotOf(new Date(now.getTime() - DAY_MS), intervalSeconds).getTime() + intervalMs);
  let due = 0;
  let succeeded = 0;
  for (let slot = windowStart; slot <= currentSlot; slot += intervalMs) {
    const status = bySlot.get(slot);
    if (slot === currentSlot && (status === undefined || status === 'RUNNING')) continue;
    due += 1;
    if (status === 'SUCCESS') succeeded += 1;
  }
  const uptimePct = due === 0 ? 0 : Math.round((succeeded / due) * 10_000) / 100;
  return { uptimeSeconds: streakSeconds(runs, bySlot, now, intervalMs, currentSlot), uptimePct, intervalsDue: due, intervalsSucceeded: succeeded };
}

function streakSeconds(runs: readonly OracleRunRecord[], bySlot: Map<number, OracleRunStatus>, now: Date, intervalMs: number, currentSlot: number): number {
  // The newest interval that should have a result: the current one once it has finished, else the one before.
  const currentStatus = bySlot.get(currentSlot);
  let slot = currentStatus === 'SUCCESS' || currentStatus === 'FAILED' ? currentSlot : currentSlot - intervalMs;
  if (bySlot.get(slot) !== 'SUCCESS') return 0;
  while (bySlot.get(slot - intervalMs) === 'SUCCESS') slot -= intervalMs;
  const first = runs.find((run) => run.slot.getTime() === slot);
  const since = first ? first.startedAt.getTime() : slot;
  return Math.max(0, Math.floor((now.getTime() - since) / 1000));
}

/** Mean score of the successful runs of the last 24 hours (one decimal); null when there is none. */
export function averageScore24h(runs: readonly OracleRunRecord[], now: Date): number | null {
  const since = now.getTime() - DAY_MS;
  const scores = runs.filter((run) => run.status === 'SUCCESS' && run.score !== null && run.slot.getTime() > since).map((run) => run.score as number);
  if (scores.length === 0) return null;
  return Math.round((scores.reduce((sum, score) => sum + score, 0) / scores.length) * 10) / 10;
}

/** "2h 5m 7s": the spec's uptimeHuman, hours, minutes and seconds (hours not folded into days). */
export function humanDuration(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${hours}h ${minutes}m ${seconds}s`;
}

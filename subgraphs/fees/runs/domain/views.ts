/**
 * What the stability and ESG oracles' answers share, built from recorded runs (Document 1 §2, §4;
 * decision 0035): the view of the runs and the oracle's state read from it. Pure: the runs, the
 * interval and `now` are passed in.
 */
import type { IntelligenceObject } from './intelligence.js';
import { finishedRuns, type OracleRunRecord, type OracleUptime, slotOf, uptimeOf } from './runs.js';

/** How many successful runs a history lists. */
export const HISTORY_LENGTH = 24;

export type OracleDataQuality = 'LIVE' | 'PARTIAL' | 'ESTIMATED';

export interface RunsView<Output> {
  latest: OracleRunRecord<Output>;
  recent: readonly OracleRunRecord[];
}

export interface OracleState extends OracleUptime {
  /** The newest finished run's status: SUCCESS, or FAILED while the last good output is served. */
  status: 'SUCCESS' | 'FAILED';
  /** When the output served was produced. */
  lastUpdate: string;
  /** The newest interval due has a successful run. */
  fresh: boolean;
}

export function oracleState(view: RunsView<unknown>, now: Date, intervalSeconds: number): OracleState {
  const newestFinished = finishedRuns(view.recent)[0] ?? view.latest;
  const lastUpdate = view.latest.finishedAt ?? view.latest.startedAt;
  const dueSlot = slotOf(now, intervalSeconds).getTime() - intervalSeconds * 1000;
  return {
    ...uptimeOf(view.recent, now, intervalSeconds),
    status: newestFinished.status === 'FAILED' ? 'FAILED' : 'SUCCESS',
    lastUpdate: lastUpdate.toISOString(),
    fresh: view.latest.slot.getTime() >= dueSlot,
  };
}

/** The run's intelligence object as a field, or no field when the run has none. */
export const withIntelligence = (intelligence: IntelligenceObject | undefined) => (intelligence ? { intelligence } : {});

/** A run's slot (or any date) in epoch seconds. */
export const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

import { and, desc, eq, gt } from 'drizzle-orm';
import { oracleRuns } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { OracleRunRecord, OracleRunStatus } from './domain/index.js';

/** A row of oracle_runs (decision 0035). */
type OracleRunRow = typeof oracleRuns.$inferSelect;

/** Who claimed which interval of which oracle, and when. */
export type RunClaim = Pick<OracleRunRow, 'oracle' | 'slot' | 'runner' | 'startedAt'>;

/** How a claimed run ended. */
export type RunOutcome = Pick<OracleRunRow, 'score' | 'overall' | 'output' | 'error'> & {
  status: Exclude<OracleRunStatus, 'RUNNING'>;
  finishedAt: Date;
};

export interface OracleRunStore {
  /** Claims the interval for this process; false when another process (or an earlier attempt) holds it. */
  claim(claim: RunClaim): Promise<boolean>;
  /** Ends a claimed run; only the runner that claimed it can end it, once. */
  finish(claim: RunClaim, outcome: RunOutcome): Promise<void>;
  /** The newest successful run, whose output the oracle serves. */
  latestSuccess(oracle: string): Promise<OracleRunRecord | undefined>;
  /** Runs of intervals after `since`, newest first, at most `limit` (for uptime, history and averages). */
  recent(oracle: string, since: Date, limit: number): Promise<OracleRunRecord[]>;
}

function toRecord(row: OracleRunRow): OracleRunRecord {
  return { ...row, status: row.status as OracleRunStatus };
}

/** The oracle_runs table (decision 0035); every call bounded by `timeoutMs`. */
export function createOracleRunStore(db: Database, timeoutMs: number): OracleRunStore {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, timeoutMs, operation);
  return {
    async claim({ oracle, slot, runner, startedAt }) {
      const inserted = await bounded(
        db.insert(oracleRuns).values({ oracle, slot, runner, startedAt, status: 'RUNNING' }).onConflictDoNothing().returning({ slot: oracleRuns.slot }).execute(),
        'claim an oracle run',
      );
      return inserted.length === 1;
    },
    async finish(claim, outcome) {
      await bounded(
        db
          .update(oracleRuns)
          .set(outcome)
          .where(and(eq(oracleRuns.oracle, claim.oracle), eq(oracleRuns.slot, claim.slot), eq(oracleRuns.runner, claim.runner), eq(oracleRuns.status, 'RUNNING')))
          .execute(),
        'finish an oracle run',
      );
    },
    async latestSuccess(oracle) {
      const rows = await bounded(
        db
          .select()
          .from(oracleRuns)
          .where(and(eq(oracleRuns.oracle, oracle), eq(oracleRuns.status, 'SUCCESS')))
          .orderBy(desc(oracleRuns.slot))
          .limit(1)
          .execute(),
        'read the latest oracle run',
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    },
    async recent(oracle, since, limit) {
      const rows = await bounded(
        db
          .select()
          .from(oracleRuns)
          .where(and(eq(oracleRuns.oracle, oracle), gt(oracleRuns.slot, since)))
          .orderBy(desc(oracleRuns.slot))
          .limit(limit)
          .execute(),
        'read recent oracle runs',
      );
      return rows.map(toRecord);
    },
  };
}

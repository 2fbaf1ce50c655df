import type { Clock } from '../../../platform/clock.js';
import type { Health } from '../../../platform/health.js';
import type { Logger } from '../../../platform/log.js';
import { withTimeout } from '../../../platform/timeout.js';
import { slotOf } from './domain/index.js';
import type { OracleRunStore, RunClaim } from './store.js';

/** What one oracle computes in a run; it reads its feeds itself and never throws for a feed that is down. */
export interface OracleJob {
  oracle: string;
  run(now: Date): Promise<OracleJobResult>;
}

export interface OracleJobResult {
  score: number;
  overall: string;
  output: unknown;
  /**
   * Called once the run is recorded SUCCESS, with its slot (the run's id), to copy its figures
   * elsewhere (the chain, decision 0057). It must start its work and return: it is not awaited,
   * and what it throws is logged, never the run's failure.
   */
  publish?(slot: Date): void;
}

export interface OracleSchedulerOptions {
  jobs: readonly OracleJob[];
  intervalSeconds: number;
  clock: Clock;
  store: OracleRunStore;
  /** hostname:pid: who claimed a run, in the table and the log. */
  runner: string;
  logger: Logger;
  health?: Pick<Health, 'reportOutcome'>;
  /** How often the clock is looked at; a claim is tried once per interval, so ticks cost nothing in between. */
  tickMs: number;
  /** Longest a run may take; after it the run is recorded FAILED. */
  runTimeoutMs: number;
  /** Called after this process finished a run (successful or not), e.g. to refresh what it serves. */
  onRunFinished?: (oracle: string) => void;
  /** Called at the end of every tick (e.g. to re-read what other replicas ran); must not throw. */
  afterTick?: () => Promise<void>;
}

export interface OracleScheduler {
  /** Claims and runs every job whose current interval no process has claimed yet. */
  tick(): Promise<void>;
  start(): void;
  /** Stops the timer and waits for a run under way. */
  close(): Promise<void>;
}

const HEALTH_PART = 'oracle runs';

/**
 * Runs each oracle once per interval across every replica sharing the database (decision 0035):
 * the interval's row in oracle_runs is the lease, claimed by an INSERT that only one process wins.
 * A process that cannot reach the database tries again at its next tick; a run that throws or
 * overruns is recorded FAILED and the last successful run stays the one served.
 */
export function createOracleScheduler(options: OracleSchedulerOptions): OracleScheduler {
  const { jobs, intervalSeconds, clock, store, runner, logger } = options;
  const attemptedSlot = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function runDue(job: OracleJob): Promise<void> {
    const now = clock.now();
    const slot = slotOf(now, intervalSeconds);
    if (attemptedSlot.get(job.oracle) === slot.getTime()) return;
    const claim: RunClaim = { oracle: job.oracle, slot, runner, startedAt: now };
    let claimed: boolean;
    try {
      claimed = await store.claim(claim);
      options.health?.reportOutcome(HEALTH_PART, true);
    } catch (error) {
      options.health?.reportOutcome(HEALTH_PART, false, error);
      logger.warn({ err: error, oracle: job.oracle }, 'could not claim the oracle run; trying again at the next tick');
      return;
    }
    attemptedSlot.set(job.oracle, slot.getTime());
    if (claimed) await execute(job, claim);
  }

  async function execute(job: OracleJob, claim: RunClaim): Promise<void> {
    try {
      const result = await withTimeout(job.run(claim.startedAt), options.runTimeoutMs, `the ${job.oracle} oracle run`);
      await store.finish(claim, { status: 'SUCCESS', finishedAt: clock.now(), score: result.score, overall: result.overall, output: result.output, error: null });
      logger.info({ oracle: job.oracle, slot: claim.slot.toISOString(), score: result.score }, 'oracle run succeeded');
      publish(job, claim, result);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.error({ err: error, oracle: job.oracle }, 'oracle run failed');
      await store
        .finish(claim, { status: 'FAILED', finishedAt: clock.now(), score: null, overall: null, output: null, error: message.slice(0, 500) })
        .catch((finishError: unknown) => logger.error({ err: finishError, oracle: job.oracle }, 'could not record the failed oracle run'));
    }
    options.onRunFinished?.(job.oracle);
  }

  function publish(job: OracleJob, claim: RunClaim, result: OracleJobResult): void {
    try {
      result.publish?.(claim.slot);
    } catch (error) {
      logger.warn({ err: error, oracle: job.oracle }, 'could not start publishing the oracle run');
    }
  }

  function tick(): Promise<void> {
    running ??= (async () => {
      for (const job of jobs) await runDue(job);
      await options.afterTick?.();
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => void tick().finally(schedule), options.tickMs);
    timer.unref();
  }

  return {
    tick,
    start() {
      stopped = false;
      void tick().finally(schedule);
    },
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

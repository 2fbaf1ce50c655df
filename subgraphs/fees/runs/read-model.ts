import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { Logger } from '../../../platform/log.js';
import type { OracleRunRecord } from './domain/index.js';
import type { OracleRunStore } from './store.js';

/** What the oracle's answers are built from: its latest successful run and the runs of the last day. */
export interface OracleRunView<Output> {
  latest: OracleRunRecord<Output>;
  /** Newest first; at most a day of intervals (failed and running ones included, for uptime). */
  recent: OracleRunRecord[];
  /** When this view was read from the database. */
  readAt: Date;
}

export interface OracleReadModel<Output> {
  /** The view, read again when older than the refresh interval; FEE_ERR_ORACLE_NOT_READY (503) before any successful run. */
  view(): Promise<OracleRunView<Output>>;
  /** The last view read, without waiting (quotes are computed without I/O); undefined before the first read. */
  cached(): OracleRunView<Output> | undefined;
  /** Forgets the cached view so that the next call reads the database (after this process finished a run). */
  invalidate(): void;
}

export interface OracleReadModelOptions {
  oracle: string;
  store: OracleRunStore;
  clock: Clock;
  logger: Logger;
  intervalSeconds: number;
  /** How long a view is served before it is read again (other replicas may have run the oracle). */
  refreshMs: number;
}

const DAY_SECONDS = 86_400;

/**
 * The runs an oracle serves from, read from oracle_runs at most once per refresh interval for any
 * number of requests. When the database does not answer, the last view read is served (its
 * figures carry their run's time); with none, the request is a 503 with a retry hint.
 */
export function createOracleReadModel<Output>(options: OracleReadModelOptions): OracleReadModel<Output> {
  const { oracle, store, clock } = options;
  const runsPerDay = Math.ceil(DAY_SECONDS / options.intervalSeconds) + 1;
  let current: OracleRunView<Output> | undefined;
  // Refresh cadence is real elapsed time (monotonic), not the injected clock: a held test clock must not freeze the view.
  let readAtMs = 0;
  let reading: Promise<OracleRunView<Output>> | undefined;

  async function read(): Promise<OracleRunView<Output>> {
    const now = clock.now();
    const since = new Date(now.getTime() - DAY_SECONDS * 1000 - options.intervalSeconds * 1000);
    const [latest, recent] = await Promise.all([store.latestSuccess(oracle), store.recent(oracle, since, runsPerDay)]);
    if (!latest) throw notReady(options.intervalSeconds);
    current = { latest: latest as OracleRunRecord<Output>, recent, readAt: now };
    readAtMs = performance.now();
    return current;
  }

  function stale(): boolean {
    return performance.now() - readAtMs >= options.refreshMs;
  }

  return {
    async view() {
      if (current && !stale()) return current;
      reading ??= read().finally(() => {
        reading = undefined;
      });
      try {
        return await reading;
      } catch (error) {
        if (current && !(error instanceof AppError)) {
          options.logger.warn({ err: error, oracle }, 'oracle runs unreadable; serving the last view read');
          return current;
        }
        throw error;
      }
    },
    cached: () => current,
    invalidate() {
      readAtMs = Number.NEGATIVE_INFINITY;
    },
  };
}

function notReady(intervalSeconds: number): AppError {
  return new AppError('FEE_ERR_ORACLE_NOT_READY', { retryAfterSeconds: Math.min(intervalSeconds, 60) });
}

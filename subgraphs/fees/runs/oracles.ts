import { hostname } from 'node:os';
import type { PlatformServices } from '../../../platform/subgraph.js';
import type { OracleReadings } from '../domain/index.js';
import { createOracleReadModel, type OracleReadModel } from './read-model.js';
import { createOracleScheduler, type OracleJob } from './scheduler.js';
import type { OracleRunStore } from './store.js';

/** How often a replica re-reads the runs it serves (another replica may have run the oracle). */
const READ_MODEL_REFRESH_MS = 5_000;
/** How often the scheduler looks at the clock; a claim is tried once per interval. */
const SCHEDULER_TICK_MS = 1_000;

export interface OracleRunOutputs<Stability, Esg> {
  stability: Stability;
  esg: Esg;
}

export interface FeesOracles<Stability, Esg> {
  store: OracleRunStore;
  intervalSeconds: number;
  stability: OracleReadModel<Stability>;
  esg: OracleReadModel<Esg>;
  /** The latest runs as quotes report them, without waiting. */
  readings(): OracleReadings;
  /** The first run (or the read of another replica's) before the first request; then on schedule. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface FeesOracleJobs<Stability, Esg> {
  stability: OracleJob;
  esg: OracleJob;
  /** What a quote reports of each oracle's latest output. */
  readings(stability: Stability | undefined, esg: Esg | undefined, runAt: { stability?: Date; esg?: Date }): OracleReadings;
}

/** The stability and ESG oracles' runs: one scheduler for both, one read model each (decision 0035). */
export function createFeesOracles<Stability, Esg>(platform: PlatformServices, store: OracleRunStore, jobs: FeesOracleJobs<Stability, Esg>): FeesOracles<Stability, Esg> {
  const { config, clock, logger } = platform;
  const intervalSeconds = config.oracles.updateFrequencySeconds;
  const readModel = <Output>(oracle: string) => createOracleReadModel<Output>({ oracle, store, clock, logger, intervalSeconds, refreshMs: Math.min(READ_MODEL_REFRESH_MS, intervalSeconds * 1000) });
  const stability = readModel<Stability>(jobs.stability.oracle);
  const esg = readModel<Esg>(jobs.esg.oracle);
  const models = { [jobs.stability.oracle]: stability, [jobs.esg.oracle]: esg } as Record<string, OracleReadModel<unknown>>;

  /** Reads each model when stale; an oracle with no run yet, or a database that does not answer, is left as it is. */
  const refresh = async () => {
    await Promise.all([stability.view(), esg.view()].map((read) => read.catch(() => undefined)));
  };
  const scheduler = createOracleScheduler({
    jobs: [jobs.stability, jobs.esg],
    intervalSeconds,
    clock,
    store,
    runner: `${hostname()}:${process.pid}`,
    logger,
    health: platform.health,
    tickMs: SCHEDULER_TICK_MS,
    runTimeoutMs: config.oracles.runTimeoutMs,
    onRunFinished: (oracle) => models[oracle]?.invalidate(),
    afterTick: refresh,
  });
  let refresher: NodeJS.Timeout | undefined;
  let closed = false;

  return {
    store,
    intervalSeconds,
    stability,
    esg,
    readings() {
      const [latestStability, latestEsg] = [stability.cached()?.latest, esg.cached()?.latest];
      return jobs.readings(latestStability?.output ?? undefined, latestEsg?.output ?? undefined, { stability: latestStability?.slot, esg: latestEsg?.slot });
    },
    async start() {
      if (config.oracles.scheduler) {
        await scheduler.tick();
        scheduler.start();
        return;
      }
      await refresh();
      const loop = () => {
        if (closed) return;
        refresher = setTimeout(() => void refresh().finally(loop), READ_MODEL_REFRESH_MS);
        refresher.unref();
      };
      loop();
    },
    async close() {
      closed = true;
      if (refresher) clearTimeout(refresher);
      await scheduler.close();
    },
  };
}

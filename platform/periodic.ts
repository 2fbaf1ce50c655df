import type { Logger } from './log.js';

/** A job run every so often in the background (the recoveries of payments and x402 claims). */
export interface PeriodicRun {
  /** The first run after one interval; then one interval after each run ends. */
  start(): void;
  /** No run starts after it, and a run under way finishes before it returns. */
  stop(): Promise<void>;
}

/** Runs `run` every `intervalMs` from start() to stop(); a failed run is logged as `what` and the next one comes as usual. The timer keeps no process alive. */
export function createPeriodicRun(what: string, intervalMs: number, run: () => Promise<unknown>, logger: Pick<Logger, 'error'>): PeriodicRun {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => {
      running = run()
        .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
        .finally(() => {
          running = undefined;
          if (!stopped) schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  return {
    start: schedule,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

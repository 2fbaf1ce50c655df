import { hostname } from 'node:os';
import type { PlatformServices, Subgraph } from '../../../platform/subgraph.js';
import type { CallbackStore } from './store.js';
import { createCallbackWorker, webhookSigningKeyOf } from './worker.js';

/**
 * The worker's period when idle: after a run that claimed less than a full batch, the next starts
 * 1 s after it ended (decision 0027). A full batch is followed at once, and this process's own
 * commits wake it (decision 0024 §12): the period bounds only how late a worker notices rows
 * another process committed, or retries falling due.
 */
export const CALLBACK_INTERVAL_MS = 1000;

export interface CallbackDelivery {
  /** A payment's callback was committed by this process: deliver it now (the payment store's onCallbackQueued). */
  wake(): void;
  /** The subgraph whose start() starts the worker and whose close() stops it. */
  mount(subgraph: Subgraph): Subgraph;
}

/**
 * The payment callback worker (decision 0024) run by every process serving payments (decision
 * 0027): started by the subgraph's start() once migrations have run, stopped by its close() at
 * shutdown (after the last request, before the database closes; a run under way finishes first).
 * workerId is `<hostname>:<pid>`, unique per process, the lease holder's name. Private targets are
 * refused unless CALLBACK_ALLOW_PRIVATE_TARGETS is set.
 * Call in index.ts: `const delivery = createCallbackDelivery(platform, callbacks)`, pass
 * `delivery.wake` as the payment store's onCallbackQueued, `return delivery.mount({ ...the subgraph })`.
 */
export function createCallbackDelivery(platform: PlatformServices, callbacks: CallbackStore): CallbackDelivery {
  const { config } = platform;
  const worker = createCallbackWorker({
    store: callbacks,
    clock: platform.clock,
    signingKey: webhookSigningKeyOf(config),
    timeoutMs: config.callbacks.timeoutMs,
    logger: platform.logger,
    workerId: `${hostname()}:${process.pid}`,
    allowPrivateTargets: config.callbacks.allowPrivateTargets,
  });
  return {
    wake: () => worker.wake(),
    mount: (subgraph) => ({
      ...subgraph,
      async start() {
        await subgraph.start?.();
        worker.start(CALLBACK_INTERVAL_MS);
      },
      async close() {
        await worker.stop();
        await subgraph.close?.();
      },
    }),
  };
}

import { hostname } from 'node:os';
import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import type { CallbackStore } from './callback-store.js';
import { createCallbackWorker, webhookSigningKeyOf } from './callback-worker.js';

/** The worker's period: the next run starts 1 s after the previous one ended (decision 0027). */
export const CALLBACK_INTERVAL_MS = 1000;

/**
 * The payment callback worker (decision 0024) run by every process serving payments (decision
 * 0027): started by the subgraph's start() once migrations have run, stopped by its close() at
 * shutdown (after the last request, before the database closes; a run under way finishes first).
 * workerId is `<hostname>:<pid>`, unique per process, the lease holder's name. Private targets are
 * refused unless CALLBACK_ALLOW_PRIVATE_TARGETS is set.
 * Call: `return withCallbackDelivery(platform, callbacks, { ...the subgraph })` in index.ts.
 */
export function withCallbackDelivery(platform: PlatformServices, callbacks: CallbackStore, subgraph: Subgraph): Subgraph {
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
    ...subgraph,
    async start() {
      await subgraph.start?.();
      worker.start(CALLBACK_INTERVAL_MS);
    },
    async close() {
      await worker.stop();
      await subgraph.close?.();
    },
  };
}

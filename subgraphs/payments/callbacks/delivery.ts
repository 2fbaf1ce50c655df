import { hostname } from 'node:os';
import type { PlatformServices } from '../../../platform/subgraph.js';
import { type CallbackStore, createCallbackStore } from './store.js';
import { createCallbackWorker, webhookSigningKeyOf } from './worker.js';

/**
 * The worker's period when idle: after a run that claimed less than a full batch, the next starts
 * 1 s after it ended (decision 0027). A full batch is followed at once, and this process's own
 * commits wake it (decision 0024 §12): the period bounds only how late a worker notices rows
 * another process committed, or retries falling due.
 */
export const CALLBACK_INTERVAL_MS = 1000;

/** The callback outbox and its worker, as the payments subgraph runs them. */
export interface CallbackDelivery {
  /** The outbox: the payment store enqueues each final result's callback in its own transaction. */
  store: CallbackStore;
  /** A payment's callback was committed by this process: deliver it now (the payment store's onCallbackQueued). */
  wake(): void;
  /** From the subgraph's start(), once migrations have run. */
  start(): void;
  /** From the subgraph's close(): a run under way finishes first. */
  stop(): Promise<void>;
}

/**
 * The payment callback outbox and its worker (decision 0024), run by every process serving payments
 * (decision 0027): started by the subgraph's start() once migrations have run, stopped by its
 * close() at shutdown (after the last request, before the database closes; a run under way
 * finishes first). workerId is `<hostname>:<pid>`, unique per process, the lease holder's name.
 * Private targets are refused unless CALLBACK_ALLOW_PRIVATE_TARGETS is set.
 */
export function createCallbackDelivery(platform: PlatformServices): CallbackDelivery {
  const { config } = platform;
  const store = createCallbackStore(platform.database.db, { timeoutMs: config.database.statementTimeoutMs });
  const worker = createCallbackWorker({
    store,
    clock: platform.clock,
    signingKey: webhookSigningKeyOf(config),
    timeoutMs: config.callbacks.timeoutMs,
    logger: platform.logger,
    workerId: `${hostname()}:${process.pid}`,
    allowPrivateTargets: config.callbacks.allowPrivateTargets,
  });
  return {
    store,
    wake: () => worker.wake(),
    start: () => worker.start(CALLBACK_INTERVAL_MS),
    stop: () => worker.stop(),
  };
}

import type { Logger } from '../../../platform/log.js';
import { createWriteBehind } from '../../../platform/write-behind.js';
import type { ComplianceStore, VopCheckRecord } from './store.js';

/** Names the queue in logs and in `write_behind_pending` / `write_behind_dropped_total`. */
export const VOP_CHECKS_QUEUE = 'vop_checks';

/** Where the VoP history goes: written behind the answer, and read back once written (decision 0096). */
export interface VopCheckLog {
  /** Takes the check for writing; writes it before returning only when the queue cannot take it (full or closed). */
  record(check: VopCheckRecord): Promise<void>;
  /** Resolves once every check taken before the call is written (or its write failed): history reads see this process's own checks. */
  flush(): Promise<void>;
  /** At shutdown, after the last request: writes what is queued (bounded by the statement timeout). */
  close(): Promise<void>;
  readonly pending: number;
}

export interface VopCheckLogOptions {
  store: Pick<ComplianceStore, 'recordCheck' | 'recordChecks'>;
  /** How long a first check waits for company (WRITE_BEHIND_FLUSH_MS): what a crash can lose. */
  flushDelayMs: number;
  maxQueued: number;
  closeTimeoutMs: number;
  logger: Logger;
  onWriteOutcome?(ok: boolean, error?: unknown): void;
}

/**
 * The VoP history written behind the answer (decision 0096): checks gather for `flushDelayMs` and
 * go in one INSERT of at most 500 rows (platform/write-behind.ts: one batch in flight, a failed
 * batch retried every second). Nothing is dropped by a full or closed queue: the check is then
 * written before the answer, as it always was, and a failure of that write fails the request
 * before its payment settles.
 */
export function createVopCheckLog(options: VopCheckLogOptions): VopCheckLog {
  const queue = createWriteBehind<VopCheckRecord>({
    name: VOP_CHECKS_QUEUE,
    write: (checks) => options.store.recordChecks(checks),
    flushDelayMs: options.flushDelayMs,
    retryDelayMs: 1000,
    maxQueued: options.maxQueued,
    maxBatch: 500,
    closeTimeoutMs: options.closeTimeoutMs,
    logger: options.logger,
    ...(options.onWriteOutcome ? { onWriteOutcome: options.onWriteOutcome } : {}),
  });
  return {
    async record(check) {
      if (!queue.enqueue(check)) await options.store.recordCheck(check);
    },
    flush: () => queue.flush(),
    close: () => queue.close(),
    get pending() {
      return queue.pending;
    },
  };
}

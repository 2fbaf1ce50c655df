import type { Logger } from './log.js';

/**
 * A bounded write-behind queue: records are accepted at once and written in batches off the
 * request path. It is for records whose loss costs an audit line, never money (issued quotes:
 * each is verifiable from its HMAC alone, and a settlement records the one it uses).
 *
 * 1. One batch in flight at a time; records arriving meanwhile gather into the next.
 * 2. A failed batch goes back to the front of the queue and is retried after `retryDelayMs`, so a
 *    database outage loses nothing until the queue is full.
 * 3. A full queue refuses new records and counts them (`onDrop`): memory stays bounded whatever
 *    the outage lasts.
 * 4. close() writes what is queued (bounded by `closeTimeoutMs`); what cannot be written then is
 *    counted as dropped and logged with its number.
 */
export interface WriteBehindOptions<T> {
  /** Names the queue in logs and metrics, e.g. `fee_quotes`. */
  name: string;
  /** Writes one batch; rejects when it was not written (the caller bounds its own wait). */
  write(records: readonly T[]): Promise<void>;
  /** How long a first record waits for company before its batch is written. */
  flushDelayMs: number;
  retryDelayMs: number;
  maxQueued: number;
  maxBatch: number;
  closeTimeoutMs: number;
  logger: Logger;
  onDrop?(count: number): void;
  onWriteOutcome?(ok: boolean, error?: unknown): void;
}

export interface WriteBehind<T> {
  /** False when the queue was full and the record was dropped (and counted). */
  enqueue(record: T): boolean;
  /** Resolves when everything queued before the call has been written or its write has failed. */
  flush(): Promise<void>;
  /** Stops accepting, writes what is queued, reports what could not be written. */
  close(): Promise<void>;
  readonly pending: number;
}

export function createWriteBehind<T>(options: WriteBehindOptions<T>): WriteBehind<T> {
  const queue: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<boolean> | undefined;
  let writing = 0;
  let closed = false;

  const drop = (count: number) => {
    if (count > 0) options.onDrop?.(count);
  };
  const report = (ok: boolean, error?: unknown) => {
    try {
      options.onWriteOutcome?.(ok, error);
    } catch {
      // A failing observer must not fail the write it observes.
    }
  };

  function schedule(delayMs: number): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void drain();
    }, delayMs);
  }

  /** Writes one batch; true when written. A failed batch is put back in front, in order. */
  async function writeBatch(): Promise<boolean> {
    const batch = queue.splice(0, options.maxBatch);
    writing = batch.length;
    try {
      await options.write(batch);
      report(true);
      return true;
    } catch (error) {
      queue.unshift(...batch);
      report(false, error);
      return false;
    } finally {
      writing = 0;
    }
  }

  /** Writes batches until the queue is empty or a write fails (then retries later). */
  async function drain(): Promise<boolean> {
    if (inFlight) return inFlight;
    inFlight = (async () => {
      while (queue.length > 0) {
        if (!(await writeBatch())) {
          schedule(options.retryDelayMs);
          return false;
        }
      }
      return true;
    })();
    try {
      return await inFlight;
    } finally {
      inFlight = undefined;
    }
  }

  async function flush(): Promise<void> {
    if (inFlight) await inFlight;
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    await drain();
  }

  return {
    enqueue(record) {
      if (closed || queue.length >= options.maxQueued) {
        drop(1);
        return false;
      }
      queue.push(record);
      schedule(options.flushDelayMs);
      return true;
    },
    flush,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      let deadline: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        deadline = setTimeout(resolve, options.closeTimeoutMs);
      });
      await Promise.race([flush(), timedOut]).finally(() => clearTimeout(deadline));
      const unwritten = queue.length + writing;
      if (unwritten > 0) {
        options.logger.error({ queue: options.name, lost: unwritten }, 'write-behind queue closed with records it could not write');
        drop(unwritten);
        queue.length = 0;
      }
    },
    get pending() {
      return queue.length + writing;
    },
  };
}

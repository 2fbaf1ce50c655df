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
  const state: QueueState<T> = { options, queue: [], timer: undefined, inFlight: undefined, writing: 0, closed: false };
  return {
    enqueue: (record) => enqueue(state, record),
    flush: () => flush(state),
    close: () => close(state),
    get pending() {
      return state.queue.length + state.writing;
    },
  };
}

/** One queue's records and where its writing stands. */
interface QueueState<T> {
  readonly options: WriteBehindOptions<T>;
  readonly queue: T[];
  timer: NodeJS.Timeout | undefined;
  inFlight: Promise<boolean> | undefined;
  /** The records of the batch being written. */
  writing: number;
  closed: boolean;
}

function drop<T>(state: QueueState<T>, count: number): void {
  if (count > 0) state.options.onDrop?.(count);
}

function report<T>(state: QueueState<T>, ok: boolean, error?: unknown): void {
  try {
    state.options.onWriteOutcome?.(ok, error);
  } catch {
    // A failing observer must not fail the write it observes.
  }
}

function schedule<T>(state: QueueState<T>, delayMs: number): void {
  if (state.timer || state.closed) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    void drain(state);
  }, delayMs);
}

/** Writes one batch; true when written. A failed batch is put back in front, in order. */
async function writeBatch<T>(state: QueueState<T>): Promise<boolean> {
  const batch = state.queue.splice(0, state.options.maxBatch);
  state.writing = batch.length;
  try {
    await state.options.write(batch);
    report(state, true);
    return true;
  } catch (error) {
    state.queue.unshift(...batch);
    report(state, false, error);
    return false;
  } finally {
    state.writing = 0;
  }
}

/** Writes batches until the queue is empty or a write fails (then retries later). */
async function drain<T>(state: QueueState<T>): Promise<boolean> {
  if (state.inFlight) return state.inFlight;
  state.inFlight = (async () => {
    while (state.queue.length > 0) {
      if (!(await writeBatch(state))) {
        schedule(state, state.options.retryDelayMs);
        return false;
      }
    }
    return true;
  })();
  try {
    return await state.inFlight;
  } finally {
    state.inFlight = undefined;
  }
}

function enqueue<T>(state: QueueState<T>, record: T): boolean {
  if (state.closed || state.queue.length >= state.options.maxQueued) {
    drop(state, 1);
    return false;
  }
  state.queue.push(record);
  schedule(state, state.options.flushDelayMs);
  return true;
}

async function flush<T>(state: QueueState<T>): Promise<void> {
  if (state.inFlight) await state.inFlight;
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  await drain(state);
}

async function close<T>(state: QueueState<T>): Promise<void> {
  state.closed = true;
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    deadline = setTimeout(resolve, state.options.closeTimeoutMs);
  });
  await Promise.race([flush(state), timedOut]).finally(() => clearTimeout(deadline));
  const unwritten = state.queue.length + state.writing;
  if (unwritten > 0) {
    state.options.logger.error({ queue: state.options.name, lost: unwritten }, 'write-behind queue closed with records it could not write');
    drop(state, unwritten);
    state.queue.length = 0;
  }
}

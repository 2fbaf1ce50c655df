import { describe, expect, it, vi } from 'vitest';
import { createLogger } from './log.js';
import { createWriteBehind, type WriteBehindOptions } from './write-behind.js';

/** A writer that records each batch it was given and fails while `failing` is set. */
function recordingWriter() {
  const batches: number[][] = [];
  const state = { failing: false };
  const write = async (records: readonly number[]) => {
    if (state.failing) throw new Error('database unavailable');
    batches.push([...records]);
  };
  return { batches, state, write, written: () => batches.flat() };
}

function queueWith(write: WriteBehindOptions<number>['write'], overrides: Partial<WriteBehindOptions<number>> = {}) {
  const dropped: number[] = [];
  const outcomes: boolean[] = [];
  const queue = createWriteBehind<number>({
    name: 'test',
    write,
    flushDelayMs: 60_000,
    retryDelayMs: 60_000,
    maxQueued: 100,
    maxBatch: 10,
    closeTimeoutMs: 1000,
    logger: createLogger({ logLevel: 'silent' }),
    onDrop: (count) => void dropped.push(count),
    onWriteOutcome: (ok) => void outcomes.push(ok),
    ...overrides,
  });
  return { queue, dropped, outcomes };
}

describe('write-behind queue', () => {
  it('accepts records at once and writes them later in batches of at most maxBatch, in order', async () => {
    const writer = recordingWriter();
    const { queue } = queueWith(writer.write);
    for (let record = 0; record < 25; record += 1) expect(queue.enqueue(record)).toBe(true);
    expect(writer.batches).toEqual([]);
    expect(queue.pending).toBe(25);
    await queue.flush();
    expect(writer.batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(writer.written()).toEqual(Array.from({ length: 25 }, (_, index) => index));
    expect(queue.pending).toBe(0);
  });

  it('writes on its own once the flush delay has passed', async () => {
    const writer = recordingWriter();
    const { queue } = queueWith(writer.write, { flushDelayMs: 5 });
    queue.enqueue(1);
    queue.enqueue(2);
    await vi.waitFor(() => expect(writer.batches).toEqual([[1, 2]]));
  });

  it('keeps a failed batch in front and writes it on a later attempt: nothing is lost while the queue has room', async () => {
    const writer = recordingWriter();
    const { queue, dropped, outcomes } = queueWith(writer.write);
    writer.state.failing = true;
    [1, 2, 3].forEach((record) => queue.enqueue(record));
    await queue.flush();
    queue.enqueue(4);
    expect(queue.pending).toBe(4);
    writer.state.failing = false;
    await queue.flush();
    expect(writer.written()).toEqual([1, 2, 3, 4]);
    expect(dropped).toEqual([]);
    expect(outcomes).toEqual([false, true]);
  });

  it('retries a failed batch by itself after retryDelayMs', async () => {
    const writer = recordingWriter();
    const { queue } = queueWith(writer.write, { flushDelayMs: 1, retryDelayMs: 5 });
    writer.state.failing = true;
    queue.enqueue(7);
    await vi.waitFor(() => expect(queue.pending).toBe(1));
    writer.state.failing = false;
    await vi.waitFor(() => expect(writer.written()).toEqual([7]));
  });

  it('refuses records beyond maxQueued and counts them, so an outage cannot grow memory without bound', async () => {
    const writer = recordingWriter();
    const { queue, dropped } = queueWith(writer.write, { maxQueued: 3 });
    const accepted = [1, 2, 3, 4, 5].map((record) => queue.enqueue(record));
    expect(accepted).toEqual([true, true, true, false, false]);
    expect(dropped).toEqual([1, 1]);
    await queue.flush();
    expect(writer.written()).toEqual([1, 2, 3]);
  });

  it('writes everything queued when closed, then refuses new records', async () => {
    const writer = recordingWriter();
    const { queue, dropped } = queueWith(writer.write);
    Array.from({ length: 15 }, (_, index) => queue.enqueue(index));
    await queue.close();
    expect(writer.written()).toHaveLength(15);
    expect(queue.enqueue(99)).toBe(false);
    expect(dropped).toEqual([1]);
  });

  it('counts and logs what it could not write when closed during an outage', async () => {
    const writer = recordingWriter();
    const lines: string[] = [];
    const logger = createLogger({ logLevel: 'error', destination: { write: (line: string) => void lines.push(line) } });
    const { queue, dropped } = queueWith(writer.write, { logger });
    writer.state.failing = true;
    [1, 2, 3].forEach((record) => queue.enqueue(record));
    await queue.close();
    expect(dropped).toEqual([3]);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([{ queue: 'test', lost: 3 }]);
  });

  it('does not wait past closeTimeoutMs for a write that never answers, and counts its batch as lost', async () => {
    const { queue, dropped } = queueWith(() => new Promise<never>(() => {}), { closeTimeoutMs: 20 });
    [1, 2].forEach((record) => queue.enqueue(record));
    await queue.close();
    expect(dropped).toEqual([2]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { boundLogFilter, capCallGas, createRpcGate, createRpcRateLimiter, RpcRefusal } from './rpc-limits.js';

/** A piece of work that ends when told to; records whether it started and whether its signal was aborted. */
function heldWork() {
  let finish = () => {};
  const state = { started: false, aborted: false };
  const work = (signal: AbortSignal) => {
    state.started = true;
    signal.addEventListener('abort', () => (state.aborted = true));
    return new Promise<string>((resolve) => (finish = () => resolve('done')));
  };
  return { work, state, finish: () => finish() };
}

describe('the /rpc gate: one call at a time, a small queue, a bounded wait', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("refuses at once beyond the queue, answers a timeout, and keeps the turn until the node's work ends", async () => {
    const gate = createRpcGate({ queueSize: 1, timeoutMs: 1000 });
    const first = heldWork();
    const second = heldWork();
    const running = gate.run(first.work);
    const queued = gate.run(second.work);
    // 1. Beyond the one queued call: refused at once.
    await expect(gate.run(heldWork().work)).rejects.toEqual(new RpcRefusal(-32005, 'the node is busy (1 calls waiting); retry later'));
    // 2. Past the timeout both callers are answered; the queued call never reaches the node.
    vi.advanceTimersByTime(1000);
    await expect(running).rejects.toMatchObject({ code: -32000, message: 'no answer within 1000 ms; retry later' });
    await expect(queued).rejects.toMatchObject({ code: -32000 });
    expect(second.state.started).toBe(false);
    expect(first.state.aborted).toBe(true);
    // 3. The first call's work still holds the node: the next waits for it, then runs.
    const third = heldWork();
    const next = gate.run(third.work);
    await Promise.resolve();
    expect(third.state.started).toBe(false);
    first.finish();
    await vi.waitFor(() => expect(third.state.started).toBe(true));
    third.finish();
    await expect(next).resolves.toBe('done');
  });
});

describe('the caps of one call', () => {
  it.each([
    { asked: undefined, sent: '0x1e8480' },
    { asked: '0x1c9c380', sent: '0x1e8480' },
    { asked: '0x5208', sent: '0x5208' },
  ])('eth_call gas $asked is sent as $sent under a cap of 2,000,000 (0x1e8480)', ({ asked, sent }) => {
    expect(capCallGas([{ to: '0x0000000000000000000000000000000000000001', ...(asked ? { gas: asked } : {}) }, 'latest'], 2_000_000)).toEqual([
      { to: '0x0000000000000000000000000000000000000001', gas: sent },
      'latest',
    ]);
  });

  it.each([
    { filter: { fromBlock: 'earliest', toBlock: 'latest' }, latest: 99n, sent: { fromBlock: '0x0', toBlock: '0x63' } },
    { filter: {}, latest: 5000n, sent: { fromBlock: '0x1388', toBlock: '0x1388' } },
    // 50 blocks asked, the end past the head: sent up to the head.
    { filter: { fromBlock: '0x10', toBlock: '0x41' }, latest: 20n, sent: { fromBlock: '0x10', toBlock: '0x14' } },
  ])('eth_getLogs $filter at head $latest is sent as $sent', ({ filter, latest, sent }) => {
    expect(boundLogFilter([filter], latest, 100)).toEqual([sent]);
  });

  it.each([
    { filter: { fromBlock: '0x0', toBlock: '0xffffffffffffffff' }, latest: 10n },
    { filter: { fromBlock: 'earliest' }, latest: 100n },
    { filter: { fromBlock: '0x0', toBlock: 'pending' }, latest: 100n },
  ])('eth_getLogs $filter at head $latest is refused (more than 100 blocks)', ({ filter, latest }) => {
    expect(() => boundLogFilter([filter], latest, 100)).toThrow(/too large: at most 100 blocks a call/);
  });

  it('counts the calls of each address in its minute', () => {
    let now = 60_000 * 1000 + 59_000;
    const limiter = createRpcRateLimiter(3, () => now);
    expect(limiter.admit('a', 3)).toEqual({ admitted: true, retryAfterSeconds: 1 });
    expect(limiter.admit('a', 1).admitted).toBe(false);
    expect(limiter.admit('b', 1).admitted).toBe(true);
    now += 1000;
    expect(limiter.admit('a', 1)).toEqual({ admitted: true, retryAfterSeconds: 60 });
  });
});

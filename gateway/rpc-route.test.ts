import type { EIP1193Provider } from 'viem';
import { describe, expect, it } from 'vitest';
import type { RailChain } from '../platform/chain/index.js';
import type { RpcLimits } from '../platform/chain/rpc-limits.js';
import { ManualClock } from '../platform/clock.js';
import { createHttpServer } from '../platform/http.js';
import { createLogger } from '../platform/log.js';
import { registerEmbeddedRpcRoute } from './rpc-route.js';

const INTERNAL_KEY = 'k'.repeat(40);

/**
 * A chain whose node answers the rail's own requests (`provider`) at once, and whose outside
 * requests (POST /rpc without the key) are held while `holdOutside` is set, as a slow call holds the node.
 */
function fakeChain(options: { holdOutside: boolean }) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let outsideEntered: () => void = () => {};
  const entered = new Promise<void>((resolve) => (outsideEntered = resolve));
  const answering = (who: string, hold: boolean) =>
    ({
      async request() {
        if (hold) {
          outsideEntered();
          await held;
        }
        return who;
      },
    }) as unknown as EIP1193Provider;
  const embedded = { provider: answering('own', false), outside: { provider: answering('outside', options.holdOutside), quiet: async () => {} }, accounts: [] };
  const chain = { connect: async () => ({ embedded }) } as unknown as RailChain;
  return { chain, entered, release };
}

function rpcServer(chain: RailChain, limits: Partial<RpcLimits>) {
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }) });
  const all = { gasCap: 30_000_000, timeoutMs: 60_000, maxBlockRange: 1_000, maxLogs: 10_000, queueSize: 8, requestsPerMinute: 600, maxBodyBytes: 262_144, ...limits };
  registerEmbeddedRpcRoute(app, chain, all, new ManualClock(new Date('2026-01-01T00:00:00Z')), INTERNAL_KEY);
  const call = (headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/rpc', headers, payload: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] } });
  return { app, call };
}

// In a cluster every rail process reaches the chain process at its /rpc from 127.0.0.1, as the
// public port's balancer does for every outside caller: the rail's calls, made with X-Internal-Key,
// must not share the outside callers' budget or queue, or one outside caller stops every settlement.
describe("POST /rpc: the rail's own calls (X-Internal-Key) are not held up by outside callers", () => {
  it("are not counted against the address's budget", async () => {
    const { app, call } = rpcServer(fakeChain({ holdOutside: false }).chain, { requestsPerMinute: 1 });
    expect((await call()).json()).toMatchObject({ result: 'outside' });
    expect((await call()).statusCode).toBe(429);
    const internal = await call({ 'x-internal-key': INTERNAL_KEY });
    expect(internal.statusCode).toBe(200);
    expect(internal.json()).toMatchObject({ result: 'own' });
    expect((await call({ 'x-internal-key': 'x'.repeat(40) })).statusCode).toBe(429);
    await app.close();
  });

  it('do not wait in the queue of outside calls, and go to the node with the priority of the rail', async () => {
    const fake = fakeChain({ holdOutside: true });
    const { app, call } = rpcServer(fake.chain, { queueSize: 0 });
    const slow = call();
    await fake.entered;
    expect((await call()).json()).toMatchObject({ error: { message: expect.stringMatching(/busy/) } });
    expect((await call({ 'x-internal-key': INTERNAL_KEY })).json()).toMatchObject({ result: 'own' });
    fake.release();
    expect((await slow).json()).toMatchObject({ result: 'outside' });
    await app.close();
  });
});

import { describe, expect, it } from 'vitest';
import { sharedTestChain } from '../../test/helpers.js';

describe('the embedded chain', () => {
  it('keeps its clock with the wall clock when blocks come faster than one a second (x402 validity windows depend on it)', async () => {
    const { embedded, publicClient } = await sharedTestChain().connect();
    // evm_mine is a development method viem's EIP-1193 types do not list.
    const request = embedded!.provider.request.bind(embedded!.provider) as (call: { method: string; params: unknown[] }) => Promise<unknown>;
    for (let block = 0; block < 120; block += 1) await request({ method: 'evm_mine', params: [] });
    const { timestamp } = await publicClient.getBlock();
    expect(Number(timestamp)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 1);
  });
});

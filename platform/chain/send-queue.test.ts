import { type Address, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { describe, expect, it, vi } from 'vitest';
import type { ChainConnection } from './index.js';
import { localNonceKeeper, type NonceKeeper, TurnNotTaken } from './nonce-keeper.js';
import { sendContractCall, SendFailure, sendQueueFor } from './send-queue.js';

// The turn of decisions 0040 and 0087, written once for every keeper: the kept nonce, a refused
// nonce read again and sent once more, resync. The chain here is a fake node: only what the queue asks.

const account = privateKeyToAccount(generatePrivateKey());
const NONCE_TOO_LOW = new Error('nonce too low: next nonce 12, tx nonce 9');

/** A connection whose node answers `pendingNonce` for the account's pending count. */
function fakeConnection(pendingNonce: number, nonces?: NonceKeeper) {
  const node = {
    chain: base,
    getTransactionCount: vi.fn(async () => pendingNonce),
    estimateContractGas: vi.fn(async () => 50_000n),
    getBlock: vi.fn(async () => ({ baseFeePerGas: 1_000n })),
    estimateMaxPriorityFeePerGas: vi.fn(async () => 10n),
    sendRawTransaction: vi.fn(async () => '0x01'),
  };
  // One cast: the queue reads only these members of the public client.
  const connection = { mode: 'rpc', publicClient: node, contracts: {}, embedded: undefined, payment: undefined, ...(nonces ? { nonces } : {}) } as unknown as ChainConnection;
  return { connection, node };
}

/** A keeper that starts with `kept` and records what each turn kept. */
function recordingKeeper(kept: number | undefined) {
  const local = localNonceKeeper();
  const keptAfter: Array<number | undefined> = [];
  let first = true;
  const keeper: NonceKeeper = {
    inTurn: (key, turn) =>
      local.inTurn(key, async (memory) => {
        const end = await turn(first ? kept : memory);
        first = false;
        keptAfter.push(end.next);
        return end;
      }),
  };
  return { keeper, keptAfter };
}

describe('the send queue in front of a nonce keeper', () => {
  it('sends with the nonce the keeper kept, reading nothing from the chain, and keeps the next', async () => {
    const { keeper, keptAfter } = recordingKeeper(41);
    const { connection, node } = fakeConnection(3, keeper);
    await expect(sendQueueFor(connection, account.address).run(async (nonce) => nonce)).resolves.toBe(41);
    expect(node.getTransactionCount).not.toHaveBeenCalled();
    expect(keptAfter).toEqual([42]);
  });

  it('a refused nonce (another process sent it): reads the chain, sends once more, and keeps the nonce after the one used', async () => {
    const { keeper, keptAfter } = recordingKeeper(9);
    const { connection, node } = fakeConnection(12, keeper);
    const tried: number[] = [];
    const sent = await sendQueueFor(connection, account.address).run(async (nonce) => {
      tried.push(nonce);
      if (nonce < 12) throw NONCE_TOO_LOW;
      return nonce;
    });
    expect({ sent, tried, reads: node.getTransactionCount.mock.calls.length, keptAfter }).toEqual({ sent: 12, tried: [9, 12], reads: 1, keptAfter: [13] });
  });

  it('refused twice: fails, and keeps no nonce (the next turn reads the chain)', async () => {
    const { keeper, keptAfter } = recordingKeeper(9);
    const { connection } = fakeConnection(9, keeper);
    await expect(sendQueueFor(connection, account.address).run(async () => Promise.reject(NONCE_TOO_LOW))).rejects.toBe(NONCE_TOO_LOW);
    expect(keptAfter).toEqual([undefined]);
  });

  it('after resync (a receipt that never came) the next turn reads the chain, whatever the keeper kept', async () => {
    const { keeper } = recordingKeeper(20);
    const { connection, node } = fakeConnection(17, keeper);
    const queue = sendQueueFor(connection, account.address);
    queue.resync();
    await expect(queue.run(async (nonce) => nonce)).resolves.toBe(17);
    expect(node.getTransactionCount).toHaveBeenCalledTimes(1);
  });

  it('one waiter at a time per process goes to the keeper', async () => {
    let atKeeper = 0;
    let most = 0;
    const local = localNonceKeeper();
    const keeper: NonceKeeper = {
      async inTurn(key, turn) {
        atKeeper += 1;
        most = Math.max(most, atKeeper);
        try {
          return await local.inTurn(key, turn);
        } finally {
          atKeeper -= 1;
        }
      },
    };
    const { connection } = fakeConnection(0, keeper);
    const queue = sendQueueFor(connection, account.address);
    const used = await Promise.all(Array.from({ length: 5 }, () => queue.run(async (nonce) => nonce)));
    expect({ used, most }).toEqual({ used: [0, 1, 2, 3, 4], most: 1 });
  });

  it('a turn that cannot be had (the database is down) is a send that was not sent: nothing reaches the node', async () => {
    const keeper: NonceKeeper = { inTurn: () => Promise.reject(new TurnNotTaken('the database did not answer')) };
    const { connection, node } = fakeConnection(0, keeper);
    const call = {
      address: '0x0000000000000000000000000000000000000001' as Address,
      abi: parseAbi(['function approve(address spender, uint256 value)']),
      functionName: 'approve',
      args: [account.address, 1n],
    } as const;
    const failure = await sendContractCall(connection, account, call).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SendFailure);
    expect(failure).toMatchObject({ maybeSent: undefined, message: 'its turn to send could not be had (the database sharing the send queue did not answer)' });
    expect(node.sendRawTransaction).not.toHaveBeenCalled();
  });
});

import { type Address, encodeAbiParameters, encodeEventTopics, erc20Abi, getAddress, type Log } from 'viem';
import { describe, expect, it } from 'vitest';
import { transfersOf } from './funds.js';

// What a deposit is keyed by (decision 0049 §2): a transfer's position in its transaction's
// receipt, which a reorg into another block leaves as it is, not its log's position in the block.

const TOKEN = getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3');
const TREASURY = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
const OWNER = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc');
const OTHER = getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906');

function transferLog(from: Address, to: Address, value: bigint, logIndex: number): Log {
  return {
    address: TOKEN,
    topics: encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from, to } }) as Log['topics'],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
    blockHash: `0x${'ab'.repeat(32)}`,
    blockNumber: 7n,
    logIndex,
    transactionHash: `0x${'cd'.repeat(32)}`,
    transactionIndex: 1,
    removed: false,
  };
}

describe('transfersOf', () => {
  it('indexes each transfer by its position in the receipt, not the block: a transaction after one with 3 logs in the same block', () => {
    // The block's first transaction emitted logs 0-2; this one's two transfers are the block's logs 3 and 4.
    const receiptLogs = [transferLog(OWNER, TREASURY, 5_000_000n, 3), transferLog(OTHER, TREASURY, 2_000_000n, 4)];
    expect(transfersOf(receiptLogs)).toEqual([
      { address: TOKEN, logIndex: 0, from: OWNER, to: TREASURY, value: 5_000_000n },
      { address: TOKEN, logIndex: 1, from: OTHER, to: TREASURY, value: 2_000_000n },
    ]);
  });

  it('gives the same transfer the same index when the transaction is re-mined at another place in another block', () => {
    const first = transfersOf([transferLog(OWNER, TREASURY, 5_000_000n, 3)]);
    const reorged = transfersOf([{ ...transferLog(OWNER, TREASURY, 5_000_000n, 11), blockNumber: 8n, blockHash: `0x${'ef'.repeat(32)}` }]);
    expect(reorged).toEqual(first);
  });

  it('counts logs of other events in the position: a non-Transfer log before the transfer moves it to 1', () => {
    const approval: Log = { ...transferLog(OWNER, TREASURY, 1n, 3), topics: encodeEventTopics({ abi: erc20Abi, eventName: 'Approval', args: { owner: OWNER, spender: TREASURY } }) as Log['topics'] };
    expect(transfersOf([approval, transferLog(OWNER, TREASURY, 5_000_000n, 4)]).map((transfer) => transfer.logIndex)).toEqual([1]);
  });
});

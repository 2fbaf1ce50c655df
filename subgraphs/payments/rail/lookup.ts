import { keccak256, toBytes } from 'viem';
import { settlementRouterAbi } from '../../../contracts/artifacts/SettlementRouter.js';
import type { RailChain } from '../../../platform/chain/index.js';
import { withTimeout } from '../../../platform/timeout.js';
import { type SettlementOnChain, usdcTextOfUnits } from '../domain/index.js';

/**
 * Blocks searched back from the chain's head for a settled quote's Settled event: a payment is
 * recovered minutes after its send (decision 0039), and Base makes a block every 2 s, so a day of
 * blocks holds it with room to spare, within what public RPC nodes answer for one indexed topic.
 */
export const SETTLED_EVENT_SEARCH_BLOCKS = 43_200n;

/** What the settlement router says of a quote: not settled, settled (with its event), or settled with its event out of reach. */
export type QuoteOnChain = { kind: 'not-settled' } | { kind: 'settled'; settlement: SettlementOnChain } | { kind: 'event-not-found' };

export interface RailLookup {
  quoteOnChain(quoteId: string): Promise<QuoteOnChain>;
}

/**
 * Reads the router for a quote (decision 0039): settledQuotes(keccak256(quoteId)), the record the
 * router keeps so a quote settles once, then the Settled event indexed by the same hash for the
 * transaction, the fee and the block's time.
 */
export function createRailLookup(options: { chain: RailChain; timeoutMs: number }): RailLookup {
  const { chain, timeoutMs } = options;
  return {
    async quoteOnChain(quoteId) {
      const connection = await withTimeout(chain.connect(), timeoutMs * 6, 'connect to the rail');
      const { router } = connection.contracts;
      if (!router) throw new Error('the rail has no settlement router configured (CONTRACT_ROUTER)');
      const { publicClient } = connection;
      const quoteIdHash = keccak256(toBytes(quoteId));
      const settled = await withTimeout(publicClient.readContract({ address: router, abi: settlementRouterAbi, functionName: 'settledQuotes', args: [quoteIdHash] }), timeoutMs, 'read settledQuotes');
      if (!settled) return { kind: 'not-settled' };
      const head = await withTimeout(publicClient.getBlockNumber(), timeoutMs, 'read the block number');
      const fromBlock = head > SETTLED_EVENT_SEARCH_BLOCKS ? head - SETTLED_EVENT_SEARCH_BLOCKS : 0n;
      const [event] = await withTimeout(
        publicClient.getContractEvents({ address: router, abi: settlementRouterAbi, eventName: 'Settled', args: { quoteIdHash }, fromBlock, toBlock: head }),
        timeoutMs,
        'read the Settled event',
      );
      const fee = event?.args.fee;
      // A log without its fee is not the router's Settled event as compiled here: never guessed.
      if (!event?.transactionHash || event.blockNumber === null || fee === undefined) return { kind: 'event-not-found' };
      const block = await withTimeout(publicClient.getBlock({ blockNumber: event.blockNumber }), timeoutMs, 'read the settlement block');
      return { kind: 'settled', settlement: { txHash: event.transactionHash, fee: usdcTextOfUnits(fee), settledAt: Number(block.timestamp) } };
    },
  };
}

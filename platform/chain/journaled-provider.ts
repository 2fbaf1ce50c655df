import { type EIP1193Provider, type Hash, type Hex, keccak256, numberToHex } from 'viem';
import type { ChainJournal, JournalLine } from './chain-journal.js';

/**
 * The embedded EVM's provider with every mined block written to the chain journal before anyone
 * learns of it (decision 0052):
 * 1. A request that mines (eth_sendRawTransaction; evm_mine, which tests use) runs alone, in
 *    order, and returns only once the blocks it made are on disk: the caller learns a
 *    transaction's hash, or asks for its receipt, only after it is kept.
 * 2. Every other request waits for the mining request in flight, if any, and its journaling.
 * 3. Requests that change the chain outside a block (hardhat_*, evm_* but evm_mine, and
 *    eth_sendTransaction, whose signed bytes the journal would not have) are refused: a replay
 *    could not make them again.
 * 4. A journal that cannot be written (a full disk) leaves the chain answering nothing more, so
 *    no one is ever told of a transaction a restart would lose.
 */
export interface RawRequest {
  method: string;
  params?: readonly unknown[];
}

const MINES = new Set(['eth_sendRawTransaction', 'evm_mine']);

function changesChainOutsideBlocks(method: string): boolean {
  return method === 'eth_sendTransaction' || ((method.startsWith('hardhat_') || method.startsWith('evm_')) && !MINES.has(method));
}

/** A JSON-RPC error as EIP-1193 providers throw them: viem reads the code. */
export class ProviderRefusal extends Error {
  override name = 'ProviderRefusal';
  constructor(
    message: string,
    readonly code: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface BlockHeader {
  number: Hex;
  timestamp: Hex;
  hash: Hash;
  transactions: Hash[];
}

export function journaledProvider(inner: EIP1193Provider, journal: ChainJournal, lastJournaledBlock: number): EIP1193Provider {
  const request = (call: RawRequest) => inner.request(call as Parameters<EIP1193Provider['request']>[0]) as Promise<unknown>;
  let journaled = lastJournaledBlock;
  let mining: Promise<unknown> = Promise.resolve();
  let broken: Error | undefined;

  /** The blocks after the last journaled one, written to the journal; `sent` maps a transaction hash to its signed bytes. */
  async function journalNewBlocks(sent: ReadonlyMap<Hash, Hex>): Promise<void> {
    const latest = Number(await request({ method: 'eth_blockNumber' }));
    const lines: JournalLine[] = [];
    for (let number = journaled + 1; number <= latest; number += 1) {
      const block = (await request({ method: 'eth_getBlockByNumber', params: [numberToHex(number), false] })) as BlockHeader;
      const transactions = block.transactions.map((hash) => {
        const raw = sent.get(hash);
        if (!raw) throw new Error(`block ${number} holds transaction ${hash}, which was not sent as signed bytes`);
        return raw;
      });
      lines.push({ block: { number, timestamp: Number(block.timestamp), hash: block.hash, transactions } });
    }
    await journal.append(lines);
    journaled = latest;
  }

  async function mine(call: RawRequest): Promise<unknown> {
    const raw = call.method === 'eth_sendRawTransaction' ? call.params?.[0] : undefined;
    const sent = new Map<Hash, Hex>(typeof raw === 'string' && raw.startsWith('0x') ? [[keccak256(raw as Hex), raw as Hex]] : []);
    const outcome = await request(call).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    try {
      await journalNewBlocks(sent);
    } catch (error) {
      broken = new Error(`the embedded chain's journal ${journal.path} could not be written; the chain answers nothing more until the process restarts`, { cause: error });
      throw broken;
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }

  const provider = {
    async request(call: RawRequest): Promise<unknown> {
      if (broken) throw broken;
      if (changesChainOutsideBlocks(call.method)) throw new ProviderRefusal(`${call.method} is not available on a chain kept in DATA_DIR (a restart could not replay it)`, -32601);
      if (MINES.has(call.method)) {
        const turn = mining.then(() => mine(call));
        mining = turn.catch(() => undefined);
        return turn;
      }
      await mining;
      if (broken) throw broken;
      return request(call);
    },
    on: inner.on.bind(inner),
    removeListener: inner.removeListener.bind(inner),
  };
  return provider as unknown as EIP1193Provider;
}

import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import { type Chain, createPublicClient, createWalletClient, custom, type EIP1193Provider, type Hash, numberToHex, type PublicClient, type Transport, type WalletClient } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { type ChainJournal, ChainJournalError, type JournaledBlock } from './chain-journal.js';
import { accountsOfMnemonic, generateChainMnemonic } from './chain-mnemonic.js';
import { journaledProvider, type RawRequest } from './journaled-provider.js';
import { ownFirst } from './own-first.js';

/**
 * The public test mnemonic of Hardhat and Anvil. No longer the rail's default (decision 0052: the
 * rail's accounts come from a secret mnemonic): kept for the tests and benches that sign as the
 * rail's accounts from another process, which give it to the server as EMBEDDED_CHAIN_MNEMONIC,
 * and for the attack tests showing its keys move nothing on a default rail.
 */
export const DEVELOPMENT_MNEMONIC = 'test test test test test test test test test test test junk';
/** The rail's accounts: the first ones of the chain's mnemonic (index 0 deploys and owns the contracts). */
export const DEVELOPMENT_ACCOUNT_COUNT = 10;
/**
 * The accounts the genesis funds with ETH: Hardhat's default count, so that a chain made with a
 * given mnemonic has the same genesis it had when Hardhat chose the accounts (decision 0052).
 */
const GENESIS_ACCOUNT_COUNT = 20;

export interface EmbeddedChain {
  /** The platform's own way to the node (the clients below use it). */
  provider: EIP1193Provider;
  /** For outside callers (POST /rpc): `provider` without the priority, and the wait that gives the platform's requests theirs (own-first.ts). */
  outside: { provider: EIP1193Provider; quiet(signal: AbortSignal): Promise<void> };
  publicClient: PublicClient;
  /** The rail's funded accounts, derived from the chain's secret mnemonic, as local signers (index 0 deploys and owns the contracts). */
  accounts: HDAccount[];
  walletFor(account: HDAccount): WalletClient<Transport, Chain, HDAccount>;
  close(): Promise<void>;
}

export interface EmbeddedChainOptions {
  /** Where the chain is kept across restarts (decision 0052); without one it lives in memory only. */
  journal?: ChainJournal;
  /** The secret the accounts are derived from (chain-mnemonic.ts); without one, a fresh one for this start only. */
  mnemonic?: string;
}

type Request = (call: RawRequest) => Promise<unknown>;

interface BlockHeader {
  hash: Hash;
  timestamp: `0x${string}`;
}

/**
 * Mines the journal's blocks again, each with its own transactions and timestamp, and checks the
 * last block's hash: it covers every block before it (each header holds its parent's hash), so a
 * replay that differed anywhere is refused rather than served.
 */
async function replay(request: Request, blocks: readonly JournaledBlock[]): Promise<void> {
  for (const block of blocks) {
    for (const raw of block.transactions) await request({ method: 'eth_sendRawTransaction', params: [raw] });
    await request({ method: 'evm_mine', params: [block.timestamp] });
  }
  const last = blocks.at(-1);
  if (!last) return;
  const mined = (await request({ method: 'eth_getBlockByNumber', params: [numberToHex(last.number), false] })) as BlockHeader | null;
  if (mined?.hash !== last.hash) throw new ChainJournalError(`replaying the chain journal made block ${last.number} with hash ${mined?.hash ?? 'none'}, not ${last.hash} as recorded`);
  await request({ method: 'evm_setAutomine', params: [true] });
  // evm_mine with a timestamp set the chain's clock that far behind the wall clock: put it back.
  const behind = Math.floor(Date.now() / 1000) - last.timestamp;
  if (behind > 0) await request({ method: 'evm_increaseTime', params: [behind] });
}

/**
 * An in-process EVM (Hardhat's EDR) answering as Base (chainId 8453), with the accounts of the
 * given mnemonic funded: `npm start` and the tests need no node, no network and no download.
 * Given a journal, it starts from the chain the journal holds (made with the same mnemonic), and
 * keeps every block it mines there.
 */
export async function startEmbeddedChain(options: EmbeddedChainOptions = {}): Promise<EmbeddedChain> {
  const { journal, mnemonic = generateChainMnemonic() } = options;
  const kept = journal?.contents;
  const restoring = kept?.genesis !== undefined;
  // Blocks may share a second: mined faster than one a second, the chain's clock would otherwise
  // run ahead of the wall clock, and authorizations valid "before now + 60 s" would start failing.
  // A transaction that reverts or runs out of gas is mined and answered with its hash, as a real
  // node does (Hardhat's default answers an error although it mined it, nonce used; decision 0040).
  // The genesis block's hash depends on its timestamp: a restored chain starts from the same one.
  const network = {
    type: 'edr-simulated',
    chainId: base.id,
    allowBlocksWithSameTimestamp: true,
    throwOnTransactionFailures: false,
    initialDate: new Date((kept?.genesis?.timestamp ?? Math.floor(Date.now() / 1000)) * 1000),
    mining: { auto: !(restoring && kept.blocks.length > 0) },
    accounts: { mnemonic, count: GENESIS_ACCOUNT_COUNT },
  } as const;
  const hre = await createHardhatRuntimeEnvironment({ networks: { rail: network } }, {}, process.cwd());
  const connection = await hre.network.connect({ network: 'rail' });
  try {
    const edr = connection.provider as unknown as EIP1193Provider;
    const request: Request = (call) => edr.request(call as Parameters<EIP1193Provider['request']>[0]) as Promise<unknown>;
    const genesis = (await request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as BlockHeader;
    if (journal && kept?.genesis) {
      if (genesis.hash !== kept.genesis.hash)
        throw new ChainJournalError(
          `the chain journal ${journal.path} starts from genesis ${kept.genesis.hash}, this EVM from ${genesis.hash} (another Hardhat version, or another EMBEDDED_CHAIN_MNEMONIC than the chain was made with?)`,
        );
      await replay(request, kept.blocks);
    } else if (journal) {
      await journal.append([{ genesis: { timestamp: Number(genesis.timestamp), hash: genesis.hash } }]);
    }
    const node = journal ? journaledProvider(edr, journal, kept?.blocks.length ?? 0) : edr;
    const { own: provider, quiet } = ownFirst(node);
    const transport = custom(provider);
    const accounts = accountsOfMnemonic(mnemonic, DEVELOPMENT_ACCOUNT_COUNT);
    return {
      provider,
      outside: { provider: node, quiet },
      publicClient: createPublicClient({ chain: base, transport }) as PublicClient,
      accounts,
      walletFor: (account) => createWalletClient({ account, chain: base as Chain, transport }),
      async close() {
        await connection.close();
        await journal?.close();
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

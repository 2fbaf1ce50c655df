import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import { createPublicClient, createWalletClient, custom, type Chain, type EIP1193Provider, type PublicClient, type Transport, type WalletClient } from 'viem';
import { mnemonicToAccount, type HDAccount } from 'viem/accounts';
import { base } from 'viem/chains';

/**
 * The public test mnemonic of Hardhat and Anvil: its first accounts are the ones the embedded
 * network funds. Development only; anyone can sign for these accounts.
 */
export const DEVELOPMENT_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEVELOPMENT_ACCOUNT_COUNT = 10;

export interface EmbeddedChain {
  provider: EIP1193Provider;
  publicClient: PublicClient;
  /** The funded development accounts, as local signers (index 0 deploys and owns the contracts). */
  accounts: HDAccount[];
  walletFor(account: HDAccount): WalletClient<Transport, Chain, HDAccount>;
  close(): Promise<void>;
}

/**
 * An in-process EVM (Hardhat's EDR) answering as Base (chainId 8453), with the development
 * accounts funded: `npm start` and the tests need no node, no network and no download.
 */
export async function startEmbeddedChain(): Promise<EmbeddedChain> {
  // Blocks may share a second: mined faster than one a second, the chain's clock would otherwise
  // run ahead of the wall clock, and authorizations valid "before now + 60 s" would start failing.
  // A transaction that reverts or runs out of gas is mined and answered with its hash, as a real
  // node does (Hardhat's default answers an error although it mined it, nonce used; decision 0040).
  const network = { type: 'edr-simulated', chainId: base.id, allowBlocksWithSameTimestamp: true, throwOnTransactionFailures: false } as const;
  const hre = await createHardhatRuntimeEnvironment({ networks: { rail: network } }, {}, process.cwd());
  const connection = await hre.network.connect({ network: 'rail' });
  const provider = connection.provider as unknown as EIP1193Provider;
  const transport = custom(provider);
  const accounts = Array.from({ length: DEVELOPMENT_ACCOUNT_COUNT }, (_, addressIndex) => mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex }));
  return {
    provider,
    publicClient: createPublicClient({ chain: base, transport }) as PublicClient,
    accounts,
    walletFor: (account) => createWalletClient({ account, chain: base as Chain, transport }),
    close: () => connection.close(),
  };
}

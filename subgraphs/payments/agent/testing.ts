// Test support for the settlement agent's tests (not a test file itself): an agent registered with
// the compliance oracle, its key, and its owner's funds deposited on the embedded rail as an owner
// would (decisions 0048, 0049): a fresh wallet, funded by a development account, bound to the agent
// by its own signature, transferring the rail's token to the treasury, the deposit then credited.

import { type Address, createWalletClient, custom, type Hash, parseEther, parseUnits } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { expect } from 'vitest';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { injectJson, type TestServer } from '../../../test/helpers.js';
import { EMBEDDED_TREASURY_ACCOUNT_INDEX } from '../rail/settlement.js';
import { fundingWalletMessage } from './domain/index.js';

/** The development account that funds the test owners' wallets (not one the rail sends from: #0 deploys and settles x402, #8 is the treasury, #9 takes fees). */
const FUNDER_ACCOUNT_INDEX = 3;

export interface TestAgent {
  agentId: string;
  agentKey: string;
  /** X-Agent-Id and X-Agent-Key. */
  headers: Record<string, string>;
}

export const agentHeaders = (agentId: string, agentKey: string) => ({ 'x-agent-id': agentId, 'x-agent-key': agentKey });

/** Registers an agent (REGISTERED unless the body says otherwise) and answers its id and key. */
export async function registerTestAgent(server: TestServer, body: Record<string, unknown> = {}): Promise<TestAgent> {
  const registered = await injectJson(server, 'POST', '/compliance/agent/register', {
    payload: { name: 'Treasury bot', ownerEntity: 'Acme', ownerEmail: 'bot@acme.example', protocols: ['ap2'], ...body },
  });
  expect(registered.status).toBe(201);
  const { agentId, agentKey } = registered.body as { agentId: string; agentKey: string };
  return { agentId, agentKey, headers: agentHeaders(agentId, agentKey) };
}

/** Sends from a development account and waits for the receipt. */
async function mined(rail: ChainConnection, hash: Hash): Promise<void> {
  const receipt = await rail.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
}

/** Gives the account `usd` of the rail's token and a little ether for gas, from a development account. */
export async function fundWallet(rail: ChainConnection, account: PrivateKeyAccount, usd: string): Promise<PrivateKeyAccount> {
  const funder = rail.embedded!.walletFor(rail.embedded!.accounts[FUNDER_ACCOUNT_INDEX]!);
  await mined(rail, await funder.sendTransaction({ to: account.address, value: parseEther('1') }));
  await mined(rail, await funder.writeContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'transfer', args: [account.address, parseUnits(usd, 6)] }));
  return account;
}

/** A fresh owner wallet holding `usd` of the rail's token and a little ether for gas. */
export const ownerWallet = (rail: ChainConnection, usd: string): Promise<PrivateKeyAccount> => fundWallet(rail, privateKeyToAccount(generatePrivateKey()), usd);

export const treasuryOf = (rail: ChainConnection): Address => rail.embedded!.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX]!.address;

/** The owner's transfer of `usd` to the treasury, mined; its hash. */
export async function transferToTreasury(rail: ChainConnection, owner: PrivateKeyAccount, usd: string): Promise<Hash> {
  // A local signer over the rail's own client: the transaction is signed here and sent raw.
  const wallet = createWalletClient({ account: owner, chain: base, transport: custom({ request: rail.publicClient.request }) });
  const hash = await wallet.writeContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'transfer', args: [treasuryOf(rail), parseUnits(usd, 6)] });
  await mined(rail, hash);
  return hash;
}

/** Binds the owner's wallet to the agent with the wallet's signature (POST /agent/funding-wallets). */
export async function bindFundingWallet(server: TestServer, rail: ChainConnection, agent: TestAgent, owner: PrivateKeyAccount) {
  const chainId = await rail.publicClient.getChainId();
  const signature = await owner.signMessage({ message: fundingWalletMessage(agent.agentId, owner.address, chainId) });
  return injectJson(server, 'POST', '/agent/funding-wallets', { headers: agent.headers, payload: { walletAddress: owner.address, signature } });
}

/** The whole of an owner's funding: a wallet bound to the agent, `usd` transferred to the treasury and credited. */
export async function fundAgent(server: TestServer, rail: ChainConnection, agent: TestAgent, usd: string): Promise<{ owner: PrivateKeyAccount; txHash: Hash }> {
  const owner = await ownerWallet(rail, usd);
  expect((await bindFundingWallet(server, rail, agent, owner)).status).toBe(200);
  const txHash = await transferToTreasury(rail, owner, usd);
  const deposit = await injectJson(server, 'POST', '/agent/deposits', { headers: agent.headers, payload: { txHash } });
  expect(deposit.status).toBe(200);
  return { owner, txHash };
}

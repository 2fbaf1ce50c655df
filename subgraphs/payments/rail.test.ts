import { randomBytes } from 'node:crypto';
import { toHex, type Address } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfiguredRailChain } from '../../gateway/platform-services.js';
import { DEVELOPMENT_MNEMONIC } from '../../platform/chain/embedded-chain.js';
import type { ChainConnection, RailChain } from '../../platform/chain/index.js';
import { startTestServer, testConfig, type TestServer } from '../../test/helpers.js';
import { freshWallet } from './integration-testing.js';
import { createRailSettlement, type SettlementOrder } from './rail.js';

// The treasury on RPC_URL is the RAIL_SETTLER_KEY account, whether or not x402 payments are taken:
// with PAY_TO unset (no x402 payee) the chain has no x402 settler, and payments used to FAIL with
// "the rail has no settlement account (RAIL_SETTLER_KEY)" although the key was set.

const settler = mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: 5 });
const settlerKey = toHex(settler.getHdKey().privateKey!);
const order = (payee: Address): SettlementOrder => ({ payee, amount: 3_000_000n, hasFx: false, esgScore: 50, monthlyVolumeUsd: 0, quoteId: `srq-1-${randomBytes(16).toString('hex')}` });

let server: TestServer;
let rpcUrl: string;
let embedded: ChainConnection;
const chains: RailChain[] = [];

beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['fees'] });
  rpcUrl = `${await server.app.listen({ port: 0, host: '127.0.0.1' })}/rpc`;
  embedded = await server.platform!.chain.connect();
}, 60_000);
afterAll(async () => {
  for (const chain of chains) await chain.close();
  await server?.close();
});

function rpcChain(environment: Record<string, string>): RailChain {
  const chain = createConfiguredRailChain(testConfig({ RPC_URL: rpcUrl, CONTRACT_TOKEN: embedded.contracts.token!, CONTRACT_ROUTER: embedded.contracts.router!, ...environment }));
  chains.push(chain);
  return chain;
}

describe('settlement on RPC_URL', () => {
  it('settles from the RAIL_SETTLER_KEY account with PAY_TO unset (no x402 payee)', async () => {
    const chain = rpcChain({ RAIL_SETTLER_KEY: settlerKey });
    expect((await chain.connect()).payment).toBeUndefined();
    const payee = freshWallet();
    const receipt = await createRailSettlement({ chain, timeoutMs: 5_000, settlerKey }).settle(order(payee));
    expect(receipt.payer).toBe(settler.address);
    const sent = await embedded.publicClient.getTransactionReceipt({ hash: receipt.txHash });
    expect(sent.from.toLowerCase()).toBe(settler.address.toLowerCase());
  });

  it('settles twice in a row from that account (the allowance set once, the nonces in order)', async () => {
    const chain = rpcChain({ RAIL_SETTLER_KEY: settlerKey, FACILITATOR_URL: 'http://127.0.0.1:9/facilitator' });
    const rail = createRailSettlement({ chain, timeoutMs: 5_000, settlerKey });
    const first = await rail.settle(order(freshWallet()));
    const second = await rail.settle(order(freshWallet()));
    expect([first.payer, second.payer]).toEqual([settler.address, settler.address]);
    expect(first.txHash).not.toBe(second.txHash);
  });

  it('still names the missing key when RAIL_SETTLER_KEY is unset', async () => {
    const chain = rpcChain({});
    await expect(createRailSettlement({ chain, timeoutMs: 5_000 }).settle(order(freshWallet()))).rejects.toThrow(/no settlement account \(RAIL_SETTLER_KEY\)/);
  });
});

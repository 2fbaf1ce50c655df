import { randomBytes } from 'node:crypto';
import { type Address, type EIP1193Provider, type Hash, parseUnits, toHex } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../../../contracts/artifacts/SettlementRouter.js';
import { createConfiguredRailChain } from '../../../gateway/platform-services.js';
import { createX402 } from '../../../platform/access/x402.js';
import type { ChainConnection, RailChain } from '../../../platform/chain/index.js';
import { FEE_READ_PERIOD_MS } from '../../../platform/chain/send-queue.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { openTestPglite, sharedTestChain, startTestServer, TEST_NOW, testConfig, type TestServer } from '../../../test/helpers.js';
import { freshWallet } from '../integration/testing.js';
import { createRailSettlement, MAX_SETTLEMENT_BATCH, RailError, railTreasuryOf, type SettlementOrder } from './settlement.js';

// The treasury on RPC_URL is the RAIL_SETTLER_KEY account, whether or not x402 payments are taken:
// with PAY_TO unset (no x402 payee) the chain has no x402 settler, and payments used to FAIL with
// "the rail has no settlement account (RAIL_SETTLER_KEY)" although the key was set. With PAY_TO
// set, the same account settles x402 payments too: one send queue orders both (decision 0040).

// The settler is one of the rail's own accounts (#5): this process holds the chain, so it may hand
// the account's key to its clients on RPC_URL.
let settler: HDAccount;
let settlerKey: `0x${string}`;
const order = (payee: Address): SettlementOrder => ({ payee, amount: 3_000_000n, hasFx: false, esgScore: 50, monthlyVolumeUsd: 0, quoteId: `srq-1-${randomBytes(16).toString('hex')}` });

/** Shared by the server and its RPC_URL clients: /rpc sends for the rail's accounts only with it (decision 0051). */
const INTERNAL_KEY = 'rail-test-internal-key-0123456789abcdef';

/** The JSON-RPC methods the server's /rpc was asked, in order: every request of a chain on RPC_URL. */
const asked: string[] = [];
/** While set, /rpc answers eth_estimateGas with this gas instead of the node's estimate: a node that underestimates. */
let estimateOverride: bigint | undefined;
/** The same for the next estimate only. */
let nextEstimateOverride: bigint | undefined;

/**
 * The worker's embedded chain with the providers the /rpc route answers through wrapped: outside
 * callers', and the rail's own (a caller with X-Internal-Key, as these chains on RPC_URL are, goes to
 * the node with the rail's priority: decision 0092).
 */
function observedChain(chain: RailChain): RailChain {
  const observed = (provider: EIP1193Provider): EIP1193Provider => {
    const request = async (call: { method: string; params?: unknown }) => {
      asked.push(call.method);
      if (call.method === 'eth_estimateGas' && nextEstimateOverride !== undefined) {
        const gas = nextEstimateOverride;
        nextEstimateOverride = undefined;
        return toHex(gas);
      }
      if (call.method === 'eth_estimateGas' && estimateOverride !== undefined) return toHex(estimateOverride);
      return provider.request(call as never);
    };
    return { ...provider, request } as EIP1193Provider;
  };
  const observe = (connection: ChainConnection): ChainConnection => {
    const embedded = connection.embedded!;
    return { ...connection, embedded: { ...embedded, provider: observed(embedded.provider), outside: { ...embedded.outside, provider: observed(embedded.outside.provider) } } };
  };
  return { ...chain, connect: () => chain.connect().then(observe) };
}

let server: TestServer;
let rpcUrl: string;
let embedded: ChainConnection;
let database: DatabaseHandle;
const chains: RailChain[] = [];

beforeAll(async () => {
  // The chains on RPC_URL below are the rail's own clients of this /rpc, settling batches of up to 50
  // payments (about 3.4 million gas) many times a minute: the caps of outside callers (decision 0051) are lifted.
  const rpcLimits = { EMBEDDED_RPC_GAS_CAP: '16000000', EMBEDDED_RPC_RATE_LIMIT: '1000000', EMBEDDED_RPC_QUEUE_SIZE: '1000', EMBEDDED_RPC_TIMEOUT_MS: '60000' };
  // They send for the rail's (development) accounts, which /rpc allows only with the shared INTERNAL_KEY.
  server = await startTestServer({ subgraphs: ['fees'], chain: observedChain(sharedTestChain()), environment: { ...rpcLimits, INTERNAL_KEY } });
  rpcUrl = `${await server.app.listen({ port: 0, host: '127.0.0.1' })}/rpc`;
  embedded = await sharedTestChain().connect();
  settler = embedded.embedded!.accounts[5]!;
  settlerKey = toHex(settler.getHdKey().privateKey!);
  database = await openTestPglite();
}, 60_000);
afterAll(async () => {
  for (const chain of chains) await chain.close();
  await server?.close();
  await database?.close();
});

function rpcChain(environment: Record<string, string>): RailChain {
  const chain = createConfiguredRailChain(testConfig({ RPC_URL: rpcUrl, CONTRACT_TOKEN: embedded.contracts.token!, CONTRACT_ROUTER: embedded.contracts.router!, INTERNAL_KEY, ...environment }));
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

describe('one account settling x402 payments and payments (RPC_URL with PAY_TO, RAIL_SETTLER_KEY both)', () => {
  const PRICE = { amount: 2_000_000n, description: 'A test report' };
  const RESOURCE = 'http://127.0.0.1/paid';

  it('settles an x402 payment and payments sent at the same moment, all on consecutive nonces of that account', async () => {
    const chain = rpcChain({ RAIL_SETTLER_KEY: settlerKey, PAY_TO: freshWallet() });
    const connection = await chain.connect();
    expect(connection.payment?.settler?.account.address).toBe(settler.address);
    const rail = createRailSettlement({ chain, timeoutMs: 5_000, settlerKey });
    const x402 = createX402({ chain, db: database.db, clock: { now: () => new Date(TEST_NOW) } });
    // 1. The router's allowance first, so each settlement below is one transaction.
    await rail.settle(order(freshWallet()));
    // 2. Authorizations signed by two payers, then everything at once.
    const requirements = await x402.requirementsFor(PRICE, RESOURCE);
    const payer = (index: number) => embedded.embedded!.walletFor(embedded.embedded!.accounts[index]!);
    const headers = await Promise.all([6, 7].map((index) => createPaymentHeader(payer(index) as never, 1, requirements)));
    const [paid, settled] = await Promise.all([Promise.all(headers.map((header) => x402.pay(header, PRICE, RESOURCE))), Promise.all([1, 2, 3].map(() => rail.settle(order(freshWallet()))))]);
    // 3. All succeeded, from the one account, on consecutive nonces: the two x402 transfers and the
    //    payments' transaction (the three payments sent at one moment settle together, decision 0041).
    expect(new Set(settled.map((receipt) => receipt.txHash)).size).toBe(1);
    const hashes = [...paid.map((outcome) => (outcome.ok ? (outcome.transaction as Hash) : expect.fail(`x402 refused: ${outcome.reason}`))), settled[0]!.txHash];
    const sent = await Promise.all(hashes.map((hash) => embedded.publicClient.getTransaction({ hash })));
    const receipts = await Promise.all(hashes.map((hash) => embedded.publicClient.getTransactionReceipt({ hash })));
    expect(receipts.map((receipt) => receipt.status)).toEqual(hashes.map(() => 'success'));
    expect(new Set(sent.map((transaction) => transaction.from.toLowerCase()))).toEqual(new Set([settler.address.toLowerCase()]));
    const nonces = sent.map((transaction) => transaction.nonce).sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, index) => nonces[0]! + index));
  });
});

describe('JSON-RPC requests per settlement (decision 0040)', () => {
  it('asks the node three times per settlement once the nonce and fees are known: the estimate, the send, the receipt', async () => {
    const chain = rpcChain({ RAIL_SETTLER_KEY: settlerKey });
    const rail = createRailSettlement({ chain, timeoutMs: 5_000, settlerKey });
    // The fee period is measured with Date.now: held still, the fees read by the first settlement stay fresh.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // 1. The first settlement reads the allowance, the nonce and the fees.
      await rail.settle(order(freshWallet()));
      expect(asked).toContain('eth_getTransactionCount');
      // 2. Before decision 0040 every settlement asked six: eth_getTransactionCount, eth_getBlockByNumber,
      //    eth_maxPriorityFeePerGas, eth_estimateGas, eth_sendRawTransaction, eth_getTransactionReceipt.
      asked.length = 0;
      await rail.settle(order(freshWallet()));
      expect(asked.toSorted()).toEqual(['eth_estimateGas', 'eth_getTransactionReceipt', 'eth_sendRawTransaction']);
      // 3. A fee period later the fees are read again (2 more), the nonce still is not.
      vi.setSystemTime(Date.now() + FEE_READ_PERIOD_MS);
      asked.length = 0;
      await rail.settle(order(freshWallet()));
      expect(asked.toSorted()).toEqual(['eth_estimateGas', 'eth_getBlockByNumber', 'eth_getTransactionReceipt', 'eth_maxPriorityFeePerGas', 'eth_sendRawTransaction']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the nonce again when the node refuses it (another process sent from the same key), and settles', async () => {
    const chain = rpcChain({ RAIL_SETTLER_KEY: settlerKey });
    const rail = createRailSettlement({ chain, timeoutMs: 5_000, settlerKey });
    await rail.settle(order(freshWallet()));
    // 1. Another sender takes the nonce this process's queue holds for the account.
    const other = embedded.embedded!.walletFor(settler);
    await embedded.publicClient.waitForTransactionReceipt({ hash: await other.sendTransaction({ to: freshWallet(), value: 1n }) });
    // 2. The settlement is refused once (nonce too low), then sent with the chain's nonce.
    asked.length = 0;
    const receipt = await rail.settle(order(freshWallet()));
    expect(asked.filter((method) => method === 'eth_sendRawTransaction')).toHaveLength(2);
    expect(asked).toContain('eth_getTransactionCount');
    expect((await embedded.publicClient.getTransactionReceipt({ hash: receipt.txHash })).status).toBe('success');
  });

  it('fails a settlement that runs out of gas with the reason and its hash, and the next one settles', async () => {
    const chain = rpcChain({ RAIL_SETTLER_KEY: settlerKey });
    const rail = createRailSettlement({ chain, timeoutMs: 5_000, settlerKey });
    await rail.settle(order(freshWallet()));
    // settle() uses about 103,000 gas to a known payee and 120,000 to a new one (decision 0040): 50,000 runs out.
    estimateOverride = 50_000n;
    const failure = await rail.settle(order(freshWallet())).then(
      () => expect.fail('settled on 50,000 gas'),
      (error: unknown) => error,
    );
    estimateOverride = undefined;
    expect(failure).toBeInstanceOf(RailError);
    expect((failure as RailError).message).toBe("the settlement transaction ran out of gas (limit 50000, the node's estimate)");
    const mined = await embedded.publicClient.getTransactionReceipt({ hash: (failure as RailError).txHash! });
    expect({ status: mined.status, gasUsed: mined.gasUsed }).toEqual({ status: 'reverted', gasUsed: 50_000n });
    expect((await rail.settle(order(freshWallet()))).payer).toBe(settler.address);
  });
});

describe("the account payments settle from (railTreasuryOf), the settlement agent's debtor too", () => {
  it('is the embedded treasury, else the x402 settler, else the RAIL_SETTLER_KEY account, else none', async () => {
    const keyAccount = embedded.embedded!.accounts[6]!;
    expect(railTreasuryOf(embedded, keyAccount)?.address).toBe(embedded.embedded!.accounts[8]!.address);
    // On RPC_URL without PAY_TO there is no x402 settler: the key's account (the agent used to answer 503 here).
    const withoutPayee = await rpcChain({ RAIL_SETTLER_KEY: settlerKey }).connect();
    expect(withoutPayee.payment).toBeUndefined();
    expect(railTreasuryOf(withoutPayee, keyAccount)?.address).toBe(keyAccount.address);
    expect(railTreasuryOf(withoutPayee, undefined)).toBeUndefined();
  });
});

describe('payments sent together settle in one transaction (decision 0041)', () => {
  const sentTransactions = () => asked.filter((method) => method === 'eth_sendRawTransaction').length;
  const feeOf = (terms: SettlementOrder) =>
    embedded.publicClient
      .readContract({
        address: embedded.contracts.router!,
        abi: settlementRouterAbi,
        functionName: 'previewFees',
        args: [terms.amount, terms.hasFx, parseUnits(String(terms.esgScore), 6), parseUnits(String(terms.monthlyVolumeUsd), 6)],
      })
      .then((fees) => fees.total);

  it('settles orders given at one moment in one transaction, each with the fee of its own Settled event', async () => {
    const rail = createRailSettlement({ chain: rpcChain({ RAIL_SETTLER_KEY: settlerKey }), timeoutMs: 5_000, settlerKey });
    await rail.settle(order(freshWallet()));
    const orders = [order(freshWallet()), { ...order(freshWallet()), amount: 12_345_678n, hasFx: true }, { ...order(freshWallet()), amount: 999n, esgScore: 87.5, monthlyVolumeUsd: 2_000_000 }];
    asked.length = 0;
    const receipts = await Promise.all(orders.map((terms) => rail.settle(terms)));
    expect(sentTransactions()).toBe(1);
    expect(new Set(receipts.map((receipt) => receipt.txHash)).size).toBe(1);
    expect(receipts.map((receipt) => receipt.fee)).toEqual(await Promise.all(orders.map(feeOf)));
    expect(new Set(receipts.map((receipt) => receipt.payer))).toEqual(new Set([settler.address]));
    const balances = await Promise.all(
      orders.map((terms) => embedded.publicClient.readContract({ address: embedded.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [terms.payee] })),
    );
    expect(balances).toEqual(orders.map((terms, index) => terms.amount - receipts[index]!.fee));
  });

  it('sends an order at once when nothing is being sent, and gathers those arriving meanwhile into the next transaction', async () => {
    const rail = createRailSettlement({ chain: rpcChain({ RAIL_SETTLER_KEY: settlerKey }), timeoutMs: 5_000, settlerKey });
    await rail.settle(order(freshWallet()));
    asked.length = 0;
    const first = rail.settle(order(freshWallet()));
    // The first order's transaction is on its way (its gas estimate is at the node) before the others are given.
    await vi.waitFor(() => expect(asked).toContain('eth_estimateGas'));
    asked.length = 0;
    const later = await Promise.all([1, 2, 3].map(() => rail.settle(order(freshWallet()))));
    const alone = await first;
    expect(new Set(later.map((receipt) => receipt.txHash)).size).toBe(1);
    expect(later[0]!.txHash).not.toBe(alone.txHash);
  });

  it('under load sends at most one transaction per lingerMs, with every order given meanwhile', async () => {
    const rail = createRailSettlement({ chain: rpcChain({ RAIL_SETTLER_KEY: settlerKey }), timeoutMs: 5_000, settlerKey, lingerMs: 1_000 });
    await rail.settle(order(freshWallet()));
    // Two orders in one transaction: the rail is under load.
    const [previous] = await Promise.all([rail.settle(order(freshWallet())), rail.settle(order(freshWallet()))]);
    // Given just after a transaction left: it waits for the rest of the second, and the orders
    // given meanwhile go with it (without the linger it would have left at once, alone).
    const next = rail.settle(order(freshWallet()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const receipts = await Promise.all([next, ...[1, 2].map(() => rail.settle(order(freshWallet())))]);
    expect(new Set(receipts.map((receipt) => receipt.txHash)).size).toBe(1);
    expect(receipts[0]!.txHash).not.toBe(previous!.txHash);
  });

  it('never lingers for one caller settling one payment after another (a pain.001, the batch path)', async () => {
    // A linger of a minute: were it applied, these would outlast the test's time limit.
    const rail = createRailSettlement({ chain: rpcChain({ RAIL_SETTLER_KEY: settlerKey }), timeoutMs: 5_000, settlerKey, lingerMs: 60_000 });
    const hashes = new Set<string>();
    for (let payment = 0; payment < 4; payment++) hashes.add((await rail.settle(order(freshWallet()))).txHash);
    expect(hashes.size).toBe(4);
  });

  it('settles each order of a batch that reverted in its block again alone (nothing of the batch happened)', async () => {
    const rail = createRailSettlement({ chain: rpcChain({ RAIL_SETTLER_KEY: settlerKey }), timeoutMs: 5_000, settlerKey });
    await rail.settle(order(freshWallet()));
    // The batch's estimate is too low: it is mined and runs out of gas (as a batch whose order was
    // settled by someone else between its estimate and its block would revert).
    const blockBefore = await embedded.publicClient.getBlockNumber({ cacheTime: 0 });
    nextEstimateOverride = 60_000n;
    const receipts = await Promise.all([1, 2, 3].map(() => rail.settle(order(freshWallet()))));
    expect(new Set(receipts.map((receipt) => receipt.txHash)).size).toBe(3);
    const reverted = await embedded.publicClient.getBlock({ blockNumber: blockBefore + 1n });
    const [batch] = reverted.transactions;
    expect((await embedded.publicClient.getTransactionReceipt({ hash: batch! })).status).toBe('reverted');
    expect(receipts.map((receipt) => receipt.txHash)).not.toContain(batch);
    for (const receipt of receipts) expect((await embedded.publicClient.getTransactionReceipt({ hash: receipt.txHash })).status).toBe('success');
  });

  it(`puts at most ${MAX_SETTLEMENT_BATCH} orders in one transaction`, async () => {
    const rail = createRailSettlement({ chain: rpcChain({ RAIL_SETTLER_KEY: settlerKey }), timeoutMs: 10_000, settlerKey });
    await rail.settle(order(freshWallet()));
    const receipts = await Promise.all(Array.from({ length: MAX_SETTLEMENT_BATCH + 1 }, () => rail.settle({ ...order(freshWallet()), amount: 1_000n })));
    const sizes = [...Map.groupBy(receipts, (receipt) => receipt.txHash).values()].map((group) => group.length).sort((a, b) => b - a);
    expect(sizes).toEqual([MAX_SETTLEMENT_BATCH, 1]);
  });

  it('fails only the order the router refuses, with its reason, and settles the others of its batch', async () => {
    const rail = createRailSettlement({ chain: rpcChain({ RAIL_SETTLER_KEY: settlerKey }), timeoutMs: 5_000, settlerKey });
    const settledBefore = order(freshWallet());
    await rail.settle(settledBefore);
    const outcomes = await Promise.allSettled([rail.settle(order(freshWallet())), rail.settle({ ...settledBefore, payee: freshWallet() }), rail.settle(order(freshWallet()))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = (outcomes[1] as PromiseRejectedResult).reason as RailError;
    expect(refused).toBeInstanceOf(RailError);
    expect(refused.message).toBe('the settlement was not sent: the contract refused the call (QuoteAlreadySettled)');
    expect(refused.txHash).toBeUndefined();
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { type Address, createPublicClient, getAddress, type Hash, http, parseEventLogs, type PublicClient, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { base as baseChain } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../contracts/artifacts/RailUSD.js';
import { settlementRouterAbi } from '../contracts/artifacts/SettlementRouter.js';
import { paymentCallbacks, payments } from '../drizzle/schema.js';
import { contractsFromBanner } from '../gateway/cluster/cluster.js';
import { createApiKeys } from '../platform/access/api-keys.js';
import { DEVELOPMENT_MNEMONIC } from '../platform/chain/embedded-chain.js';
import { systemClock } from '../platform/clock.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../platform/db.js';
import { randomIds } from '../platform/ids.js';
import { freshWallet } from '../subgraphs/payments/integration/testing.js';
import { ACTIVE_LEI_ENTRY } from './fixtures/lei-entries.js';
import { TEST_SIGNING_KEY } from './helpers.js';
import { type ServerProcess, spawnServer, stopServer } from './server-process.js';

// Issue 10 acceptance point 2: 20 identical initiations at the same moment across two server
// PROCESSES on one PostgreSQL schema give one payment and one transfer on chain. Process A is the
// all-in-one server on its embedded rail; process B is the same code on RPC_URL = A's /rpc, with
// the contract addresses A printed and a settlement account of its own (RAIL_SETTLER_KEY).
// subgraphs/payments/concurrency.test.ts covers the same with two servers inside one process.

const databaseUrl = process.env.DATABASE_URL;
const ADMIN_KEY = 'payments-processes-admin-key-0123456789abcdef';
const INTERNAL_KEY = 'payments-processes-internal-key-0123456789ab';
const WEBHOOK_SIGNING_KEY = 'payments-processes-webhook-key-0123456789ab';
const CONCURRENT = 20;
/**
 * Process B settles from A's account #7 (funded at deployment), not A's treasury (#8): two
 * processes never share one account's nonces. A's accounts are secret by default (decision 0052):
 * A is given the public development mnemonic so that B can be given #7's key.
 */
const settlerB = mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: 7 });
const settlerKeyB = toHex(settlerB.getHdKey().privateKey!);

/** Starts the all-in-one server (gateway/main.ts) as its own OS process on a free loopback port; resolves once it printed `ready in`. */
function startServer(label: string, environment: Record<string, string>): Promise<ServerProcess> {
  return spawnServer(
    label,
    {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(mkdtempSync(join(tmpdir(), `srg-payproc-${label}-`)), 'data'),
      QUOTE_SIGNING_KEY: TEST_SIGNING_KEY,
      WEBHOOK_SIGNING_KEY,
      ADMIN_KEY,
      INTERNAL_KEY,
      ...environment,
    },
    120_000,
  );
}

interface Answer {
  status: number;
  body: { railPaymentId?: string; status?: string; settlement?: { txHash?: string } } & Record<string, unknown>;
}

async function post(base: string, path: string, headers: Record<string, string>, payload: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

describe.runIf(databaseUrl)('identical initiations across two server processes on one PostgreSQL schema', () => {
  const schemaName = `t_payproc_${process.pid}_${Date.now().toString(36)}`;
  let handle: DatabaseHandle;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let rail: { token: Address; router: Address };
  let chainA: PublicClient;
  let bearer: Record<string, string>;

  beforeAll(async () => {
    // The test migrates the schema before the processes open it (theirs then find nothing to do).
    handle = await openDatabase({ databaseUrl: databaseUrl!, schemaName, poolSize: 2 });
    const database = { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schemaName };
    a = await startServer('a', { ...database, EMBEDDED_CHAIN_MNEMONIC: DEVELOPMENT_MNEMONIC });
    rail = contractsFromBanner(a.lines);
    // A advertises the same token in its manifest.
    const manifest = (await (await fetch(`${a.base}/stability/manifest`, { signal: AbortSignal.timeout(10_000) })).json()) as { contracts: { token: string } };
    expect(getAddress(manifest.contracts.token)).toBe(rail.token);
    b = await startServer('b', {
      ...database,
      RPC_URL: `${a.base}/rpc`,
      CONTRACT_TOKEN: rail.token,
      CONTRACT_ROUTER: rail.router,
      // No PAY_TO: B takes no x402 payments, and its payments still settle from RAIL_SETTLER_KEY.
      RAIL_SETTLER_KEY: settlerKeyB,
    });
    chainA = createPublicClient({ chain: baseChain, transport: http(`${a.base}/rpc`, { timeout: 10_000 }) }) as PublicClient;
    // One institution bearer key, created in the shared database: both processes accept it.
    const keys = createApiKeys({ db: handle.db, clock: systemClock, ids: randomIds });
    bearer = { authorization: `Bearer ${(await keys.create('bearer', 'treasury desk', 1000)).key}` };
  }, 300_000);

  afterAll(async () => {
    await Promise.all([stopServer(b), stopServer(a)]);
    await handle?.close();
    if (databaseUrl) await dropSchema(databaseUrl, schemaName);
  }, 60_000);

  /** Registers a fresh creditor wallet under the active LEI (once, through the admin key on A). */
  async function registeredCreditor(): Promise<Address> {
    const creditor = freshWallet();
    const registered = await post(a!.base, '/compliance/register', { authorization: `Bearer ${ADMIN_KEY}` }, { walletAddress: creditor, lei: ACTIVE_LEI_ENTRY.lei });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    return creditor;
  }

  function paymentTo(creditor: Address, amount: string) {
    return {
      tmsReference: `TMS-PROC-${randomBytes(6).toString('hex')}`,
      amount,
      currency: 'USD',
      creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditor },
      debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
      // The callback row is what matters here; a loopback receiver is refused by both workers (CALLBACK_ALLOW_PRIVATE_TARGETS unset).
      callbackUrl: 'http://127.0.0.1:9/payments',
    };
  }

  async function settledEventsTo(creditor: Address) {
    return chainA.getContractEvents({ address: rail.router, abi: settlementRouterAbi, eventName: 'Settled', args: { payee: creditor }, fromBlock: 0n });
  }

  async function tokenTransfersTo(creditor: Address) {
    return chainA.getContractEvents({ address: rail.token, abi: railUSDAbi, eventName: 'Transfer', args: { to: creditor }, fromBlock: 0n });
  }

  it("process B settles on A's chain through RPC_URL, from its RAIL_SETTLER_KEY account", async () => {
    const creditor = await registeredCreditor();
    const payment = paymentTo(creditor, '12.5');
    const answer = await post(b!.base, '/integration/payments/initiate', bearer, payment);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.status, JSON.stringify(answer.body)).toBe('SETTLED');
    expect(answer.body.settlement).toMatchObject({ network: 'base-mainnet' });
    const receipt = await chainA.getTransactionReceipt({ hash: answer.body.settlement!.txHash as Hash });
    expect(receipt.from.toLowerCase()).toBe(settlerB.address.toLowerCase());
    const [settled] = parseEventLogs({ abi: settlementRouterAbi, eventName: 'Settled', logs: receipt.logs });
    expect(settled?.args).toMatchObject({ payee: creditor, amount: 12_500_000n });
  }, 60_000);

  it(`of ${CONCURRENT} identical initiations at once, alternately at A and B: one payment row, one callback row, one Settled event and one transfer; every answer is that payment`, async () => {
    const creditor = await registeredCreditor();
    const payment = paymentTo(creditor, '77.25');
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, index) => post((index % 2 === 0 ? a! : b!).base, '/integration/payments/initiate', bearer, payment)));
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(['SETTLED', 'PENDING'], JSON.stringify(answer.body)).toContain(answer.body.status);
    }
    const ids = new Set(answers.map((answer) => answer.body.railPaymentId));
    expect(ids.size).toBe(1);
    expect(answers.some((answer) => answer.body.status === 'SETTLED')).toBe(true);

    const rows = await handle.db.select().from(payments).where(eq(payments.tmsReference, payment.tmsReference));
    expect(rows.map((row) => ({ railPaymentId: row.railPaymentId, status: row.status }))).toEqual([{ railPaymentId: [...ids][0], status: 'SETTLED' }]);
    const callbacks = await handle.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.railPaymentId, rows[0]!.railPaymentId));
    expect(callbacks).toHaveLength(1);

    const settled = await settledEventsTo(creditor);
    expect(settled).toHaveLength(1);
    expect(settled[0]!.transactionHash).toBe(rows[0]!.txHash);
    expect(settled[0]!.args.amount).toBe(77_250_000n);
    const transfers = await tokenTransfersTo(creditor);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.transactionHash).toBe(rows[0]!.txHash);
    // Every SETTLED answer names that transaction.
    for (const answer of answers.filter((one) => one.body.status === 'SETTLED')) expect(answer.body.settlement?.txHash).toBe(rows[0]!.txHash);
  }, 120_000);
});

// Test support for test/attacks/cross-owner.test.ts (not a test file itself): one all-in-one
// server on a real port, with the real data of institution A and of agent X that the attackers
// (institution B, agent Y, nobody) go after, the calls they make, and a snapshot of everything an
// attack could move.

import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { count } from 'drizzle-orm';
import type { Address, Hash } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { agentDeposits, agentFundingWallets, agentHeldSettlements, idempotencyKeys, payments } from '../../drizzle/schema.js';
import type { ChainConnection } from '../../platform/chain/index.js';
import type { DatabaseHandle } from '../../platform/db.js';
import { fundingWalletMessage } from '../../subgraphs/payments/agent/domain/index.js';
import { bindFundingWallet, fundAgent, ownerWallet, registerTestAgent, type TestAgent, transferToTreasury, treasuryOf } from '../../subgraphs/payments/agent/testing.js';
import { MCP_PATH } from '../../subgraphs/payments/integration/manifest.js';
import { freshWallet } from '../../subgraphs/payments/integration/testing.js';
import { ACTIVE_LEI_ENTRY } from '../fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestDatabase, type TestServer } from '../helpers.js';

export const ADMIN_KEY = 'cross-owner-attack-admin-key-0123456789abcdef';
/** The rail's own processes' key: /rpc sends for the rail's accounts only with it (decision 0051). */
export const INTERNAL_KEY = 'cross-owner-attack-internal-key-0123456789abcdef';

export interface Answer {
  status: number;
  body: unknown;
}

type Headers = Record<string, string>;
type Body = Record<string, any>;

/** What the attempts name: the parties, their keys, and A's and X's data. */
export interface AttackWorld {
  server: TestServer;
  rail: ChainConnection;
  admin: Headers;
  /** Institution A's two desks (one institution), and institution B. */
  deskA1: Headers;
  deskA2: Headers;
  bankB: Headers;
  institutionA: string;
  /** An X-API-Key: a paid-route key of no institution. */
  apiKey: Headers;
  creditor: Address;
  /** A's payment initiated alone, and its body. */
  paidA: Body;
  paymentA: Body;
  /** A's two payments of one batch, and their bodies. */
  batchA: Body[];
  batchBodiesA: Body[];
  /** A's payment initiated through its MCP client, and its body. */
  mcpPaidA: Body;
  mcpPaymentA: Body;
  agentX: TestAgent;
  agentY: TestAgent;
  /** X's owner's funding wallet, its credited deposit, and a transfer of it to the treasury not credited yet. */
  walletX: PrivateKeyAccount;
  depositX: Hash;
  pendingDepositX: Hash;
  /** The attacker's wallet with a valid signature binding it to X (only X's key may present it). */
  strangerWallet: PrivateKeyAccount;
  strangerSignatureForX: string;
  /** X's wallet's own signature binding it to X (which Y replays for itself). */
  walletXSignatureForX: string;
  /** X's settlement (under an Idempotency-Key), its body, and X's held settlement. */
  settledX: string;
  settleBodyX: Body;
  idempotencyKeyX: string;
  holdX: string;
  /** Where an attacker would have X's money sent. */
  attackerRecipient: Address;

  rest(method: 'GET' | 'POST' | 'DELETE', url: string, headers?: Headers, payload?: unknown): Promise<Answer>;
  graphql(path: string, query: string, variables: Record<string, unknown>, headers?: Headers): Promise<Answer>;
  /** An MCP SDK client of /integration/mcp on the server's real port, sending `headers`. */
  connectMcp(headers: Headers): Promise<Client>;
  /** A native payment to A's creditor under a fresh reference. */
  paymentOf(amount: string): Body;
  /** POST /integration/payments/initiate, expected to answer 200. */
  initiate(headers: Headers, payment: object): Promise<Body>;
  balanceOf(address: Address): Promise<bigint>;
  treasury(): Address;
  snapshot(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts the server on `database` and makes A's and X's data (and Y's funds). */
export async function openAttackWorld(database: TestDatabase): Promise<AttackWorld> {
  const handle: DatabaseHandle = await database.open();
  const server = await startTestServer({ database: handle, environment: { ADMIN_KEY, INTERNAL_KEY } });
  const rail = await server.platform!.chain.connect();
  const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  // Filled in below, in order: the calls first, then the data they make.
  const w = {} as AttackWorld;
  Object.assign(w, { server, rail, admin: { authorization: `Bearer ${ADMIN_KEY}` } });

  w.rest = async (method, url, headers = {}, payload) => {
    const { status, body } = await injectJson(server, method, url, { headers, ...(payload === undefined ? {} : { payload }) });
    return { status, body };
  };
  w.graphql = async (path, query, variables, headers = {}) => {
    const response = await server.app.inject({ method: 'POST', url: path, headers, payload: { query, variables } });
    return { status: response.statusCode, body: response.json() };
  };
  w.connectMcp = async (headers) => {
    const client = new Client({ name: 'cross-owner-attacks', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}${MCP_PATH}`), { requestInit: { headers } }));
    return client;
  };
  w.paymentOf = (amount) => ({
    tmsReference: `TMS-ATK-${randomBytes(5).toString('hex')}`,
    amount,
    currency: 'USD',
    creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: w.creditor },
    debtor: { name: 'Bank A Treasury Ltd', walletAddress: freshWallet() },
  });
  w.initiate = async (headers, payment) => {
    server.clock.advance(1000);
    const answer = await w.rest('POST', '/integration/payments/initiate', headers, payment);
    expect(answer.status).toBe(200);
    return answer.body as Body;
  };
  w.balanceOf = (address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
  w.treasury = () => treasuryOf(rail);
  w.snapshot = () => snapshotOf(w);
  w.close = async () => {
    await server.close();
    await database.dispose(handle);
  };

  await makeInstitutions(w);
  await makeAgents(w);
  return w;
}

/** 1. Institutions A (two desks) and B, an X-API-Key; A's creditor; A's payments settled by REST, the batch path and MCP. */
async function makeInstitutions(w: AttackWorld): Promise<void> {
  const keys = w.server.platform!.access.keys;
  const a1 = await keys.create('bearer', 'Bank A treasury', 1000);
  w.institutionA = a1.record.institutionId!;
  const a2 = await keys.create('bearer', 'Bank A payments hub', 1000, { institutionId: w.institutionA });
  const b = await keys.create('bearer', 'Bank B treasury', 1000);
  w.deskA1 = { authorization: `Bearer ${a1.key}` };
  w.deskA2 = { authorization: `Bearer ${a2.key}` };
  w.bankB = { authorization: `Bearer ${b.key}` };
  w.apiKey = { 'x-api-key': (await keys.create('api', 'paid routes only', 1000)).key };

  w.creditor = freshWallet();
  expect((await w.rest('POST', '/compliance/register', w.admin, { walletAddress: w.creditor, lei: ACTIVE_LEI_ENTRY.lei })).status).toBe(201);
  w.paymentA = w.paymentOf('1250.50');
  w.paidA = await w.initiate(w.deskA1, w.paymentA);
  expect(w.paidA.status).toBe('SETTLED');
  w.batchBodiesA = [w.paymentOf('10'), w.paymentOf('20')];
  const batch = await w.rest('POST', '/integration/payments/batch', w.deskA2, { payments: w.batchBodiesA });
  expect(batch.status).toBe(200);
  w.batchA = batch.body as Body[];
  expect(w.batchA.map((entry) => entry.status)).toEqual(['SETTLED', 'SETTLED']);
  w.mcpPaymentA = w.paymentOf('30');
  const client = await w.connectMcp(w.deskA1);
  try {
    w.mcpPaidA = (await client.callTool({ name: 'payments.initiate', arguments: w.mcpPaymentA })).structuredContent as Body;
  } finally {
    await client.close();
  }
  expect(w.mcpPaidA).toMatchObject({ tmsReference: w.mcpPaymentA.tmsReference, status: 'SETTLED' });
}

/**
 * 2. Agent owners X and Y, each funded by a deposit; X with a mandate, a settlement under an
 * Idempotency-Key, a held settlement, and a transfer to the treasury its owner has not credited
 * yet; the attacker's wallet validly signed for X, and X's wallet's signature (for Y to replay).
 */
async function makeAgents(w: AttackWorld): Promise<void> {
  w.agentX = await registerTestAgent(w.server, { name: 'X treasury bot', ownerEntity: 'X Owner Ltd', ownerEmail: 'ops@x.example', discoverable: true });
  w.agentY = await registerTestAgent(w.server, { name: 'Y bot', ownerEntity: 'Y Owner Ltd', ownerEmail: 'ops@y.example' });
  const mandate = await w.rest('POST', '/compliance/agent/mandate', w.agentX.headers, { agentId: w.agentX.agentId, maxNotionalUsd: 1000, dailyCapUsd: 10_000 });
  expect(mandate.status).toBe(201);
  w.walletX = await ownerWallet(w.rail, '3001');
  expect((await bindFundingWallet(w.server, w.rail, w.agentX, w.walletX)).status).toBe(200);
  w.depositX = await transferToTreasury(w.rail, w.walletX, '3000');
  expect((await w.rest('POST', '/agent/deposits', w.agentX.headers, { txHash: w.depositX })).status).toBe(200);
  await fundAgent(w.server, w.rail, w.agentY, '500');

  w.settleBodyX = { amount: 100, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: w.creditor };
  w.idempotencyKeyX = `x-settle-${randomBytes(6).toString('hex')}`;
  const settled = await w.rest('POST', '/agent/settle', { ...w.agentX.headers, 'idempotency-key': w.idempotencyKeyX }, w.settleBodyX);
  expect(settled.body).toMatchObject({ status: 'SETTLED', held: false });
  w.settledX = (settled.body as { railPaymentId: string }).railPaymentId;
  const held = await w.rest('POST', '/agent/settle', w.agentX.headers, { ...w.settleBodyX, amount: 1250 });
  expect(held.body).toMatchObject({ status: 'PENDING', held: true, holdId: expect.stringMatching(/^hld_/) });
  w.holdX = (held.body as { holdId: string }).holdId;
  w.pendingDepositX = await transferToTreasury(w.rail, w.walletX, '1');

  const chainId = await w.rail.publicClient.getChainId();
  w.strangerWallet = await ownerWallet(w.rail, '1');
  w.strangerSignatureForX = await w.strangerWallet.signMessage({ message: fundingWalletMessage(w.agentX.agentId, w.strangerWallet.address, chainId) });
  w.walletXSignatureForX = await w.walletX.signMessage({ message: fundingWalletMessage(w.agentX.agentId, w.walletX.address, chainId) });
  w.attackerRecipient = freshWallet();
}

/** Everything an attack could move or change: balances, blocks, each agent's funds, X's record and hold, A's payment, the creditor's registration, row counts. */
async function snapshotOf(w: AttackWorld): Promise<Record<string, unknown>> {
  const db = w.server.platform!.database.db;
  const rows = async (table: typeof payments | typeof agentDeposits | typeof agentFundingWallets | typeof agentHeldSettlements | typeof idempotencyKeys) =>
    (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    blocks: await w.rail.publicClient.getBlockNumber(),
    balances: {
      treasury: await w.balanceOf(w.treasury()),
      creditor: await w.balanceOf(w.creditor),
      attacker: await w.balanceOf(w.attackerRecipient),
      strangerWallet: await w.balanceOf(w.strangerWallet.address),
      walletX: await w.balanceOf(w.walletX.address),
    },
    fundsX: (await w.rest('GET', '/agent/funds', w.agentX.headers)).body,
    fundsY: (await w.rest('GET', '/agent/funds', w.agentY.headers)).body,
    agentX: (await w.rest('GET', `/compliance/agent/${w.agentX.agentId}`)).body,
    paymentA: (await w.rest('GET', `/integration/payments/${w.paidA.railPaymentId}`, w.deskA1)).body,
    holdX: (await w.rest('GET', `/agent/holds/${w.holdX}`, w.admin)).body,
    creditorRegistration: (await w.rest('GET', `/compliance/vop/lookup/${w.creditor}`)).body,
    rows: {
      payments: await rows(payments),
      deposits: await rows(agentDeposits),
      fundingWallets: await rows(agentFundingWallets),
      holds: await rows(agentHeldSettlements),
      idempotencyKeys: await rows(idempotencyKeys),
    },
  };
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Address, decodeEventLog, keccak256, toHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { settleResponseFromHeader } from 'x402/types';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { x402Payments } from '../../drizzle/schema.js';
import { createConfiguredRailChain } from '../../gateway/platform-services.js';
import { openTestPglite, startTestServer, TEST_NOW, testConfig, type TestServer } from '../../test/helpers.js';
import type { ChainConnection } from '../chain/index.js';
import type { DatabaseHandle } from '../db.js';
import { createX402 } from './x402.js';

const PRICE = { amount: 2_000_000n, description: 'A test report' };
const clock = { now: () => new Date(TEST_NOW) };

/** Shared by the server and its RPC_URL clients: /rpc sends for the rail's accounts (the settler's) only with it (decision 0051). */
const INTERNAL_KEY = 'x402-rpc-test-internal-key-0123456789abcdef';

let server: TestServer;
let rpcUrl: string;
let embedded: ChainConnection;
let database: DatabaseHandle;

beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['intelligence'], environment: { INTERNAL_KEY } });
  rpcUrl = `${await server.app.listen({ port: 0, host: '127.0.0.1' })}/rpc`;
  embedded = await server.platform!.chain.connect();
  database = await openTestPglite();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

/** The private key of one of the rail's accounts: this test's process holds the chain, so it may hand the key to a client of its /rpc. */
const railKey = (addressIndex: number) => toHex(embedded.embedded!.accounts[addressIndex]!.getHdKey().privateKey!);
const signer = (addressIndex: number) => embedded.embedded!.walletFor(embedded.embedded!.accounts[addressIndex]!);

describe('x402 on RPC_URL, settled by RAIL_SETTLER_KEY', () => {
  it('reads the token domain from the token, and settles the transfer to PAY_TO from its own account', async () => {
    const payTo = privateKeyToAddress(keccak256(toHex('a treasury address for RPC payments')));
    const chain = createConfiguredRailChain(testConfig({ RPC_URL: rpcUrl, CONTRACT_TOKEN: embedded.payment!.token, PAY_TO: payTo, RAIL_SETTLER_KEY: railKey(0), INTERNAL_KEY }));
    const connection = await chain.connect();
    expect(connection.mode).toBe('rpc');
    expect(connection.payment).toMatchObject({ token: embedded.payment!.token, payTo, tokenDomain: { name: 'Settlement Rail USD', version: '1' } });
    const x402 = createX402({ chain, db: database.db, clock });
    const requirements = await x402.requirementsFor(PRICE, 'http://127.0.0.1/paid');
    const outcome = await x402.pay(await createPaymentHeader(signer(6) as never, 1, requirements), PRICE, 'http://127.0.0.1/paid');
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const receipt = await embedded.publicClient.getTransactionReceipt({ hash: outcome.transaction as `0x${string}` });
    expect(receipt.from.toLowerCase()).toBe(embedded.embedded!.accounts[0]!.address.toLowerCase());
    const events = receipt.logs.map((log) => decodeEventLog({ abi: railUSDAbi, data: log.data, topics: log.topics }));
    expect(events.filter((event) => event.eventName === 'Transfer')).toEqual([{ eventName: 'Transfer', args: { from: embedded.embedded!.accounts[6]!.address, to: payTo, value: 2_000_000n } }]);
  });

  it('takes no payments on RPC_URL without PAY_TO or a settler: a 503, not a 402', async () => {
    const chain = createConfiguredRailChain(testConfig({ RPC_URL: rpcUrl, CONTRACT_TOKEN: embedded.payment!.token }));
    expect((await chain.connect()).payment).toBeUndefined();
    await expect(createX402({ chain, db: database.db, clock }).requirementsFor(PRICE, 'http://127.0.0.1/paid')).rejects.toMatchObject({ code: 'GEN_ERR_UNAVAILABLE' });
  });
});

describe('a token that cannot be read on RPC_URL', () => {
  it('takes payments away (503) but not the chain: the connection still answers for verify-fees and the rest', async () => {
    const notAToken = embedded.contracts.router!;
    const payTo = privateKeyToAddress(keccak256(toHex('a treasury address for RPC payments')));
    const chain = createConfiguredRailChain(testConfig({ RPC_URL: rpcUrl, CONTRACT_TOKEN: notAToken, CONTRACT_ROUTER: notAToken, PAY_TO: payTo, RAIL_SETTLER_KEY: railKey(0) }));
    try {
      const connection = await chain.connect();
      expect(connection.payment).toBeUndefined();
      expect(connection.paymentError).toBeDefined();
      expect(await connection.publicClient.getBlockNumber()).toBeGreaterThan(0n);
      await expect(createX402({ chain, db: database.db, clock }).requirementsFor(PRICE, 'http://127.0.0.1/paid')).rejects.toMatchObject({ code: 'GEN_ERR_UNAVAILABLE' });
    } finally {
      await chain.close();
    }
  });
});

describe('x402 through FACILITATOR_URL (a facilitator answering as recorded)', () => {
  let facilitator: FastifyInstance;
  let facilitatorUrl: string;
  const calls: Array<{ path: string; body: { paymentPayload: { payload: { authorization: { from: string } } }; paymentRequirements: { payTo: string } } }> = [];
  const transaction = `0x${'ab'.repeat(32)}`;

  beforeAll(async () => {
    facilitator = Fastify({ forceCloseConnections: true });
    facilitator.post('/verify', async (request) => {
      calls.push({ path: '/verify', body: request.body as never });
      return { isValid: true, payer: (request.body as never as (typeof calls)[number]['body']).paymentPayload.payload.authorization.from };
    });
    facilitator.post('/settle', async (request) => {
      const body = request.body as never as (typeof calls)[number]['body'];
      calls.push({ path: '/settle', body });
      return { success: true, transaction, network: 'base', payer: body.paymentPayload.payload.authorization.from };
    });
    facilitator.post('/slow/verify', () => new Promise(() => {}));
    facilitator.post('/silent-settle/verify', async (request) => ({ isValid: true, payer: (request.body as never as (typeof calls)[number]['body']).paymentPayload.payload.authorization.from }));
    facilitator.post('/silent-settle/settle', () => new Promise(() => {}));
    facilitatorUrl = await facilitator.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await facilitator?.close();
  });

  it('verifies and settles at the facilitator, still refusing a second use of one authorization itself', async () => {
    const x402 = createX402({ chain: server.platform!.chain, db: database.db, clock, facilitatorUrl });
    const requirements = await x402.requirementsFor(PRICE, 'http://127.0.0.1/paid');
    const header = await createPaymentHeader(signer(7) as never, 1, requirements);
    const before = await embedded.publicClient.readContract({
      address: embedded.payment!.token,
      abi: railUSDAbi,
      functionName: 'balanceOf',
      args: [embedded.embedded!.accounts[7]!.address as Address],
    });
    const outcome = await x402.pay(header, PRICE, 'http://127.0.0.1/paid');
    expect(outcome).toMatchObject({ ok: true, transaction });
    if (outcome.ok) expect(settleResponseFromHeader(outcome.header)).toMatchObject({ success: true, transaction });
    expect(calls.map((call) => call.path)).toEqual(['/verify', '/settle']);
    expect(calls[0]!.body.paymentRequirements.payTo).toBe(embedded.payment!.payTo);
    // The facilitator settled, not the rail's account: nothing moved on the embedded chain.
    expect(await embedded.publicClient.readContract({ address: embedded.payment!.token, abi: railUSDAbi, functionName: 'balanceOf', args: [embedded.embedded!.accounts[7]!.address as Address] })).toBe(
      before,
    );
    const replay = await x402.pay(header, PRICE, 'http://127.0.0.1/paid');
    expect(replay).toMatchObject({ ok: false, reason: expect.stringMatching(/^payment_already_used/) });
  });

  it('keeps an authorization reserved, never released, when the facilitator took /settle and did not answer', async () => {
    const x402 = createX402({ chain: server.platform!.chain, db: database.db, clock, facilitatorUrl: `${facilitatorUrl}/silent-settle`, facilitatorTimeoutMs: 200 });
    const requirements = await x402.requirementsFor(PRICE, 'http://127.0.0.1/paid');
    const header = await createPaymentHeader(signer(8) as never, 1, requirements);
    const outcome = await x402.pay(header, PRICE, 'http://127.0.0.1/paid');
    // The token has not seen the authorization used, but the facilitator may still send it: it stays SETTLING.
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/^settlement_unconfirmed/) });
    const [row] = await database.db.select().from(x402Payments).where(eq(x402Payments.payer, embedded.embedded!.accounts[8]!.address.toLowerCase()));
    expect(row).toMatchObject({ state: 'SETTLING' });
    expect(await x402.pay(header, PRICE, 'http://127.0.0.1/paid')).toMatchObject({ ok: false, reason: expect.stringMatching(/^payment_already_used/) });
  });

  it('answers 503 (retry), not a 402 judging the payment, when the facilitator cannot be reached (found by the soak, issue 26)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const x402 = createX402({ chain: server.platform!.chain, db: database.db, clock, facilitatorUrl: `http://127.0.0.1:${closedPort}`, facilitatorTimeoutMs: 2_000 });
    const requirements = await x402.requirementsFor(PRICE, 'http://127.0.0.1/paid');
    const header = await createPaymentHeader(signer(6) as never, 1, requirements);
    const claimsOfPayer = () => database.db.select().from(x402Payments).where(eq(x402Payments.payer, embedded.embedded!.accounts[6]!.address.toLowerCase()));
    const before = await claimsOfPayer();
    await expect(x402.pay(header, PRICE, 'http://127.0.0.1/paid')).rejects.toMatchObject({ code: 'GEN_ERR_UNAVAILABLE', status: 503 });
    // Nothing was claimed: the same authorization is judged when the client retries.
    expect(await claimsOfPayer()).toEqual(before);
  });

  it('answers a 402 with a reason, within its timeout, when the facilitator does not answer', async () => {
    const x402 = createX402({ chain: server.platform!.chain, db: database.db, clock, facilitatorUrl: `${facilitatorUrl}/slow`, facilitatorTimeoutMs: 200 });
    const requirements = await x402.requirementsFor(PRICE, 'http://127.0.0.1/paid');
    const outcome = await x402.pay(await createPaymentHeader(signer(7) as never, 1, requirements), PRICE, 'http://127.0.0.1/paid');
    expect(outcome).toMatchObject({ ok: false, reason: 'unexpected_verify_error' });
  });
});

import { eq } from 'drizzle-orm';
import { type Address, keccak256, parseUnits, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { decodePayment } from 'x402/schemes';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { x402Payments } from '../../drizzle/schema.js';
import { openTestPglite, sharedTestChain, TEST_NOW, testDatabases } from '../../test/helpers.js';
import type { ChainConnection, RailChain } from '../chain/index.js';
import type { DatabaseHandle } from '../db.js';
import type { Database } from '../db.js';
import { createHttpServer, type HttpServer } from '../http.js';
import { sequentialIds } from '../ids.js';
import { createLogger } from '../log.js';
import { paidWork } from './admission.js';
import { createApiKeys } from './api-keys.js';
import { resourceOf } from './paid-route.js';
import { createX402 } from './x402.js';

const PRICE = { amount: 2_000_000n, description: 'A test report' };
const INTERNAL_KEY = 'internal-key-for-calls-between-subgraphs-0123';
const clock = { now: () => new Date(TEST_NOW) };

/** The platform's HTTP server (request context included) with one route priced at PRICE, as every paid route runs. */
function paidServer(chain: RailChain, db: Database, work: () => Promise<unknown> = async () => ({ delivered: true }), handlerTimeoutMs?: number): HttpServer {
  const access = { keys: createApiKeys({ db, clock, ids: sequentialIds() }), x402: createX402({ chain, db, clock }), internalKey: INTERNAL_KEY };
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), ...(handlerTimeoutMs ? { handlerTimeoutMs } : {}) });
  app.get('/paid', async (request) => paidWork(access, request.requestContext, { price: PRICE }, resourceOf(request), work));
  return app;
}

describe('x402 on the embedded rail', () => {
  let chain: RailChain;
  let connection: ChainConnection;
  let database: DatabaseHandle;
  let app: HttpServer;

  beforeAll(async () => {
    chain = sharedTestChain();
    connection = await chain.connect();
    database = await openTestPglite();
    app = paidServer(chain, database.db);
    await app.ready();
  }, 30_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const get = (payment?: string) => app.inject({ method: 'GET', url: '/paid', headers: payment ? { 'x-payment': payment } : {} });
  const balanceOf = (address: Address) => connection.publicClient.readContract({ address: connection.payment!.token, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
  const requirements = async () => (await get()).json<{ accepts: PaymentRequirements[] }>().accepts[0]!;
  const payer = (index: number) => connection.embedded!.walletFor(connection.embedded!.accounts[index]!);
  const signed = async (index: number, overrides: Partial<PaymentRequirements> = {}) => createPaymentHeader(payer(index) as never, 1, { ...(await requirements()), ...overrides });

  it('answers 402 with the documented descriptor when no payment is sent', async () => {
    const response = await get();
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      x402Version: 1,
      error: 'X-PAYMENT header is required',
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: '2000000',
          resource: 'http://localhost:80/paid',
          description: 'A test report',
          mimeType: 'application/json',
          payTo: connection.payment!.payTo,
          maxTimeoutSeconds: 60,
          asset: connection.payment!.token,
          extra: { name: 'Settlement Rail USD', version: '1' },
        },
      ],
    });
  });

  it('delivers once paid, with X-PAYMENT-RESPONSE naming the transfer on chain; a replay is refused and moves nothing', async () => {
    const from = connection.embedded!.accounts[1]!.address;
    const [payerBefore, payeeBefore] = [await balanceOf(from), await balanceOf(connection.payment!.payTo)];
    const header = await signed(1);
    const paid = await get(header);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({ delivered: true });
    const settlement = settleResponseFromHeader(String(paid.headers['x-payment-response']));
    expect(settlement).toMatchObject({ success: true, network: 'base', payer: from });
    const receipt = await connection.publicClient.getTransactionReceipt({ hash: settlement.transaction as `0x${string}` });
    expect(receipt.status).toBe('success');
    expect(payerBefore - (await balanceOf(from))).toBe(parseUnits('2', 6));
    expect((await balanceOf(connection.payment!.payTo)) - payeeBefore).toBe(parseUnits('2', 6));

    const replay = await get(header);
    expect(replay.statusCode).toBe(402);
    expect(replay.json().error).toMatch(/^payment_already_used/);
    expect(payerBefore - (await balanceOf(from))).toBe(parseUnits('2', 6));
  });

  it.each(testDatabases().map((testDatabase) => [testDatabase.driver, testDatabase] as const))(
    'lets exactly one of two concurrent requests carrying one payment through, on %s',
    async (_driver, testDatabase) => {
      const handle = await testDatabase.open();
      let workDone = 0;
      const own = paidServer(chain, handle.db, async () => ({ delivered: ++workDone }));
      try {
        const header = await signed(2);
        const answers = await Promise.all([1, 2].map(() => own.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } })));
        expect(answers.map((response) => response.statusCode).sort()).toEqual([200, 402]);
        expect(answers.find((response) => response.statusCode === 402)!.json().error).toMatch(/^payment_already_used/);
        expect(workDone).toBe(1);
      } finally {
        await own.close();
        await testDatabase.dispose(handle);
      }
    },
  );

  it.each([
    { name: 'too small an amount', overrides: { maxAmountRequired: '1' }, reason: /^invalid_exact_evm_payload_authorization_value/ },
    { name: 'more than the price (the exact scheme charges the price)', overrides: { maxAmountRequired: '3000000' }, reason: /^invalid_exact_evm_payload_authorization_value/ },
    { name: 'another payee', overrides: { payTo: '0x000000000000000000000000000000000000dEaD' }, reason: /^invalid_exact_evm_payload_recipient_mismatch/ },
    { name: 'another asset', overrides: { asset: '0x000000000000000000000000000000000000dEaD' }, reason: /^invalid_exact_evm_payload_signature/ },
    { name: 'an authorization already expired', overrides: { maxTimeoutSeconds: -700 }, reason: /^invalid_exact_evm_payload_authorization_valid_before/ },
  ])('refuses a payment signed for $name with 402 and its reason, moving nothing', async ({ overrides, reason }) => {
    const from = connection.embedded!.accounts[3]!.address;
    const before = await balanceOf(from);
    const response = await get(await signed(3, overrides));
    expect(response.statusCode).toBe(402);
    expect(response.json().error).toMatch(reason);
    expect(await balanceOf(from)).toBe(before);
  });

  it('settles concurrent payments from several payers, each on chain (one settling account, its transactions sent in turn)', async () => {
    const payers = [5, 6, 7, 8];
    const headers = await Promise.all(payers.map((index) => signed(index)));
    const answers = await Promise.all(headers.map((header) => get(header)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    const transactions = answers.map((answer) => settleResponseFromHeader(String(answer.headers['x-payment-response'])).transaction);
    expect(new Set(transactions).size).toBe(4);
    for (const transaction of transactions) {
      expect((await connection.publicClient.getTransactionReceipt({ hash: transaction as `0x${string}` })).status).toBe('success');
    }
  });

  it('takes no money when the paid work fails, and the same authorization pays later', async () => {
    const failing = paidServer(chain, database.db, async () => {
      throw new Error('the paid work failed');
    });
    try {
      const from = connection.embedded!.accounts[4]!.address;
      const before = await balanceOf(from);
      const header = await signed(4);
      const failed = await failing.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } });
      expect(failed.statusCode).toBe(500);
      expect(failed.headers['x-payment-response']).toBeUndefined();
      expect(await balanceOf(from)).toBe(before);
      const paid = await get(header);
      expect(paid.statusCode).toBe(200);
      expect(before - (await balanceOf(from))).toBe(parseUnits('2', 6));
    } finally {
      await failing.close();
    }
  });

  it('keeps validBefore with the claim, and settles nothing for a claim the reconciler released while its work ran (decision 0087)', async () => {
    const from = connection.embedded!.accounts[3]!.address;
    const before = await balanceOf(from);
    const header = await signed(3);
    const { nonce, validBefore } = (decodePayment(header).payload as { authorization: { nonce: string; validBefore: string } }).authorization;
    const kept: Array<string | null> = [];
    // The work outlives the claim's bound: the reconciler (x402-reconciler.ts) releases it meanwhile.
    const outlived = paidServer(chain, database.db, async () => {
      const [row] = await database.db.select().from(x402Payments).where(eq(x402Payments.nonce, nonce.toLowerCase()));
      kept.push(row?.validBefore ?? null);
      await database.db.delete(x402Payments).where(eq(x402Payments.nonce, nonce.toLowerCase()));
      return { delivered: true };
    });
    try {
      const answer = await outlived.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } });
      expect(answer.statusCode).toBe(402);
      expect(answer.json().error).toMatch(/^claim_expired/);
      expect(kept).toEqual([validBefore]);
      expect(await balanceOf(from)).toBe(before);
    } finally {
      await outlived.close();
    }
  });

  /** A fresh payer holding exactly `amount` of the token (sent by development account 9). */
  async function payerHolding(seed: string, amount: bigint) {
    const account = privateKeyToAccount(keccak256(toHex(seed)));
    const funder = payer(9);
    const hash = await funder.writeContract({
      address: connection.payment!.token,
      abi: railUSDAbi,
      functionName: 'transfer',
      args: [account.address, amount],
      account: funder.account!,
      chain: funder.chain,
    });
    await connection.publicClient.waitForTransactionReceipt({ hash });
    return { account, wallet: connection.embedded!.walletFor(account as never) };
  }

  it('claims no more from a payer than it holds: of two concurrent payments covered once by its balance, one settles and one is refused before any work', async () => {
    const { wallet, account } = await payerHolding(`x402 test payer for one payment ${Date.now()}`, PRICE.amount);
    let workDone = 0;
    const own = paidServer(chain, database.db, async () => ({ delivered: ++workDone }));
    try {
      const headers = await Promise.all([1, 2].map(async () => createPaymentHeader(wallet as never, 1, await requirements())));
      const answers = await Promise.all(headers.map((header) => own.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } })));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 402]);
      expect(answers.find((answer) => answer.statusCode === 402)!.json().error).toMatch(/^insufficient_funds/);
      expect(workDone).toBe(1);
      expect(await balanceOf(account.address)).toBe(0n);
    } finally {
      await own.close();
    }
  });

  it('keeps a payment whose settlement failed as spent: the work is not done again for the same authorization', async () => {
    const { wallet, account } = await payerHolding(`x402 test payer who empties its wallet ${Date.now()}`, PRICE.amount);
    let workDone = 0;
    // The payer moves its funds away while the work runs, so the transfer reverts.
    const own = paidServer(chain, database.db, async () => {
      workDone += 1;
      const hash = await wallet.writeContract({
        address: connection.payment!.token,
        abi: railUSDAbi,
        functionName: 'transfer',
        args: [connection.embedded!.accounts[9]!.address as Address, PRICE.amount],
        account: wallet.account!,
        chain: wallet.chain,
      });
      await connection.publicClient.waitForTransactionReceipt({ hash });
      return { delivered: true };
    });
    try {
      // The payer needs gas for its own transfer in this scenario.
      const gas = await payer(9).sendTransaction({ to: account.address, value: parseUnits('1', 18), account: payer(9).account!, chain: payer(9).chain });
      await connection.publicClient.waitForTransactionReceipt({ hash: gas });
      const header = await createPaymentHeader(wallet as never, 1, await requirements());
      const failed = await own.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } });
      expect(failed.statusCode).toBe(402);
      expect(failed.json().error).toMatch(/settlement_failed|unexpected_settle_error|sign a new authorization/);
      expect(failed.json()).not.toHaveProperty('delivered');
      const [row] = await database.db.select().from(x402Payments).where(eq(x402Payments.payer, account.address.toLowerCase()));
      expect(row).toMatchObject({ state: 'FAILED' });
      // Funded again, the payer would pass verification: only the kept claim refuses the spent authorization.
      const refund = await payer(9).writeContract({
        address: connection.payment!.token,
        abi: railUSDAbi,
        functionName: 'transfer',
        args: [account.address, PRICE.amount],
        account: payer(9).account!,
        chain: payer(9).chain,
      });
      await connection.publicClient.waitForTransactionReceipt({ hash: refund });
      const again = await own.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } });
      expect(again.statusCode).toBe(402);
      expect(again.json().error).toMatch(/^payment_already_used/);
      expect(workDone).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('charges nothing when the request was answered 503 for taking too long: the claim is released and the authorization pays later', async () => {
    const { wallet, account } = await payerHolding(`x402 test payer who gives up waiting ${Date.now()}`, PRICE.amount);
    const from = account.address;
    const before = await balanceOf(from);
    let finished!: () => void;
    const workFinished = new Promise<void>((resolve) => (finished = resolve));
    const slow = paidServer(
      chain,
      database.db,
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        finished();
        return { delivered: true };
      },
      100,
    );
    try {
      const header = await createPaymentHeader(wallet as never, 1, await requirements());
      const timedOut = await slow.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } });
      expect(timedOut.statusCode).toBe(503);
      await workFinished;
      await vi.waitFor(async () => expect(await database.db.select().from(x402Payments).where(eq(x402Payments.payer, from.toLowerCase()))).toEqual([]));
      expect(await balanceOf(from)).toBe(before);
      const paid = await get(header);
      expect(paid.statusCode).toBe(200);
      expect(before - (await balanceOf(from))).toBe(PRICE.amount);
    } finally {
      await slow.close();
    }
  });

  it('admits a call between subgraphs with the internal key free of charge, and refuses a wrong internal key with 401', async () => {
    const internal = await app.inject({ method: 'GET', url: '/paid', headers: { 'x-internal-key': INTERNAL_KEY } });
    expect(internal.statusCode).toBe(200);
    expect(internal.json()).toEqual({ delivered: true });
    expect(internal.headers['x-payment-response']).toBeUndefined();
    const wrong = await app.inject({ method: 'GET', url: '/paid', headers: { 'x-internal-key': `${INTERNAL_KEY}x`, 'x-payment': await signed(1) } });
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses an unfunded payer and a malformed header with 402 and a reason', async () => {
    const unfunded = connection.embedded!.walletFor(privateKeyToAccount(keccak256(toHex('an unfunded test payer'))) as never);
    const header = await createPaymentHeader(unfunded as never, 1, await requirements());
    expect((await get(header)).json().error).toMatch(/^insufficient_funds/);
    for (const malformed of ['not base64 at all', Buffer.from('{"x402Version":1}').toString('base64')]) {
      const response = await get(malformed);
      expect(response.statusCode).toBe(402);
      expect(response.json().error).toMatch(/^(invalid_payment_header|unsupported_scheme_or_network)/);
    }
  });
});

import { keccak256, parseUnits, toHex, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { settleResponseFromHeader, type PaymentRequirements } from 'x402/types';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { openTestPglite, sharedTestChain, TEST_NOW, testDatabases } from '../../test/helpers.js';
import type { ChainConnection, RailChain } from '../chain/index.js';
import type { DatabaseHandle } from '../db.js';
import { createHttpServer, type HttpServer } from '../http.js';
import { createLogger } from '../log.js';
import { sequentialIds } from '../ids.js';
import type { Database } from '../db.js';
import { paidWork } from './admission.js';
import { createApiKeys } from './api-keys.js';
import { resourceOf } from './paid-route.js';
import { createX402 } from './x402.js';

const PRICE = { amount: 2_000_000n, description: 'A test report' };
const clock = { now: () => new Date(TEST_NOW) };

/** The platform's HTTP server (request context included) with one route priced at PRICE, as every paid route runs. */
function paidServer(chain: RailChain, db: Database, work: () => Promise<unknown> = async () => ({ delivered: true })): HttpServer {
  const access = { keys: createApiKeys({ db, clock, ids: sequentialIds() }), x402: createX402({ chain, db, clock }) };
  const app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }) });
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
  const signed = async (index: number, overrides: Partial<PaymentRequirements> = {}) =>
    createPaymentHeader(payer(index) as never, 1, { ...(await requirements()), ...overrides });

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
      const own = paidServer(chain, handle.db);
      try {
        const header = await signed(2);
        const statuses = (await Promise.all([1, 2].map(() => own.inject({ method: 'GET', url: '/paid', headers: { 'x-payment': header } })))).map((response) => response.statusCode);
        expect(statuses.sort()).toEqual([200, 402]);
      } finally {
        await own.close();
        await testDatabase.dispose(handle);
      }
    },
  );

  it.each([
    { name: 'too small an amount', overrides: { maxAmountRequired: '1' }, reason: /^invalid_exact_evm_payload_authorization_value/ },
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

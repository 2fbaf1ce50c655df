import { eq } from 'drizzle-orm';
import { type Address, keccak256, parseUnits, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import { streamSessions } from '../../../drizzle/schema.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import type { HttpServer } from '../../../platform/http.js';
import { sharedTestChain, TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { STREAM_SESSION_TTL_MS, type StreamLog } from './service.js';
import { buildStreamTestApp, type StreamTestOverrides as Overrides } from './testing.js';

// POST /compliance/stream/open paid with the x402 client on the embedded rail, ticks, reads and
// expiry, on PGlite and (with DATABASE_URL) PostgreSQL. The plugin is mounted as the compliance
// routes mount it: under /compliance, errors as {error, code}, declared in the price list.
// (Ticks, reads and the session row; the opens are in routes.test.ts.)

describe.each(testDatabases())('streaming sessions on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let rail: ChainConnection;
  let app: HttpServer;
  const clock = new ManualClock(TEST_NOW);
  const logged: Array<{ details: Record<string, unknown>; message: string }> = [];
  const log: StreamLog = { error: (details, message) => logged.push({ details, message }) };

  /** The stream plugin as the compliance plugin mounts it, with a fixed-price route beside it in the price list. */
  const buildApp = (overrides: Overrides = {}): Promise<HttpServer> => buildStreamTestApp({ db: handle.db, clock, log }, overrides);

  beforeAll(async () => {
    handle = await testDatabase.open();
    rail = await sharedTestChain().connect();
    app = await buildApp();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    if (handle) await testDatabase.dispose(handle);
  });

  const payer = (index: number) => rail.embedded!.walletFor(rail.embedded!.accounts[index]!);
  const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.payment!.token, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });

  async function post(url: string, payload: unknown, headers: Record<string, string> = {}, server = app) {
    const response = await server.inject({ method: 'POST', url: `/compliance${url}`, headers, payload: payload as Record<string, unknown> });
    return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
  }
  async function get(url: string, headers: Record<string, string> = {}) {
    const response = await app.inject({ method: 'GET', url: `/compliance${url}`, headers });
    return { status: response.statusCode, body: response.json() as Record<string, any> };
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** The 402 of an open, and an X-PAYMENT signed by development account `index` against its requirements. */
  async function signedFor(body: Record<string, unknown>, index: number, server = app) {
    const unpaid = await post('/stream/open', body, {}, server);
    expect(unpaid.status).toBe(402);
    return createPaymentHeader(payer(index) as never, 1, unpaid.body.accepts[0] as PaymentRequirements);
  }
  async function openSession(body: Record<string, unknown>, index: number) {
    const opened = await post('/stream/open', body, { 'x-payment': await signedFor(body, index) });
    expect(opened.status).toBe(201);
    return opened.body as { sessionId: string; token: string } & Record<string, unknown>;
  }
  const rowsOf = (address: Address) => handle.db.select().from(streamSessions).where(eq(streamSessions.payer, address.toLowerCase()));

  describe('ticks', () => {
    it('takes exactly 37 of 100 concurrent one-unit ticks against a balance for 37; the balance ends at 0, never below', async () => {
      const session = await openSession({ amountUsdc: '2.775', unitType: 'call' }, 7);
      const answers = await Promise.all(Array.from({ length: 100 }, () => post(`/stream/${session.sessionId}/tick`, { units: 1 }, bearer(session.token))));
      const taken = answers.filter((answer) => answer.status === 200);
      const refused = answers.filter((answer) => answer.status === 402);
      expect([taken.length, refused.length]).toEqual([37, 63]);
      // Each success saw a different balance: 36, 35, ... 0 units left.
      expect(taken.map((answer) => answer.body.balanceUnits).sort((a, b) => a - b)).toEqual(Array.from({ length: 37 }, (_, index) => index));
      for (const answer of refused) {
        expect(answer.body).toEqual({
          error: '1 call units cost 0.075 USDC; the balance is 0 USDC (0 units). Nothing was charged.',
          code: 'CMP_ERR_STREAM_INSUFFICIENT_BALANCE',
          sessionId: session.sessionId,
          requestedUnits: 1,
          costUsdc: '0.075',
          balanceUsdc: '0',
          balanceUnits: 0,
        });
      }
      const after = await get(`/stream/${session.sessionId}`, bearer(session.token));
      expect(after.body).toMatchObject({ status: 'EXHAUSTED', balanceUsdc: '0', balanceUnits: 0, unitsUsed: 37, fundedUsdc: '2.775', lastTickAt: TEST_NOW });
      const [row] = await handle.db.select().from(streamSessions).where(eq(streamSessions.sessionId, session.sessionId));
      expect([row!.balance, row!.unitsUsed]).toEqual([0n, 37n]);
    });

    it('charges units x unit price, all or nothing: a tick the balance does not cover is a 402 with the remaining balance, and takes nothing', async () => {
      const session = await openSession({ amountUsdc: '0.01', unitType: 'second' }, 8); // 100 seconds at 0.0001
      const first = await post(`/stream/${session.sessionId}/tick`, { units: 60 }, bearer(session.token));
      expect(first).toMatchObject({
        status: 200,
        body: { sessionId: session.sessionId, unitsCharged: 60, costUsdc: '0.006', balanceUsdc: '0.004', balanceUnits: 40, unitsUsed: 60, status: 'ACTIVE', tickedAt: TEST_NOW },
      });
      const tooMany = await post(`/stream/${session.sessionId}/tick`, { units: 41 }, bearer(session.token));
      expect(tooMany).toMatchObject({
        status: 402,
        body: {
          error: '41 second units cost 0.0041 USDC; the balance is 0.004 USDC (40 units). Nothing was charged.',
          code: 'CMP_ERR_STREAM_INSUFFICIENT_BALANCE',
          requestedUnits: 41,
          balanceUsdc: '0.004',
          balanceUnits: 40,
        },
      });
      const rest = await post(`/stream/${session.sessionId}/tick`, { units: 40 }, bearer(session.token));
      expect(rest.body).toMatchObject({ balanceUsdc: '0', balanceUnits: 0, unitsUsed: 100, status: 'EXHAUSTED' });
    });

    it('refuses ticks from 24 hours after opening with 410; the session reads EXPIRED with its balance', async () => {
      const session = await openSession({ amountUsdc: '0.02', unitType: 'second' }, 8);
      try {
        clock.advance(STREAM_SESSION_TTL_MS - 1);
        expect((await post(`/stream/${session.sessionId}/tick`, { units: 1 }, bearer(session.token))).status).toBe(200);
        clock.advance(1); // exactly expiresAt
        const late = await post(`/stream/${session.sessionId}/tick`, { units: 1 }, bearer(session.token));
        expect(late).toMatchObject({
          status: 410,
          body: {
            error: 'The streaming session expired at 2026-11-23T12:00:00.000Z: it takes no more ticks.',
            code: 'CMP_ERR_STREAM_EXPIRED',
            sessionId: session.sessionId,
            expiresAt: '2026-11-23T12:00:00.000Z',
            balanceUsdc: '0.0199',
          },
        });
        expect((await get(`/stream/${session.sessionId}`, bearer(session.token))).body).toMatchObject({ status: 'EXPIRED', balanceUsdc: '0.0199', unitsUsed: 1 });
      } finally {
        clock.set(TEST_NOW);
      }
    });

    it("answers only with the session token: 401 without one, 404 with another session's or an unknown id, 400 for a malformed id or units", async () => {
      const mine = await openSession({ amountUsdc: '0.01', unitType: 'byte' }, 9);
      const other = await openSession({ amountUsdc: '0.01', unitType: 'byte' }, 9);
      const tick = (sessionId: string, headers: Record<string, string>, units: unknown = 1) => post(`/stream/${sessionId}/tick`, { units }, headers);
      for (const headers of [{}, { authorization: 'Basic abc' }, bearer('sst_short'), { authorization: `Bearer ${mine.token}x` }]) {
        expect(await tick(mine.sessionId, headers)).toMatchObject({ status: 401, body: { code: 'CMP_ERR_STREAM_TOKEN_REQUIRED' } });
        expect((await get(`/stream/${mine.sessionId}`, headers)).status).toBe(401);
      }
      const notFound = { error: 'No streaming session has this sessionId and this token.', code: 'CMP_ERR_STREAM_NOT_FOUND' };
      expect(await tick(mine.sessionId, bearer(other.token))).toMatchObject({ status: 404, body: notFound });
      expect(await get(`/stream/${mine.sessionId}`, bearer(other.token))).toEqual({ status: 404, body: notFound });
      expect(await tick(`str_${'A'.repeat(22)}`, bearer(mine.token))).toMatchObject({ status: 404, body: notFound });
      for (const [sessionId, units, message] of [
        ['str_short', 1, /sessionId: must be a sessionId/],
        [mine.sessionId, 0, /units: must be at least 1/],
        [mine.sessionId, 1.5, /units: must be a whole number/],
        [mine.sessionId, '1', /units: must be a whole number/],
        [mine.sessionId, 10_000_000_001, /units: must be at most 10000000000/],
      ] as const) {
        expect(await tick(sessionId, bearer(mine.token), units)).toMatchObject({ status: 400, body: { error: expect.stringMatching(message), code: 'CMP_ERR_INVALID_REQUEST' } });
      }
      expect((await get(`/stream/${mine.sessionId}`, bearer(mine.token))).body).toMatchObject({ balanceUnits: 10_000, unitsUsed: 0 });
    });
  });

  describe('settlement and the session row', () => {
    /** A fresh payer holding exactly `amount` of the token and some gas (sent by development account 9). */
    async function payerHolding(seed: string, amount: bigint) {
      const account = privateKeyToAccount(keccak256(toHex(`${seed} ${testDatabase.driver} ${Date.now()}`)));
      const funder = payer(9);
      const sent = await funder.writeContract({
        address: rail.payment!.token,
        abi: railUSDAbi,
        functionName: 'transfer',
        args: [account.address, amount],
        account: funder.account!,
        chain: funder.chain,
      });
      await rail.publicClient.waitForTransactionReceipt({ hash: sent });
      const gas = await funder.sendTransaction({ to: account.address, value: parseUnits('1', 18), account: funder.account!, chain: funder.chain });
      await rail.publicClient.waitForTransactionReceipt({ hash: gas });
      return { account, wallet: rail.embedded!.walletFor(account as never) };
    }

    it('opens no session when the settlement fails (the payer moved its funds away after the claim)', async () => {
      const { account, wallet } = await payerHolding('stream payer who empties its wallet', 1_000_000n);
      const draining = await buildApp({
        x402: (real) => ({
          async authorize(header, price, resource) {
            const authorized = await real.authorize(header, price, resource);
            if (authorized.ok) {
              const hash = await wallet.writeContract({
                address: rail.payment!.token,
                abi: railUSDAbi,
                functionName: 'transfer',
                args: [rail.embedded!.accounts[9]!.address as Address, 1_000_000n],
                account: wallet.account!,
                chain: wallet.chain,
              });
              await rail.publicClient.waitForTransactionReceipt({ hash });
            }
            return authorized;
          },
        }),
      });
      try {
        const body = { amountUsdc: '1', unitType: 'byte' };
        const unpaid = await post('/stream/open', body, {}, draining);
        const header = await createPaymentHeader(wallet as never, 1, unpaid.body.accepts[0] as PaymentRequirements);
        const failed = await post('/stream/open', body, { 'x-payment': header }, draining);
        expect(failed.status).toBe(402);
        expect(failed.body.error).toMatch(/sign a new authorization to retry$/);
        expect(failed.body).not.toHaveProperty('sessionId');
        expect(failed.headers['x-payment-response']).toBeUndefined();
        expect(await rowsOf(account.address)).toEqual([]);
      } finally {
        await draining.close();
      }
    });

    it('retries a failed insert once after settlement, logging it: the session exists', async () => {
      let failures = 1;
      const flaky = await buildApp({
        store: (real) => ({
          ...real,
          async insert(session) {
            if (failures-- > 0) throw new Error('connection reset while inserting');
            return real.insert(session);
          },
        }),
      });
      logged.length = 0;
      try {
        const body = { amountUsdc: '0.5', unitType: 'token' };
        const opened = await post('/stream/open', body, { 'x-payment': await signedFor(body, 2, flaky) }, flaky);
        expect(opened.status).toBe(201);
        expect(logged.map((line) => line.message)).toEqual(['stream session: payment settled but the session insert failed; retrying once']);
        expect(logged[0]!.details).toMatchObject({ sessionId: opened.body.sessionId, transaction: opened.body.transaction, fundedBaseUnits: '500000' });
        expect((await get(`/stream/${opened.body.sessionId}`, bearer(opened.body.token))).body).toMatchObject({ status: 'ACTIVE', balanceUnits: 250_000 });
      } finally {
        await flaky.close();
      }
    });

    it('logs the settled payment for the operator and answers 500 CMP_ERR_STREAM_NOT_RECORDED when the insert fails twice', async () => {
      const broken = await buildApp({
        store: (real) => ({
          ...real,
          async insert() {
            throw new Error('database gone');
          },
        }),
      });
      logged.length = 0;
      try {
        const from = rail.embedded!.accounts[2]!.address;
        const body = { amountUsdc: '0.25', unitType: 'byte' };
        const header = await signedFor(body, 2, broken);
        const before = await balanceOf(from);
        const failed = await post('/stream/open', body, { 'x-payment': header }, broken);
        expect(failed.status).toBe(500);
        const { transaction } = settleResponseFromHeader(String(failed.headers['x-payment-response']));
        expect(failed.body).toEqual({
          error: `The payment settled (transaction ${transaction}) but the streaming session could not be recorded; the failure was logged for the operator. Do not pay again.`,
          code: 'CMP_ERR_STREAM_NOT_RECORDED',
          transaction,
          payer: from,
        });
        expect(before - (await balanceOf(from))).toBe(250_000n);
        expect(logged.map((line) => line.message)).toEqual([
          'stream session: payment settled but the session insert failed; retrying once',
          'stream session NOT RECORDED after a settled payment: open it by hand for this payer and transaction',
        ]);
        expect(logged[1]!.details).toMatchObject({ payer: from.toLowerCase(), transaction, fundedBaseUnits: '250000', paymentNonce: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      } finally {
        await broken.close();
      }
    });
  });
});

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
import { VOP_OFFER } from '../vop/service.js';
import { STREAM_SESSION_TTL_MS, type StreamLog } from './service.js';
import { buildStreamTestApp, DESCRIPTION_37_CALLS, RESOURCE, SESSION_ID, type StreamTestOverrides as Overrides, TOKEN } from './testing.js';

// POST /compliance/stream/open paid with the x402 client on the embedded rail, ticks, reads and
// expiry, on PGlite and (with DATABASE_URL) PostgreSQL. The plugin is mounted as the compliance
// routes mount it: under /compliance, errors as {error, code}, declared in the price list.

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

  describe('POST /stream/open', () => {
    it('answers 402 with x402 requirements for exactly the amount asked, then opens the session once paid, the amount moved on chain', async () => {
      const body = { amountUsdc: '2.775', unitType: 'call' };
      const unpaid = await post('/stream/open', body);
      expect(unpaid.status).toBe(402);
      expect(unpaid.body).toEqual({
        x402Version: 1,
        error: 'X-PAYMENT header is required',
        accepts: [
          {
            scheme: 'exact',
            network: 'base',
            maxAmountRequired: '2775000', // 2.775 x 10^6
            resource: RESOURCE,
            description: DESCRIPTION_37_CALLS,
            mimeType: 'application/json',
            payTo: rail.payment!.payTo,
            maxTimeoutSeconds: 60,
            asset: rail.payment!.token,
            extra: { name: 'Settlement Rail USD', version: '1' },
          },
        ],
        streamPreview: { amountUsdc: '2.775', unitType: 'call', unitPriceUsdc: '0.075', balanceUnits: 37, validForHours: 24 },
      });

      const from = rail.embedded!.accounts[3]!.address;
      const [payerBefore, payeeBefore] = [await balanceOf(from), await balanceOf(rail.payment!.payTo)];
      const header = await createPaymentHeader(payer(3) as never, 1, unpaid.body.accepts[0] as PaymentRequirements);
      const opened = await post('/stream/open', body, { 'x-payment': header });
      expect(opened.status).toBe(201);
      const settlement = settleResponseFromHeader(String(opened.headers['x-payment-response']));
      expect(settlement).toMatchObject({ success: true, network: 'base', payer: from });
      expect(opened.body).toEqual({
        sessionId: expect.stringMatching(SESSION_ID),
        status: 'ACTIVE',
        unitType: 'call',
        unitPriceUsdc: '0.075',
        fundedUsdc: '2.775',
        balanceUsdc: '2.775',
        balanceUnits: 37, // 2775000 / 75000
        unitsUsed: 0,
        payer: from,
        transaction: settlement.transaction,
        openedAt: TEST_NOW,
        expiresAt: '2026-11-23T12:00:00.000Z', // 24 hours later
        lastTickAt: null,
        token: expect.stringMatching(TOKEN),
      });
      expect(payerBefore - (await balanceOf(from))).toBe(parseUnits('2.775', 6));
      expect((await balanceOf(rail.payment!.payTo)) - payeeBefore).toBe(parseUnits('2.775', 6));

      // The token is shown once and kept only as its SHA-256.
      const [row] = await handle.db.select().from(streamSessions).where(eq(streamSessions.sessionId, opened.body.sessionId));
      expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))).not.toContain(opened.body.token.slice(4));
      const { token: _token, ...view } = opened.body;
      expect(await get(`/stream/${opened.body.sessionId}`, bearer(opened.body.token))).toEqual({ status: 200, body: view });
    });

    it('refuses a replay of the paying X-PAYMENT: one payment opens one session', async () => {
      const body = { amountUsdc: 0.01, unitType: 'second' };
      const header = await signedFor(body, 4);
      const before = (await rowsOf(rail.embedded!.accounts[4]!.address)).length;
      expect((await post('/stream/open', body, { 'x-payment': header })).status).toBe(201);
      const replay = await post('/stream/open', body, { 'x-payment': header });
      expect(replay.status).toBe(402);
      expect(replay.body.error).toMatch(/^payment_already_used/);
      expect((await rowsOf(rail.embedded!.accounts[4]!.address)).length).toBe(before + 1);
    });

    it('lets exactly one of five concurrent opens carrying one payment through', async () => {
      const body = { amountUsdc: '1', unitType: 'token' };
      const header = await signedFor(body, 5);
      const before = (await rowsOf(rail.embedded!.accounts[5]!.address)).length;
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => post('/stream/open', body, { 'x-payment': header })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 402, 402, 402, 402]);
      for (const refused of answers.filter((answer) => answer.status === 402)) expect(refused.body.error).toMatch(/^payment_already_used/);
      expect((await rowsOf(rail.embedded!.accounts[5]!.address)).length).toBe(before + 1);
    });

    it('refuses a payment signed for another amount than the body asks, storing nothing', async () => {
      const header = await signedFor({ amountUsdc: '1', unitType: 'byte' }, 6);
      const before = (await rowsOf(rail.embedded!.accounts[6]!.address)).length;
      const response = await post('/stream/open', { amountUsdc: '2', unitType: 'byte' }, { 'x-payment': header });
      expect(response.status).toBe(402);
      expect(response.body.error).toMatch(/^invalid_exact_evm_payload_authorization_value: the authorization must be for exactly 2000000/);
      expect(response.body.accepts[0].maxAmountRequired).toBe('2000000');
      expect((await rowsOf(rail.embedded!.accounts[6]!.address)).length).toBe(before);
    });

    it.each<[string, unknown, string]>([
      ['0.01 USDC of seconds', { amountUsdc: '0.01', unitType: 'second' }, '10000'], // the least: 100 seconds at 100
      ['10000 USDC of bytes', { amountUsdc: 10000, unitType: 'byte' }, '10000000000'], // the most: 10^4 x 10^6
      ['a number with 6 decimals', { amountUsdc: 1.000001, unitType: 'byte' }, '1000001'],
    ])('prices %s at its exact base units', async (_case, body, amount) => {
      const { status, body: answer } = await post('/stream/open', body);
      expect(status).toBe(402);
      expect(answer.accepts[0].maxAmountRequired).toBe(amount);
    });

    it.each<[string, unknown, RegExp]>([
      ['below 0.01', { amountUsdc: '0.009999', unitType: 'byte' }, /amountUsdc: must be between 0.01 and 10000 USDC/],
      ['above 10000', { amountUsdc: '10000.000001', unitType: 'byte' }, /amountUsdc: must be between 0.01 and 10000 USDC/],
      ['zero', { amountUsdc: 0, unitType: 'byte' }, /amountUsdc: must be between/],
      ['7 decimals', { amountUsdc: '1.0000001', unitType: 'byte' }, /amountUsdc: must be a decimal amount of USDC with at most 6 decimal places/],
      ['a negative amount', { amountUsdc: '-1', unitType: 'byte' }, /amountUsdc: must be a decimal amount/],
      ['an exponent', { amountUsdc: '1e2', unitType: 'byte' }, /amountUsdc: must be a decimal amount/],
      ['a tiny number written 1e-7', { amountUsdc: 1e-7, unitType: 'byte' }, /amountUsdc: must be a decimal amount/],
      ['spaces', { amountUsdc: ' 1', unitType: 'byte' }, /amountUsdc: must be a decimal amount/],
      ['Arabic-Indic digits', { amountUsdc: '١٠', unitType: 'byte' }, /amountUsdc: must be a decimal amount/],
      ['a huge string', { amountUsdc: '9'.repeat(100_000), unitType: 'byte' }, /amountUsdc/],
      ['a boolean', { amountUsdc: true, unitType: 'byte' }, /amountUsdc/],
      ['no amount', { unitType: 'byte' }, /amountUsdc/],
      ['an unknown unit type', { amountUsdc: '1', unitType: 'minute' }, /unitType: must be one of second, token, call, byte/],
      ['an unknown field', { amountUsdc: '1', unitType: 'byte', ttl: 3600 }, /unknown field: "ttl"/],
    ])('refuses %s: 400 CMP_ERR_INVALID_REQUEST, before any payment', async (_case, body, message) => {
      const { status, body: answer } = await post('/stream/open', body, { 'x-payment': 'never read' });
      expect(status).toBe(400);
      expect(answer).toEqual({ error: expect.stringMatching(message), code: 'CMP_ERR_INVALID_REQUEST' });
    });

    it('refuses a __proto__ key written by hand into the JSON', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/compliance/stream/open',
        headers: { 'content-type': 'application/json' },
        payload: '{"amountUsdc":"1","unitType":"byte","__proto__":{"unitType":"call"}}',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String), code: 'CMP_ERR_INVALID_REQUEST' });
    });

    it.each<[string, string, string[]]>([
      ['0.01 USDC buys no call (0.075 each)', '0.01', ['0.075']],
      ['1 USDC is 13.33 calls', '1', ['0.975', '1.05']], // 13 x 0.075, 14 x 0.075
      ['10000 USDC is 133333.33 calls', '10000', ['9999.975']], // 133333 x 0.075; 133334 x 0.075 = 10000.05 is above the limit
    ])('refuses an amount that is not a whole number of units: %s, naming the nearest amounts', async (_case, amountUsdc, nearest) => {
      const { status, body } = await post('/stream/open', { amountUsdc, unitType: 'call' });
      expect(status).toBe(400);
      expect(body).toEqual({
        error: `amountUsdc ${amountUsdc} is not a whole number of call units at 0.075 USDC each; nearest amounts: ${nearest.join(' or ')}.`,
        code: 'CMP_ERR_STREAM_AMOUNT_NOT_WHOLE_UNITS',
        unitType: 'call',
        unitPriceUsdc: '0.075',
        nearestAmountsUsdc: nearest,
      });
    });
  });

  it('GET /.well-known/x402 lists POST /stream/open as the spec writes it, beside a fixed price', async () => {
    const { status, body } = await get('/.well-known/x402');
    expect(status).toBe(200);
    expect(body).toEqual({
      version: 1,
      endpoints: {
        'POST /vop/verify': { price: { amount: '75000', currency: 'USDC', decimals: 6 }, network: 'base', facilitator: 'http://localhost:80', description: VOP_OFFER.price.description },
        'POST /stream/open': {
          variableAmount: true,
          minUsdc: 0.01,
          maxUsdc: 10000,
          unitTypes: ['second', 'token', 'call', 'byte'],
          network: 'base',
          facilitator: 'http://localhost:80',
          description: 'Pay upfront for a credit bucket, units ticked against the balance',
        },
      },
    });
    expect(Object.keys(body.endpoints['POST /stream/open'])).toEqual(['variableAmount', 'minUsdc', 'maxUsdc', 'unitTypes', 'network', 'facilitator', 'description']);
  });

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

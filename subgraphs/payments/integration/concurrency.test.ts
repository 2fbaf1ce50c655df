import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementRouterAbi } from '../../../contracts/artifacts/SettlementRouter.js';
import { paymentCallbacks, payments } from '../../../drizzle/schema.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../../../platform/db.js';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';

// Issue 10 item 3: 20 identical initiations at the same moment, split across two servers with
// their own connection pools on one PostgreSQL schema (as two processes would be), give one
// payment row, one callback in the outbox and one transfer on chain; every answer is that
// payment's (SETTLED, or PENDING while the first request was still running).

const databaseUrl = process.env.DATABASE_URL;
const ADMIN_KEY = 'payments-test-admin-key-0123456789abcdef01';
const INTERNAL_KEY = 'payments-test-internal-key-0123456789abcdef';
const CONCURRENT = 20;

describe.runIf(databaseUrl)('concurrent identical initiations on PostgreSQL', () => {
  const schemaName = `t_pay_${process.pid}_${Date.now().toString(36)}`;
  const handles: DatabaseHandle[] = [];
  const servers: TestServer[] = [];

  beforeAll(async () => {
    // One after another: the second open finds the migrations applied.
    for (let k = 0; k < 2; k += 1) handles.push(await openDatabase({ databaseUrl, schemaName, poolSize: 8 }));
    for (const database of handles) servers.push(await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], database, environment: { ADMIN_KEY, INTERNAL_KEY } }));
  }, 300_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const handle of handles) await handle.close();
    if (databaseUrl) await dropSchema(databaseUrl, schemaName);
  });

  it('one payment, one callback, one transfer; every answer is that payment', async () => {
    const [first, second] = servers as [TestServer, TestServer];
    const creditor: Address = getAddress(`0x${randomBytes(20).toString('hex')}`);
    const registered = await first.app.inject({
      method: 'POST',
      url: '/compliance/register',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { walletAddress: creditor, lei: ACTIVE_LEI_ENTRY.lei },
    });
    expect(registered.statusCode).toBe(201);
    const key = (await first.platform!.access.keys.create('bearer', 'treasury desk', 1000)).key;
    const payment = {
      tmsReference: `TMS-RACE-${randomBytes(4).toString('hex')}`,
      amount: '77.25',
      currency: 'USD',
      creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditor },
      debtor: { name: 'Acme Treasury Ltd', walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) },
      callbackUrl: 'https://receiver.example/payments',
    };
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, k) =>
        (k % 2 === 0 ? first : second).app.inject({ method: 'POST', url: '/integration/payments/initiate', headers: { authorization: `Bearer ${key}` }, payload: payment }),
      ),
    );
    const bodies = answers.map((answer) => {
      expect(answer.statusCode).toBe(200);
      return answer.json() as { railPaymentId: string; status: string };
    });
    const ids = new Set(bodies.map((body) => body.railPaymentId));
    expect(ids.size).toBe(1);
    expect(bodies.filter((body) => body.status === 'SETTLED').length).toBeGreaterThanOrEqual(1);
    expect(bodies.every((body) => body.status === 'SETTLED' || body.status === 'PENDING')).toBe(true);

    const db = handles[0]!.db;
    const rows = await db.select().from(payments).where(eq(payments.tmsReference, payment.tmsReference));
    expect(rows.map((row) => row.status)).toEqual(['SETTLED']);
    const callbacks = await db.select().from(paymentCallbacks).where(eq(paymentCallbacks.railPaymentId, rows[0]!.railPaymentId));
    expect(callbacks).toHaveLength(1);
    expect(JSON.parse(callbacks[0]!.body)).toEqual(rows[0]!.result);

    const rail = await first.platform!.chain.connect();
    const transfers = await rail.publicClient.getContractEvents({ address: rail.contracts.router!, abi: settlementRouterAbi, eventName: 'Settled', args: { payee: creditor }, fromBlock: 0n });
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.transactionHash).toBe(rows[0]!.txHash);
    expect(transfers[0]!.args.amount).toBe(77_250_000n);
  }, 120_000);
});

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import { agentHeldSettlements, payments } from '../../../drizzle/schema.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../../../platform/db.js';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from '../../../test/helpers.js';
import { EMBEDDED_TREASURY_ACCOUNT_INDEX } from '../rail/settlement.js';
import { fundAgent, registerTestAgent } from './testing.js';

// Held settlements (decision 0047) through the all-in-one server: agents registered with the
// compliance oracle, a settlement held by their mandate, then released or dismissed by the
// operator with the admin key. Run on PGlite, and on PostgreSQL when DATABASE_URL is set.

const ADMIN_KEY = 'holds-test-admin-key-0123456789abcdef012345';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const HOLD_ID = /^hld_[A-Za-z0-9_-]{22}$/;
const databaseUrl = process.env.DATABASE_URL;
const drivers = ['pglite', ...(databaseUrl ? ['postgres'] : [])];

describe.each(drivers)('held agent settlements on %s', (driver) => {
  const schemaName = `t_hold_${process.pid}_${Date.now().toString(36)}`;
  let handle: DatabaseHandle | undefined;
  let server: TestServer;

  beforeAll(async () => {
    if (driver === 'postgres') handle = await openDatabase({ databaseUrl, schemaName, poolSize: 8 });
    server = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], ...(handle ? { database: handle } : {}), environment: { ADMIN_KEY } });
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await handle?.close();
    if (handle && databaseUrl) await dropSchema(databaseUrl, schemaName);
  });

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, options: { payload?: unknown; headers?: Record<string, string> } = {}) => {
    const { status, body } = await injectJson(server, method, url, options);
    return { status, body };
  };
  const admin = (method: 'GET' | 'POST', url: string, payload?: unknown) => call(method, url, { headers: ADMIN, ...(payload === undefined ? {} : { payload }) });
  const rail = () => server.platform!.chain.connect();
  const balanceOf = async (address: Address) => {
    const connection = await rail();
    return connection.publicClient.readContract({ address: connection.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
  };
  const treasury = async () => (await rail()).embedded!.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX]!.address;
  const db = () => server.platform!.database.db;

  async function registeredRecipient(): Promise<Address> {
    const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
    expect((await call('POST', '/compliance/register', { payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei }, headers: ADMIN })).status).toBe(201);
    return wallet;
  }

  /** X-Agent-Id and X-Agent-Key (the owner's proof, decision 0048) of each agent registered here. */
  const owners = new Map<string, Record<string, string>>();
  const headersOf = (agentId: string) => owners.get(agentId)!;

  /** A REGISTERED agent with its mandate, its owner's `fundsUsd` deposited (decision 0049). */
  async function registeredAgent(mandate: Record<string, unknown>, fundsUsd = '20000'): Promise<string> {
    const agent = await registerTestAgent(server);
    owners.set(agent.agentId, agent.headers);
    expect((await call('POST', '/compliance/agent/mandate', { payload: { agentId: agent.agentId, ...mandate }, headers: agent.headers })).status).toBe(201);
    await fundAgent(server, await rail(), agent, fundsUsd);
    return agent.agentId;
  }

  /** A settlement of 1,250.50 USD by an agent whose maximum notional is 1,000: held (MAX_NOTIONAL). */
  async function heldSettlement(mandate: Record<string, unknown> = {}, fundsUsd?: string) {
    const agentId = await registeredAgent({ maxNotionalUsd: 1000, dailyCapUsd: 10_000, ...mandate }, fundsUsd);
    const recipient = await registeredRecipient();
    const settled = await call('POST', '/agent/settle', { payload: { amount: 1250.5, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient }, headers: headersOf(agentId) });
    expect(settled.body).toMatchObject({ status: 'PENDING', held: true, holdId: expect.stringMatching(HOLD_ID) });
    return { agentId, recipient, holdId: settled.body.holdId as string, answer: settled.body };
  }

  it('a held settlement is stored with every violation and answered with its holdId; GET reads it (admin key)', async () => {
    const { agentId, recipient, holdId, answer } = await heldSettlement({ dailyCapUsd: 1000, currencyPairs: ['USD|EURC'], counterpartyWhitelist: ['529900T8BM49AURSDO55'] });
    expect(answer.violations.map((violation: { rule: string }) => violation.rule)).toEqual(['MAX_NOTIONAL', 'DAILY_CAP', 'COUNTERPARTY_WHITELIST', 'CURRENCY_PAIRS']);
    const read = await admin('GET', `/agent/holds/${holdId}`);
    expect(read).toEqual({
      status: 200,
      body: {
        holdId,
        agentId,
        request: { amount: '1250.5', sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient },
        amountUsd: '1250.5',
        violations: answer.violations,
        status: 'HELD',
        railPaymentId: null,
        createdAt: Math.floor(server.clock.now().getTime() / 1000),
        decidedAt: null,
      },
    });
    expect(await balanceOf(recipient)).toBe(0n);
  });

  it('the list: by agent and status, most recent first; the admin key is required everywhere', async () => {
    const first = await heldSettlement();
    server.clock.advance(1000);
    const agentId = first.agentId;
    const recipient = await registeredRecipient();
    const second = await call('POST', '/agent/settle', { payload: { amount: 2000, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient }, headers: headersOf(agentId) });
    const listed = await admin('GET', `/agent/holds?agentId=${agentId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.holds.map((hold: { holdId: string }) => hold.holdId)).toEqual([second.body.holdId, first.holdId]);
    expect((await admin('POST', `/agent/holds/${first.holdId}/dismiss`)).body.status).toBe('DISMISSED');
    expect((await admin('GET', `/agent/holds?agentId=${agentId}&status=HELD`)).body).toEqual({ count: 1, holds: [expect.objectContaining({ holdId: second.body.holdId, status: 'HELD' })] });
    expect((await admin('GET', '/agent/holds?status=DISMISSED')).body.holds.map((hold: { holdId: string }) => hold.holdId)).toContain(first.holdId);

    for (const [method, url] of [
      ['GET', '/agent/holds'],
      ['GET', `/agent/holds/${first.holdId}`],
      ['POST', `/agent/holds/${second.body.holdId}/release`],
      ['POST', `/agent/holds/${second.body.holdId}/dismiss`],
    ] as const) {
      for (const headers of [{}, { authorization: 'Bearer wrong-key-0123456789abcdef0123456789' }, { 'x-api-key': ADMIN_KEY }] as Record<string, string>[]) {
        expect(await call(method, url, { headers })).toEqual({ status: 401, body: { error: expect.any(String), code: 'GEN_ERR_UNAUTHORIZED' } });
      }
    }
    expect((await admin('GET', `/agent/holds/${second.body.holdId}`)).body.status).toBe('HELD');
  });

  it('release settles once: two at once give one payment and one transfer, carrying the agent; a third answers the same result', async () => {
    const { agentId, recipient, holdId } = await heldSettlement();
    const treasuryBefore = await balanceOf(await treasury());
    const [one, two] = await Promise.all([admin('POST', `/agent/holds/${holdId}/release`), admin('POST', `/agent/holds/${holdId}/release`, {})]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.body.railPaymentId).toBe(two.body.railPaymentId);
    const rows = await db()
      .select()
      .from(payments)
      .where(eq(payments.tmsReference, `AGT-HLD-${holdId}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ railPaymentId: one.body.railPaymentId, agentId, status: 'SETTLED' });
    expect(Number(rows[0]!.agentAmountUsd)).toBe(1250.5);
    // One transfer of 1,250.50 left the treasury, not two.
    const spent = treasuryBefore - (await balanceOf(await treasury()));
    expect(spent).toBeGreaterThanOrEqual(1_250_500_000n);
    expect(spent).toBeLessThan(2_501_000_000n);
    expect(await balanceOf(recipient)).toBeGreaterThan(0n);

    const third = await admin('POST', `/agent/holds/${holdId}/release`);
    expect(third).toEqual({
      status: 200,
      body: { status: 'SETTLED', held: false, holdId, railPaymentId: rows[0]!.railPaymentId, result: rows[0]!.result, violations: [], agent: { agentId, checked: [] }, mandate: null },
    });
    expect(third.body.result).toMatchObject({ tmsReference: `AGT-HLD-${holdId}`, status: 'SETTLED' });
    expect((await admin('GET', `/agent/holds/${holdId}`)).body).toMatchObject({ status: 'RELEASED', railPaymentId: rows[0]!.railPaymentId, decidedAt: expect.any(Number) });
    expect(await admin('POST', `/agent/holds/${holdId}/dismiss`)).toEqual({ status: 409, body: { error: expect.any(String), code: 'PAY_ERR_HOLD_DECIDED' } });
  });

  it('release of a hold whose agent was revoked meanwhile: 403, the hold stays HELD and nothing is sent', async () => {
    const { agentId, recipient, holdId } = await heldSettlement();
    expect((await call('DELETE', `/compliance/agent/${agentId}`, { headers: headersOf(agentId) })).status).toBe(200);
    expect(await admin('POST', `/agent/holds/${holdId}/release`)).toEqual({ status: 403, body: { error: expect.any(String), code: 'PAY_ERR_AGENT_REFUSED', reason: 'AGENT_REVOKED' } });
    expect((await admin('GET', `/agent/holds/${holdId}`)).body).toMatchObject({ status: 'HELD', railPaymentId: null, decidedAt: null });
    expect(
      await db()
        .select()
        .from(payments)
        .where(eq(payments.tmsReference, `AGT-HLD-${holdId}`)),
    ).toHaveLength(0);
    expect(await balanceOf(recipient)).toBe(0n);
  });

  it("release re-checks the owner's funds at its claim: spent meanwhile, the release is 409 PAY_ERR_INSUFFICIENT_FUNDS and the hold stays HELD", async () => {
    // Funds 1,300: the hold of 1,250.50 reserves nothing, a settlement of 900 then spends them down to 400.
    const { agentId, recipient, holdId } = await heldSettlement({}, '1300');
    const spent = await call('POST', '/agent/settle', { payload: { amount: 900, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient }, headers: headersOf(agentId) });
    expect(spent.body.status).toBe('SETTLED');
    const paid = await balanceOf(recipient);
    expect(await admin('POST', `/agent/holds/${holdId}/release`)).toEqual({ status: 409, body: { error: expect.stringContaining("agent's funds"), code: 'PAY_ERR_INSUFFICIENT_FUNDS' } });
    expect((await admin('GET', `/agent/holds/${holdId}`)).body).toMatchObject({ status: 'HELD', railPaymentId: null });
    expect(await balanceOf(recipient)).toBe(paid);
  });

  it('dismiss: DISMISSED, idempotent, nothing sent; a release then is 409', async () => {
    const { recipient, holdId } = await heldSettlement();
    const dismissed = await admin('POST', `/agent/holds/${holdId}/dismiss`);
    expect(dismissed).toEqual({ status: 200, body: expect.objectContaining({ holdId, status: 'DISMISSED', railPaymentId: null, decidedAt: expect.any(Number) }) });
    expect(await admin('POST', `/agent/holds/${holdId}/dismiss`)).toEqual(dismissed);
    expect(await admin('POST', `/agent/holds/${holdId}/release`)).toEqual({ status: 409, body: { error: expect.any(String), code: 'PAY_ERR_HOLD_DECIDED' } });
    const [row] = await db().select().from(agentHeldSettlements).where(eq(agentHeldSettlements.holdId, holdId));
    expect(row).toMatchObject({ status: 'DISMISSED', railPaymentId: null });
    expect(await balanceOf(recipient)).toBe(0n);
  });

  it('the admin key is checked before the body is read: malformed JSON without it is 401', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/agent/holds/hld_AAAAAAAAAAAAAAAAAAAAAA/release', payload: '{bad', headers: { 'content-type': 'application/json' } });
    expect({ status: response.statusCode, code: response.json().code }).toEqual({ status: 401, code: 'GEN_ERR_UNAUTHORIZED' });
  });

  it("the release's reference cannot be taken first from the integration API: AGT- and AP2- are refused there (400)", async () => {
    const { holdId, recipient } = await heldSettlement();
    const { key } = await server.platform!.access.keys.create('bearer', 'holds test desk', 1000);
    const squat = await call('POST', '/integration/payments/initiate', {
      headers: { authorization: `Bearer ${key}` },
      payload: {
        tmsReference: `AGT-HLD-${holdId}`,
        amount: '1.00',
        currency: 'USD',
        settlementAsset: 'USDC',
        creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: recipient },
        debtor: { name: 'Acme Treasury Ltd', walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) },
      },
    });
    expect(squat).toEqual({ status: 400, body: { error: expect.stringContaining('tmsReference'), code: 'PAY_ERR_INVALID_REQUEST' } });
    const released = await admin('POST', `/agent/holds/${holdId}/release`);
    expect(released.body).toMatchObject({ status: 'SETTLED', result: { tmsReference: `AGT-HLD-${holdId}`, settlement: { amount: '1250.5' } } });
  });

  it('an unknown holdId is 404 PAY_ERR_HOLD_NOT_FOUND', async () => {
    const unknown = 'hld_AAAAAAAAAAAAAAAAAAAAAA';
    for (const [method, url] of [
      ['GET', `/agent/holds/${unknown}`],
      ['POST', `/agent/holds/${unknown}/release`],
      ['POST', `/agent/holds/${unknown}/dismiss`],
    ] as const) {
      expect(await admin(method, url)).toEqual({ status: 404, body: { error: expect.any(String), code: 'PAY_ERR_HOLD_NOT_FOUND' } });
    }
  });

  it.each([
    ['a malformed holdId', 'GET', '/agent/holds/hld_%3Cscript%3E', undefined],
    ['a holdId too long', 'POST', `/agent/holds/hld_${'A'.repeat(5000)}/release`, undefined],
    ['another id kind', 'POST', '/agent/holds/agt_AAAAAAAAAAAAAAAAAAAAAA/dismiss', undefined],
    ['an unknown field in a release', 'POST', '/agent/holds/hld_AAAAAAAAAAAAAAAAAAAAAA/release', { force: true }],
    ['a release body that is not an object', 'POST', '/agent/holds/hld_AAAAAAAAAAAAAAAAAAAAAA/release', ['x']],
    ['an unknown query parameter', 'GET', '/agent/holds?limit=5', undefined],
    ['an unknown status', 'GET', '/agent/holds?status=PENDING', undefined],
    ['a malformed agentId', 'GET', '/agent/holds?agentId=agt_%27%20or%201%3D1', undefined],
    ['a repeated status', 'GET', '/agent/holds?status=HELD&status=HELD', undefined],
  ] as const)('%s: 400 PAY_ERR_INVALID_REQUEST', async (_name, method, url, payload) => {
    expect(await admin(method, url, payload)).toEqual({ status: 400, body: { error: expect.any(String), code: 'PAY_ERR_INVALID_REQUEST' } });
  });
});

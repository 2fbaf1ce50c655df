import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../platform/db.js';
import { openTestPglite, startTestServer, type TestServer } from './helpers.js';

// The integration API in the graph through the gateway (decision 0083): each field answers what its
// REST route answers for the same input, refuses whom the route refuses; institutionPayments lists
// the caller's own payments, with their callbacks loaded one statement per batch.

const ADMIN_KEY = 'graph-payments-admin-key-0123456789abcdef';
const INTERNAL_KEY = 'graph-payments-internal-key-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const INTERNAL = { 'x-internal-key': INTERNAL_KEY };

let server: TestServer;
let database: DatabaseHandle;
let alice: Record<string, string>;
let bob: Record<string, string>;

beforeAll(async () => {
  // A database of its own: the admin's list reads every institution's payments, other files' included.
  database = await openTestPglite();
  server = await startTestServer({ database, environment: { ADMIN_KEY, INTERNAL_KEY } });
  // Two institutions: a bearer key created alone founds its own (decision 0050).
  const keys = server.platform!.access.keys;
  alice = { authorization: `Bearer ${(await keys.create('bearer', 'alice desk', 1000)).key}` };
  bob = { authorization: `Bearer ${(await keys.create('bearer', 'bob desk', 1000)).key}` };
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

interface Answer {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, any> }>;
}

async function graphql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, url = '/graphql'): Promise<Answer> {
  const response = await server.app.inject({ method: 'POST', url, headers, payload: { query, variables } });
  return response.json() as Answer;
}

async function rest(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: unknown) {
  const response = await server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.json() as Record<string, any> };
}

const codeOf = (answer: Answer) => answer.errors?.[0]?.extensions?.code;
const freshWallet = () => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** A native payment to an unregistered wallet; each one a second after the one before, so newest-first is observable. */
async function pay(headers: Record<string, string>, overrides: Record<string, unknown> = {}) {
  server.clock.advance(1000);
  const payment = {
    tmsReference: `TMS-GP-${randomBytes(5).toString('hex')}`,
    amount: '42.5',
    currency: 'USD',
    creditor: { name: 'Unregistered Payee GmbH', walletAddress: freshWallet() },
    debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
    ...overrides,
  };
  const answer = await rest('POST', '/integration/payments/initiate', headers, payment);
  expect(answer.status).toBe(200);
  return answer.body as { railPaymentId: string; tmsReference: string; status: string };
}

const PAYMENT_FIELDS = `railPaymentId tmsReference status submittedAt settledAt
  settlement { txHash amount currency asset network exchangeRate fee }
  vop { requestId result proceedSafe score resolvedBy message }
  compliance { fatfR16Compliant micaCompliant geniusCompliant regulatoryNote }`;

describe('integrationManifest (GET /integration/manifest)', () => {
  const MANIFEST = `{ integrationManifest { server { name version } mcp { endpoint transport auth } tools { name title description inputSchema } } }`;

  it('equals the REST body, with the institution key', async () => {
    const answer = await graphql(MANIFEST, {}, alice);
    expect(answer.errors).toBeUndefined();
    const expected = await rest('GET', '/integration/manifest', alice);
    expect(expected.status).toBe(200);
    expect(answer.data!.integrationManifest).toEqual(expected.body);
    expect(answer.data!.integrationManifest.tools.length).toBeGreaterThan(0);
  });

  it('is refused without a key, as REST is (401)', async () => {
    const answer = await graphql(MANIFEST);
    expect(answer.data!.integrationManifest).toBeNull();
    expect(codeOf(answer)).toBe('GEN_ERR_UNAUTHORIZED');
    expect((await rest('GET', '/integration/manifest')).status).toBe(401);
  });
});

describe('treasurySummary (GET /integration/treasury-summary)', () => {
  const SUMMARY = `query ($period: String!) { treasurySummary(period: $period) {
    period from to disclosure { minimumCount minimumContributors maxDominantSharePct withheldCells }
    settlement { payments settled blocked failed pending settledVolumeUsd meanSecondsToSettle }
    corridors { corridor payments settled settlementRatePct settledVolumeUsd meanSecondsToSettle } withheldCorridors
    automatedDecisions { settlements { decisions settled blocked failed pending } holds { holds held released dismissed } violatedRules { rule holds } } } }`;

  it("equals the REST body for the month's payments, with the internal key", async () => {
    await pay(alice);
    const period = server.clock.now().toISOString().slice(0, 7);
    const answer = await graphql(SUMMARY, { period }, INTERNAL);
    expect(answer.errors).toBeUndefined();
    const expected = await rest('GET', `/integration/treasury-summary?period=${period}`, INTERNAL);
    expect(expected.status).toBe(200);
    expect(answer.data!.treasurySummary).toEqual(expected.body);
    expect(answer.data!.treasurySummary.period).toBe(period);
  });

  it("is refused without the internal key (an institution's or the admin's key is not it), before the period is read", async () => {
    for (const headers of [{}, alice, ADMIN, { 'x-internal-key': 'wrong' }]) {
      const answer = await graphql(SUMMARY, { period: 'not-a-month' }, headers);
      expect(answer.data!.treasurySummary).toBeNull();
      expect(codeOf(answer)).toBe('GEN_ERR_UNAUTHORIZED');
      expect((await rest('GET', '/integration/treasury-summary?period=not-a-month', headers)).status).toBe(401);
    }
  });

  it('a malformed period is PAY_ERR_INVALID_REQUEST, as REST answers it', async () => {
    const answer = await graphql(SUMMARY, { period: '2026-13' }, INTERNAL);
    expect(codeOf(answer)).toBe('PAY_ERR_INVALID_REQUEST');
    const expected = await rest('GET', '/integration/treasury-summary?period=2026-13', INTERNAL);
    expect([expected.status, expected.body.code]).toEqual([400, 'PAY_ERR_INVALID_REQUEST']);
  });
});

describe('payment, paymentByTmsReference, fxRate (annotated REST routes)', () => {
  it('answer the REST bodies; another institution finds nothing where REST answers 404', async () => {
    const paid = await pay(alice);
    const answer = await graphql(
      `query ($id: ID!, $ref: String!) { payment(railPaymentId: $id) { ${PAYMENT_FIELDS} } paymentByTmsReference(tmsReference: $ref) { ${PAYMENT_FIELDS} } fxRate(currency: "EUR") { currency rate updatedAt } }`,
      { id: paid.railPaymentId, ref: paid.tmsReference },
      alice,
    );
    expect(answer.errors).toBeUndefined();
    const byId = await rest('GET', `/integration/payments/${paid.railPaymentId}`, alice);
    expect(answer.data!.payment).toEqual(byId.body);
    expect(answer.data!.paymentByTmsReference).toEqual((await rest('GET', `/integration/payments?tmsReference=${paid.tmsReference}`, alice)).body);
    expect(answer.data!.fxRate).toEqual((await rest('GET', '/integration/rates/EUR')).body);

    const stranger = await graphql(
      `
        query ($id: ID!) {
          payment(railPaymentId: $id) {
            railPaymentId
          }
        }
      `,
      { id: paid.railPaymentId },
      bob,
    );
    expect(stranger.data!.payment).toBeNull();
    expect((await rest('GET', `/integration/payments/${paid.railPaymentId}`, bob)).status).toBe(404);
  });
});

describe('institutionPayments (no REST route; decision 0083)', () => {
  const LIST = `query ($first: Int, $status: PaymentStatus) { institutionPayments(first: $first, status: $status) {
    ${PAYMENT_FIELDS} callback { status attempts lastHttpStatus queuedAt nextAttemptAt deliveredAt } } }`;

  it("lists the caller's own payments, newest first, each as REST answers it; another institution's never", async () => {
    const mine = [await pay(alice), await pay(alice), await pay(alice)];
    const theirs = await pay(bob);
    const answer = await graphql(LIST, { first: 3 }, alice);
    expect(answer.errors).toBeUndefined();
    const listed = answer.data!.institutionPayments as Array<Record<string, any>>;
    expect(listed.map((payment) => payment.railPaymentId)).toEqual(mine.map((payment) => payment.railPaymentId).reverse());
    for (const payment of listed) {
      const { callback, ...result } = payment;
      expect(result).toEqual((await rest('GET', `/integration/payments/${payment.railPaymentId}`, alice)).body);
      expect(callback).toBeNull();
    }
    const all = (await graphql(LIST, { first: 100 }, alice)).data!.institutionPayments as Array<{ railPaymentId: string }>;
    expect(all.map((payment) => payment.railPaymentId)).not.toContain(theirs.railPaymentId);
    expect((await graphql(LIST, { first: 1 }, bob)).data!.institutionPayments.map((payment: { railPaymentId: string }) => payment.railPaymentId)).toEqual([theirs.railPaymentId]);
  });

  it("the admin key lists every institution's", async () => {
    const ofAlice = await pay(alice);
    const ofBob = await pay(bob);
    const listed = (await graphql(LIST, { first: 2 }, ADMIN)).data!.institutionPayments as Array<{ railPaymentId: string }>;
    expect(listed.map((payment) => payment.railPaymentId)).toEqual([ofBob.railPaymentId, ofAlice.railPaymentId]);
  });

  it('filters by status', async () => {
    await pay(alice);
    const settled = (await graphql(LIST, { first: 100, status: 'SETTLED' }, alice)).data!.institutionPayments as Array<{ status: string }>;
    expect(settled.length).toBeGreaterThan(0);
    expect(settled.every((payment) => payment.status === 'SETTLED')).toBe(true);
    expect((await graphql(LIST, { first: 100, status: 'FAILED' }, alice)).data!.institutionPayments).toEqual([]);
  });

  it('refuses no key, an unknown key, and a page above 100 (or below 1) with a clear error', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Array<Record<string, string>>) {
      const answer = await graphql(LIST, { first: 5 }, headers);
      expect(answer.data!.institutionPayments).toBeNull();
      expect(codeOf(answer)).toBe('GEN_ERR_UNAUTHORIZED');
    }
    for (const first of [101, 0, -1]) {
      const answer = await graphql(LIST, { first }, alice);
      expect(answer.data!.institutionPayments).toBeNull();
      expect(codeOf(answer)).toBe('PAY_ERR_INVALID_REQUEST');
      expect(answer.errors![0]!.message).toContain('from 1 to 100');
    }
    const badStatus = await graphql(LIST, { first: 5, status: 'LOST' }, alice);
    expect(codeOf(badStatus)).not.toBe('INTERNAL_SERVER_ERROR');
    expect(codeOf(badStatus)).toEqual(expect.any(String));
  });

  it("shows each payment's callback as the outbox holds it, the callbacks of a page read in one statement", async () => {
    const withCallbacks = [];
    for (let index = 0; index < 3; index += 1) withCallbacks.push(await pay(alice, { callbackUrl: `https://treasury.example.com/hooks/${index}` }));
    // Counted at the payments subgraph's endpoint, where its statements run in this process.
    const spy = vi.spyOn(server.platform!.database.db._.session, 'prepareQuery');
    let counted: Answer;
    let statements: string[];
    try {
      counted = await graphql(LIST, { first: 3 }, alice, '/subgraphs/payments/graphql');
      statements = spy.mock.calls.map((call) => (call[0] as { sql: string }).sql);
    } finally {
      spy.mockRestore();
    }
    expect(counted.errors).toBeUndefined();
    expect(statements.filter((sql) => /"payment_callbacks"/.test(sql))).toHaveLength(1);
    const answer = await graphql(LIST, { first: 3 }, alice);
    expect(answer.data).toEqual(counted.data);
    const listed = answer.data!.institutionPayments as Array<{ railPaymentId: string; callback: Record<string, unknown> }>;
    expect(listed.map((payment) => payment.railPaymentId)).toEqual(withCallbacks.map((payment) => payment.railPaymentId).reverse());
    const { db } = server.platform!.database;
    for (const payment of listed) {
      const row = await db.query.paymentCallbacks.findFirst({ where: (table, { eq }) => eq(table.railPaymentId, payment.railPaymentId) });
      expect(row).toBeDefined();
      expect(payment.callback).toEqual({
        status: row!.state,
        attempts: row!.attempt,
        lastHttpStatus: row!.lastStatus,
        queuedAt: Math.floor(row!.createdAt.getTime() / 1000),
        nextAttemptAt: row!.state === 'PENDING' ? Math.floor(row!.nextAttemptAt.getTime() / 1000) : null,
        deliveredAt: row!.deliveredAt ? Math.floor(row!.deliveredAt.getTime() / 1000) : null,
      });
    }
    // Another institution's payment is not reached through its callback either.
    const foreign = await graphql(
      `
        query ($id: ID!) {
          payment(railPaymentId: $id) {
            callback {
              status
            }
          }
        }
      `,
      { id: listed[0]!.railPaymentId },
      bob,
    );
    expect(foreign.data!.payment).toBeNull();
  });
});

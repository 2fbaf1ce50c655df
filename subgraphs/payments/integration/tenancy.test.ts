import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { MCP_PATH } from './manifest.js';
import { freshWallet, type IntegrationHarness, startIntegrationHarness } from './testing.js';

// Issue 21 finding 3 and decision 0050, against one all-in-one server with its gateway: two
// institutions (bank A with two keys, bank B with one) and the admin. Every read path of REST,
// GraphQL and MCP answers a stranger's payment exactly as a missing one; a reference is each
// institution's own, so another's can neither be probed (409), replayed, nor taken first.

const ADMIN_KEY = 'payments-tenancy-admin-key-0123456789abcdef';
let harness: IntegrationHarness;
/** Bank A's two desks (one institution) and bank B. */
let deskA1: Record<string, string>;
let deskA2: Record<string, string>;
let bankB: Record<string, string>;
let institutionA: string;
let institutionB: string;
let creditorWallet: string;

beforeAll(async () => {
  harness = await startIntegrationHarness(ADMIN_KEY, { gateway: true });
  const keys = harness.server.platform!.access.keys;
  const a1 = await keys.create('bearer', 'Bank A treasury', 1000);
  institutionA = a1.record.institutionId!;
  const a2 = await keys.create('bearer', 'Bank A payments hub', 1000, { institutionId: institutionA });
  const b = await keys.create('bearer', 'Bank B treasury', 1000);
  institutionB = b.record.institutionId!;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  deskA1 = bearer(a1.key);
  deskA2 = bearer(a2.key);
  bankB = bearer(b.key);
  creditorWallet = freshWallet();
  const registered = await harness.call('POST', '/compliance/register', { payload: { walletAddress: creditorWallet, lei: ACTIVE_LEI_ENTRY.lei }, headers: harness.admin });
  expect([200, 201]).toContain(registered.status);
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

const reference = () => `TMS-TEN-${randomBytes(5).toString('hex')}`;
const paymentOf = (tmsReference = reference(), amount = '1250.50') => ({
  tmsReference,
  amount,
  currency: 'USD',
  creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditorWallet },
  debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
});

async function initiate(headers: Record<string, string>, payment: object) {
  harness.server.clock.advance(1000);
  const answer = await harness.call('POST', '/integration/payments/initiate', { payload: payment, headers });
  expect(answer.status).toBe(200);
  return answer.body as { railPaymentId: string; tmsReference: string; status: string; settlement: { amount: string } };
}

const MISSING_ID = 'pay_00000000-0000-4000-8000-000000000000';

describe("REST: a stranger's payment is a missing one", () => {
  it('by railPaymentId and by tmsReference: 404 exactly as for none, for bank B; the payment for either desk of bank A', async () => {
    const paid = await initiate(deskA1, paymentOf());
    expect(paid.status).toBe('SETTLED');
    const missing = await harness.call('GET', `/integration/payments/${MISSING_ID}`, { headers: bankB });
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: { error: expect.any(String), code: 'PAY_ERR_PAYMENT_NOT_FOUND' } });
    for (const url of [
      `/integration/payments/${paid.railPaymentId}`,
      `/integration/payments?tmsReference=${paid.tmsReference}`,
      `/integration/payments?tmsReference=${paid.tmsReference}&institution=${institutionA}`,
    ]) {
      const stranger = await harness.call('GET', url, { headers: bankB });
      expect({ status: stranger.status, body: stranger.body }).toEqual({ status: 404, body: missing.body });
      for (const desk of [deskA1, deskA2]) expect((await harness.call('GET', url, { headers: desk })).body).toEqual(paid);
    }
  });

  it("bank B's use of bank A's reference is bank B's own payment: no 409 for another body, no replay of A's result for the same body; A's retry still answers A's", async () => {
    const payment = paymentOf();
    const paid = await initiate(deskA1, payment);
    const anotherBody = await initiate(bankB, { ...payment, amount: '13' });
    expect(anotherBody).toMatchObject({ tmsReference: payment.tmsReference, status: 'SETTLED', settlement: { amount: '13' } });
    expect(anotherBody.railPaymentId).not.toBe(paid.railPaymentId);
    // B's own reference now: its retry with A's body is B's 409, never A's result.
    const replayOfA = await harness.call('POST', '/integration/payments/initiate', { payload: payment, headers: bankB });
    expect({ status: replayOfA.status, code: replayOfA.body.code }).toEqual({ status: 409, code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' });
    expect(await initiate(deskA2, payment)).toEqual(paid);
  });

  it("the same body sent by bank B is a payment of B's own, not bank A's result", async () => {
    const payment = paymentOf();
    const paid = await initiate(deskA1, payment);
    const sameBody = await initiate(bankB, payment);
    expect(sameBody.railPaymentId).not.toBe(paid.railPaymentId);
    expect((await harness.call('GET', `/integration/payments/${sameBody.railPaymentId}`, { headers: deskA1 })).status).toBe(404);
  });

  it("a reference bank B takes first does not refuse bank A's real payment under it", async () => {
    const payment = paymentOf();
    const squatted = await initiate(bankB, { ...payment, amount: '1' });
    const real = await initiate(deskA1, payment);
    expect(real).toMatchObject({ tmsReference: payment.tmsReference, status: 'SETTLED', settlement: { amount: '1250.50' } });
    expect(real.railPaymentId).not.toBe(squatted.railPaymentId);
  });

  it("the batch path: bank A's reference in bank B's batch is B's own payment, in place", async () => {
    const payment = paymentOf();
    const paid = await initiate(deskA1, payment);
    const batch = await harness.call('POST', '/integration/payments/batch', { payload: { payments: [{ ...payment, amount: '7' }] }, headers: bankB });
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([expect.objectContaining({ tmsReference: payment.tmsReference, status: 'SETTLED', settlement: expect.objectContaining({ amount: '7' }) })]);
    expect(batch.body[0].railPaymentId).not.toBe(paid.railPaymentId);
  });
});

describe("the admin key reads every institution's payments and initiates none", () => {
  it('by id, and by a reference two institutions use: 400 naming them, each with institution=', async () => {
    const payment = paymentOf();
    const ofA = await initiate(deskA1, payment);
    const ofB = await initiate(bankB, { ...payment, amount: '2' });
    expect((await harness.call('GET', `/integration/payments/${ofA.railPaymentId}`, { headers: harness.admin })).body).toEqual(ofA);
    expect((await harness.call('GET', `/integration/payments/${ofB.railPaymentId}`, { headers: harness.admin })).body).toEqual(ofB);
    const ambiguous = await harness.call('GET', `/integration/payments?tmsReference=${payment.tmsReference}`, { headers: harness.admin });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body).toEqual({ error: expect.stringContaining(institutionA), code: 'PAY_ERR_INVALID_REQUEST' });
    expect(ambiguous.body.error).toContain(institutionB);
    expect((await harness.call('GET', `/integration/payments?tmsReference=${payment.tmsReference}&institution=${institutionB}`, { headers: harness.admin })).body).toEqual(ofB);
    const alone = await initiate(deskA1, paymentOf());
    expect((await harness.call('GET', `/integration/payments?tmsReference=${alone.tmsReference}`, { headers: harness.admin })).body).toEqual(alone);
  });

  it('initiating with the admin key is 403 PAY_ERR_NOT_AN_INSTITUTION, nothing stored', async () => {
    const payment = paymentOf();
    const refused = await harness.call('POST', '/integration/payments/initiate', { payload: payment, headers: harness.admin });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'PAY_ERR_NOT_AN_INSTITUTION' });
    expect((await harness.call('GET', `/integration/payments?tmsReference=${payment.tmsReference}`, { headers: harness.admin })).status).toBe(404);
  });
});

interface GraphQLAnswer {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions?: Record<string, any> }>;
}
const graphql = async (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) =>
  (await harness.call('POST', '/graphql', { payload: { query, variables }, headers })).body as GraphQLAnswer;

describe("GraphQL (the gateway): a stranger's payment is null and absent from every list", () => {
  it('payment, paymentByTmsReference, Wallet.payments and LegalEntity.payments for bank B, bank A and the admin', async () => {
    const ofA = await initiate(deskA1, paymentOf());
    const ofB = await initiate(bankB, paymentOf());
    const READ = `query ($id: ID!, $ref: String!, $wallet: String!, $lei: String!) {
      payment(railPaymentId: $id) { railPaymentId }
      paymentByTmsReference(tmsReference: $ref) { railPaymentId }
      wallet(address: $wallet) { payments { railPaymentId } }
      legalEntity(lei: $lei) { payments { railPaymentId } } }`;
    const variables = { id: ofA.railPaymentId, ref: ofA.tmsReference, wallet: creditorWallet, lei: ACTIVE_LEI_ENTRY.lei };
    const listed = (answer: GraphQLAnswer, field: 'wallet' | 'legalEntity') => (answer.data![field].payments as Array<{ railPaymentId: string }>).map((payment) => payment.railPaymentId);

    const stranger = await graphql(bankB, READ, variables);
    expect(stranger.errors).toBeUndefined();
    expect({ payment: stranger.data!.payment, byReference: stranger.data!.paymentByTmsReference }).toEqual({ payment: null, byReference: null });
    for (const field of ['wallet', 'legalEntity'] as const) {
      expect(listed(stranger, field)).toContain(ofB.railPaymentId);
      expect(listed(stranger, field)).not.toContain(ofA.railPaymentId);
    }

    const owner = await graphql(deskA2, READ, variables);
    expect(owner.errors).toBeUndefined();
    expect([owner.data!.payment.railPaymentId, owner.data!.paymentByTmsReference.railPaymentId]).toEqual([ofA.railPaymentId, ofA.railPaymentId]);
    for (const field of ['wallet', 'legalEntity'] as const) {
      expect(listed(owner, field)).toContain(ofA.railPaymentId);
      expect(listed(owner, field)).not.toContain(ofB.railPaymentId);
    }

    const admin = await graphql(harness.admin, READ, variables);
    expect(admin.errors).toBeUndefined();
    expect(admin.data!.payment.railPaymentId).toBe(ofA.railPaymentId);
    for (const field of ['wallet', 'legalEntity'] as const) expect(listed(admin, field)).toEqual(expect.arrayContaining([ofA.railPaymentId, ofB.railPaymentId]));
  });

  it("initiatePayment with bank A's reference is bank B's own payment", async () => {
    const payment = paymentOf();
    const ofA = await initiate(deskA1, payment);
    const answer = await graphql(
      bankB,
      `
        mutation ($input: PaymentInput!) {
          initiatePayment(input: $input) {
            railPaymentId
            status
            settlement {
              amount
            }
          }
        }
      `,
      { input: { ...payment, amount: '3' } },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.initiatePayment).toMatchObject({ status: 'SETTLED', settlement: { amount: '3' } });
    expect(answer.data!.initiatePayment.railPaymentId).not.toBe(ofA.railPaymentId);
  });
});

describe("MCP: the tools answer a stranger's payment as a missing one", () => {
  const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  async function tool(headers: Record<string, string>, name: string, args: Record<string, unknown>) {
    const response = await harness.call('POST', MCP_PATH, {
      raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      headers: { ...MCP_HEADERS, ...headers },
    });
    expect(response.status).toBe(200);
    const result = response.body.result as { isError?: boolean; content: Array<{ text: string }> };
    return { isError: result.isError ?? false, body: JSON.parse(result.content[0]!.text) };
  }

  it("payments.get and payments.find: bank B gets what a missing payment gets; bank A its payment; initiate is B's own", async () => {
    const payment = paymentOf();
    const ofA = await initiate(deskA1, payment);
    const missing = await tool(bankB, 'payments.get', { railPaymentId: MISSING_ID });
    expect(missing).toEqual({ isError: true, body: { error: expect.any(String), code: 'PAY_ERR_PAYMENT_NOT_FOUND' } });
    expect(await tool(bankB, 'payments.get', { railPaymentId: ofA.railPaymentId })).toEqual(missing);
    expect(await tool(bankB, 'payments.find', { tmsReference: ofA.tmsReference })).toEqual(missing);
    expect(await tool(deskA2, 'payments.get', { railPaymentId: ofA.railPaymentId })).toEqual({ isError: false, body: ofA });
    expect(await tool(deskA2, 'payments.find', { tmsReference: ofA.tmsReference })).toEqual({ isError: false, body: ofA });
    const own = await tool(bankB, 'payments.initiate', { ...payment, amount: '4' });
    expect(own.isError).toBe(false);
    expect(own.body).toMatchObject({ tmsReference: payment.tmsReference, status: 'SETTLED', settlement: { amount: '4' } });
    expect(own.body.railPaymentId).not.toBe(ofA.railPaymentId);
    expect(await tool(harness.admin, 'payments.find', { tmsReference: payment.tmsReference, institution: institutionA })).toEqual({ isError: false, body: ofA });
  });
});

describe('equal amounts are the same request (finding 9)', () => {
  it('a GraphQL retry of a REST payment of 1250.50 (GraphQL reads it as 1250.5) answers the same payment', async () => {
    const payment = paymentOf(reference(), '1250.50');
    const rest = await initiate(deskA1, payment);
    const retry = await graphql(
      deskA2,
      `
        mutation ($input: PaymentInput!) {
          initiatePayment(input: $input) {
            railPaymentId
            status
            settlement {
              amount
            }
          }
        }
      `,
      { input: payment },
    );
    expect(retry.errors).toBeUndefined();
    // The stored payment (GraphQL's Decimal prints its amount as 1250.5).
    expect(retry.data!.initiatePayment).toEqual({ railPaymentId: rest.railPaymentId, status: rest.status, settlement: { amount: '1250.5' } });
    // And the other way: a REST retry spelling it 1250.5.
    expect(await initiate(deskA1, { ...payment, amount: '1250.5' })).toEqual(rest);
  });
});

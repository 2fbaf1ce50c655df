import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { fundAgent, registerTestAgent } from '../agent/testing.js';
import { PARTY_PAYMENTS_LIMIT } from './graph-store.js';
import { freshWallet, type IntegrationHarness, startIntegrationHarness } from './testing.js';

// Issue 10 item 8 through the gateway (/graphql of the all-in-one server): a Payment's parties
// resolved by compliance (Wallet, LegalEntity, Agent references), and payments' lists on those
// entities (Agent.settlements, Wallet.payments, LegalEntity.payments), each loaded one statement
// per batch of parents; initiatePayments is the batch path's own function.

const ADMIN_KEY = 'graph-federation-admin-key-0123456789abcdef';
let harness: IntegrationHarness;

beforeAll(async () => {
  harness = await startIntegrationHarness(ADMIN_KEY, { gateway: true });
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

interface GraphQLAnswer {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, any> }>;
}

async function graphql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = harness.bearer, url = '/graphql'): Promise<GraphQLAnswer> {
  return (await harness.call('POST', url, { payload: { query, variables }, headers })).body as GraphQLAnswer;
}

const reference = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

async function registeredWallet(lei: string = ACTIVE_LEI_ENTRY.lei): Promise<string> {
  const wallet = freshWallet();
  const answer = await harness.call('POST', '/compliance/register', { payload: { walletAddress: wallet, lei }, headers: harness.admin });
  expect([200, 201]).toContain(answer.status);
  return wallet;
}

/** A payment to the active LEI's registered wallet from a debtor without LEI. */
const paymentTo = (creditorWallet: string, overrides: Record<string, unknown> = {}) => ({
  tmsReference: reference('TMS-FED'),
  amount: '125.5',
  currency: 'USD',
  creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditorWallet },
  debtor: { name: 'Acme Treasury Ltd', walletAddress: freshWallet() },
  ...overrides,
});

const INITIATE = `mutation ($input: PaymentInput!) { initiatePayment(input: $input) { railPaymentId tmsReference status vop { requestId result } } }`;

/** Each payment a second later than the one before, so newest-first is observable. */
async function initiate(input: Record<string, unknown>) {
  harness.server.clock.advance(1000);
  const answer = await graphql(INITIATE, { input });
  expect(answer.errors).toBeUndefined();
  return answer.data!.initiatePayment as { railPaymentId: string; tmsReference: string; status: string; vop: { requestId: string; result: string } };
}

describe("a payment's parties from compliance and their payments from payments, in one query", () => {
  it("reads the creditor wallet's registration and VoP history (compliance) and the wallet's payments (payments)", async () => {
    const wallet = await registeredWallet();
    const first = await initiate(paymentTo(wallet));
    const second = await initiate(paymentTo(wallet));
    expect([first.status, second.status]).toEqual(['SETTLED', 'SETTLED']);

    const answer = await graphql(
      `
        query ($id: ID!) {
          payment(railPaymentId: $id) {
            railPaymentId
            creditorWallet {
              address
              registration {
                legalName
                lei
                registrationType
              }
              vopHistory {
                requestId
                result
              }
              payments {
                railPaymentId
                tmsReference
                status
              }
            }
            debtorWallet {
              address
              registration {
                legalName
              }
              payments {
                railPaymentId
              }
            }
            creditorEntity {
              lei
              legalName
              leiStatus
            }
            debtorEntity {
              lei
            }
            settlementAgent {
              id
            }
          }
        }
      `,
      { id: first.railPaymentId },
    );
    expect(answer.errors).toBeUndefined();
    const payment = answer.data!.payment;
    expect(payment.railPaymentId).toBe(first.railPaymentId);
    // Compliance resolved the Wallet reference payments gave (its key, lower-cased there).
    expect(payment.creditorWallet.address).toBe(wallet.toLowerCase());
    expect(payment.creditorWallet.registration).toEqual({ legalName: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, registrationType: 'REGISTRY_VERIFIED' });
    // The payment's own VoP checks are in the wallet's history (newest first).
    expect(payment.creditorWallet.vopHistory.map((check: { requestId: string }) => check.requestId)).toEqual([second.vop.requestId, first.vop.requestId]);
    // Payments then listed the wallet's payments, newest first.
    expect(payment.creditorWallet.payments).toEqual([
      { railPaymentId: second.railPaymentId, tmsReference: second.tmsReference, status: 'SETTLED' },
      { railPaymentId: first.railPaymentId, tmsReference: first.tmsReference, status: 'SETTLED' },
    ]);
    expect(payment.debtorWallet.registration).toBeNull();
    expect(payment.debtorWallet.payments).toEqual([{ railPaymentId: first.railPaymentId }]);
    expect(payment.creditorEntity).toEqual({ lei: ACTIVE_LEI_ENTRY.lei, legalName: ACTIVE_LEI_ENTRY.legalName, leiStatus: 'ACTIVE' });
    expect(payment.debtorEntity).toBeNull();
    expect(payment.settlementAgent).toBeNull();
  });

  it("a legal entity's payments: those naming its LEI as creditor or debtor, newest first", async () => {
    const wallet = await registeredWallet();
    const asCreditor = await initiate(paymentTo(wallet));
    const asDebtor = await initiate(
      paymentTo(freshWallet(), {
        creditor: { name: 'Unregistered Payee GmbH', walletAddress: freshWallet() },
        debtor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: wallet },
      }),
    );
    const other = await initiate(paymentTo(freshWallet(), { creditor: { name: 'Unregistered Payee GmbH', walletAddress: freshWallet() } }));

    // The LEI as an argument in lower case: compliance answers it in its canonical form, and payments reads that key.
    const answer = await graphql(
      `
        query ($lei: String!) {
          legalEntity(lei: $lei) {
            lei
            legalName
            payments {
              railPaymentId
              creditorWallet {
                address
              }
            }
          }
        }
      `,
      { lei: ACTIVE_LEI_ENTRY.lei.toLowerCase() },
    );
    expect(answer.errors).toBeUndefined();
    const listed = answer.data!.legalEntity.payments as Array<{ railPaymentId: string; creditorWallet: { address: string } }>;
    expect(listed.length).toBeLessThanOrEqual(PARTY_PAYMENTS_LIMIT);
    const ids = listed.map((entry) => entry.railPaymentId);
    // `other` names neither party by the LEI.
    expect(ids).not.toContain(other.railPaymentId);
    expect(ids.filter((id) => id === asCreditor.railPaymentId || id === asDebtor.railPaymentId)).toEqual([asDebtor.railPaymentId, asCreditor.railPaymentId]);
    expect(listed.find((entry) => entry.railPaymentId === asCreditor.railPaymentId)!.creditorWallet.address).toBe(wallet.toLowerCase());
  });

  it('the lists need the institution key (as payment(railPaymentId) does); compliance fields still answer', async () => {
    const wallet = await registeredWallet();
    await initiate(paymentTo(wallet));
    const answer = await graphql(
      `
        query ($a: String!) {
          wallet(address: $a) {
            address
            registration {
              legalName
            }
            payments {
              railPaymentId
            }
          }
        }
      `,
      { a: wallet },
      {},
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe('GEN_ERR_UNAUTHORIZED');
    expect(answer.errors?.[0]?.path).toEqual(['wallet', 'payments']);
  });
});

describe("an agent's settlements", () => {
  it("lists what POST /agent/settle settled for it, newest first, each with its settlementAgent: to the admin, not to an institution (the settlement agent's own, decision 0050)", async () => {
    // The owner's key and funds (decisions 0048, 0049).
    const agent = await registerTestAgent(harness.server, { name: 'Graph settlement bot' });
    const { agentId } = agent;
    expect((await harness.call('POST', '/compliance/agent/mandate', { payload: { agentId, maxNotionalUsd: 5000, dailyCapUsd: 10_000 }, headers: agent.headers })).status).toBe(201);
    await fundAgent(harness.server, await harness.server.platform!.chain.connect(), agent, '1000');
    const recipient = await registeredWallet();

    const settled: string[] = [];
    for (const amount of [100, 200]) {
      harness.server.clock.advance(1000);
      const answer = await harness.call('POST', '/agent/settle', { payload: { amount, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient }, headers: agent.headers });
      expect(answer.body).toMatchObject({ status: 'SETTLED', held: false });
      settled.push(answer.body.railPaymentId as string);
    }

    const query = `query ($id: ID!) { agent(id: $id) { id name status settlements { railPaymentId status settlement { amount } settlementAgent { id name } creditorWallet { address registration { legalName } } } } }`;
    const ofInstitution = await graphql(query, { id: agentId });
    expect(ofInstitution.errors).toBeUndefined();
    expect(ofInstitution.data!.agent.settlements).toEqual([]);
    const answer = await graphql(query, { id: agentId }, harness.admin);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.agent).toMatchObject({ id: agentId, name: 'Graph settlement bot', status: 'ACTIVE' });
    expect(answer.data!.agent.settlements).toEqual(
      [settled[1], settled[0]].map((railPaymentId, index) => ({
        railPaymentId,
        status: 'SETTLED',
        settlement: { amount: index === 0 ? '200' : '100' },
        settlementAgent: { id: agentId, name: 'Graph settlement bot' },
        creditorWallet: { address: recipient.toLowerCase(), registration: { legalName: ACTIVE_LEI_ENTRY.legalName } },
      })),
    );
  });
});

describe('initiatePayments: the batch path in the graph', () => {
  const BATCH = `mutation ($input: [PaymentInput!]!) { initiatePayments(input: $input) { tmsReference error code payment { railPaymentId tmsReference status creditorWallet { address } } } }`;

  it('each payment in order, each idempotent by its tmsReference; a conflicting one is its error in place; REST answers the same', async () => {
    const wallet = await registeredWallet();
    const stored = await initiate(paymentTo(wallet));
    const payments = [
      paymentTo(wallet),
      { ...paymentTo(wallet), tmsReference: stored.tmsReference, amount: '999' },
      paymentTo(freshWallet(), { creditor: { name: 'Unregistered Payee GmbH', walletAddress: freshWallet() } }),
    ];
    const answer = await graphql(BATCH, { input: payments });
    expect(answer.errors).toBeUndefined();
    const entries = answer.data!.initiatePayments as Array<Record<string, any>>;
    expect(entries.map((entry) => entry.tmsReference)).toEqual(payments.map((payment) => payment.tmsReference));
    expect(entries[0]).toMatchObject({ error: null, code: null, payment: { tmsReference: payments[0]!.tmsReference, status: 'SETTLED', creditorWallet: { address: wallet.toLowerCase() } } });
    expect(entries[1]).toMatchObject({ payment: null, code: 'PAY_ERR_IDEMPOTENCY_CONFLICT', error: expect.any(String) });
    expect(entries[2]).toMatchObject({ error: null, payment: { status: 'SETTLED' } });

    // The same batch through REST: the stored payments again (nothing sent twice), the same refusal.
    const treasury = await harness.balanceOf(harness.treasury());
    const rest = await harness.call('POST', '/integration/payments/batch', { payload: { payments }, headers: harness.bearer });
    expect(rest.status).toBe(200);
    expect(rest.body[0].railPaymentId).toBe(entries[0]!.payment.railPaymentId);
    expect(rest.body[1]).toEqual({ tmsReference: stored.tmsReference, error: entries[1]!.error, code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' });
    expect(rest.body[2].railPaymentId).toBe(entries[2]!.payment.railPaymentId);
    expect(await harness.balanceOf(harness.treasury())).toBe(treasury);
  });

  it('51 payments, a malformed one or no institution key: an error and nothing sent', async () => {
    const wallet = freshWallet();
    const many = Array.from({ length: 51 }, () => paymentTo(wallet));
    const tooMany = await graphql(BATCH, { input: many });
    expect(tooMany.data?.initiatePayments).toBeNull();
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('PAY_ERR_INVALID_REQUEST');
    const malformed = await graphql(BATCH, { input: [paymentTo(wallet), paymentTo(wallet, { amount: '-1' })] });
    expect(malformed.errors?.[0]?.extensions?.code).toBe('PAY_ERR_INVALID_REQUEST');
    const unauthorized = await graphql(BATCH, { input: [paymentTo(wallet)] }, {});
    expect(unauthorized.errors?.[0]?.extensions?.code).toBe('GEN_ERR_UNAUTHORIZED');
    const found = await harness.call('GET', `/integration/payments?tmsReference=${many[0]!.tmsReference}`, { headers: harness.bearer });
    expect(found.status).toBe(404);
  });
});

describe('the lists load one statement per batch of parents (entity references at the payments subgraph)', () => {
  const ENTITIES = `query ($representations: [_Any!]!) { _entities(representations: $representations) {
    ... on Wallet { address payments { railPaymentId creditorWallet { address } debtorWallet { address } creditorEntity { lei } } }
    ... on Agent { id settlements { railPaymentId settlementAgent { id } } }
    ... on LegalEntity { lei payments { railPaymentId } } } }`;

  /**
   * Statements on the payments table drizzle prepares while `work` runs (every store call prepares
   * one). Only those: the key check, the rate-limit count and the callback worker's polls run too.
   */
  async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
    const spy = vi.spyOn(harness.server.platform!.database.db._.session, 'prepareQuery');
    try {
      const result = await work();
      return { result, queries: spy.mock.calls.filter((call) => /"payments"/.test((call[0] as { sql: string }).sql)).length };
    } finally {
      spy.mockRestore();
    }
  }
  const entities = (representations: unknown[]) => countQueries(() => graphql(ENTITIES, { representations }, harness.bearer, '/subgraphs/payments/graphql'));

  it("50 wallets with their payments and the payments' parties: one statement", async () => {
    const wallets = Array.from({ length: 50 }, freshWallet);
    const paid = [];
    for (const wallet of wallets.slice(0, 5)) paid.push(await initiate(paymentTo(wallet, { creditor: { name: 'Unregistered Payee GmbH', walletAddress: wallet } })));

    const one = await entities([{ __typename: 'Wallet', address: wallets[0] }]);
    expect(one.result.errors).toBeUndefined();
    const fifty = await entities(wallets.map((address) => ({ __typename: 'Wallet', address })));
    expect(fifty.result.errors).toBeUndefined();
    const answered = fifty.result.data!._entities as Array<{ address: string; payments: Array<{ railPaymentId: string; creditorWallet: { address: string } }> }>;
    expect(answered).toHaveLength(50);
    expect(answered.slice(0, 5).map((entity) => entity.payments.map((payment) => payment.railPaymentId))).toEqual(paid.map((payment) => [payment.railPaymentId]));
    expect(answered.slice(0, 5).map((entity) => entity.payments[0]!.creditorWallet.address)).toEqual(wallets.slice(0, 5).map((wallet) => wallet.toLowerCase()));
    expect(answered.slice(5).every((entity) => entity.payments.length === 0)).toBe(true);
    // ONE list statement for the 50; the payments' parties come from the listed rows.
    expect([one.queries, fifty.queries]).toEqual([1, 1]);
  });

  it('agents and legal entities alike; a hostile key is an empty list without a statement', async () => {
    const agents = Array.from({ length: 50 }, (_, index) => ({ __typename: 'Agent', id: `agt_graphbatch${String(index).padStart(12, '0')}` }));
    const leis = Array.from({ length: 50 }, (_, index) => ({ __typename: 'LegalEntity', lei: index === 0 ? ACTIVE_LEI_ENTRY.lei : `${String(index).padStart(18, '0')}00` }));
    const oneAgent = await entities(agents.slice(0, 1));
    const fiftyAgents = await entities(agents);
    expect(fiftyAgents.result.errors).toBeUndefined();
    expect([oneAgent.queries, fiftyAgents.queries]).toEqual([1, 1]);
    const fiftyLeis = await entities(leis);
    expect(fiftyLeis.result.errors).toBeUndefined();
    expect(fiftyLeis.result.data!._entities[0].payments.length).toBeGreaterThan(0);
    expect(fiftyLeis.queries).toBe(1);

    const hostile = await entities([
      { __typename: 'Wallet', address: 'x'.repeat(100_000) },
      { __typename: 'Agent', id: 42 },
      { __typename: 'LegalEntity', lei: '__proto__'.repeat(30) },
    ]);
    expect(hostile.result.errors).toBeUndefined();
    expect(hostile.result.data!._entities.map((entity: Record<string, unknown[]>) => entity.payments ?? entity.settlements)).toEqual([[], [], []]);
    expect(hostile.queries).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { GraphQLNonNull, isObjectType } from 'graphql';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeShapeDisagreements } from '../../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../../platform/subgraph.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';
import { agentFundsSchema, depositAnswerSchema, heldSettlementListSchema, heldSettlementSchema, issuerDepositAnswerSchema, issuerFundsSchema, settlementAnswerSchema } from '../agent/responses.js';
import { paymentResultSchema } from '../shared/responses.js';
import { manifestResponseSchema } from './manifest.js';
import { fxRateSchema } from './responses.js';
import { treasurySummarySchema } from './treasury-summary.js';

// The payments graph at its subgraph endpoint: initiatePayment equal to REST's answer for the same
// payment (the stored one), the bearer key required, and the REST and GraphQL shapes alike.

const INTERNAL_KEY = 'payments-test-internal-key-0123456789abcdef';
const schema = buildFederatedSchema(loadSubgraphTypeDefs('payments'), {});
const objectType = (name: string) => {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type of schema/payments.graphql`);
  return new GraphQLNonNull(type);
};

// A Payment's parties are references the graph joins to compliance (issue 10 item 8), whose funds
// paid a mandate-only settlement (fundingIssuer, decision 0049 §9), and its callback's delivery
// (decision 0083): the graph's, not part of the REST body.
const PAYMENT_PARTIES = ['creditorWallet', 'debtorWallet', 'creditorEntity', 'debtorEntity', 'settlementAgent', 'fundingIssuer', 'callback'].map((field) => `Payment.${field}`);

describe('REST response schemas and GraphQL types describe one shape', () => {
  it.each([
    ['PaymentResult', 'Payment', paymentResultSchema],
    ['FX rate', 'FxRate', fxRateSchema],
    ['manifest', 'IntegrationManifest', manifestResponseSchema],
    ['treasury summary', 'TreasurySummary', treasurySummarySchema],
    ['settlement answer', 'SettlementAnswer', settlementAnswerSchema],
    ['held settlement', 'HeldSettlement', heldSettlementSchema],
    ['held settlement list', 'HeldSettlementList', heldSettlementListSchema],
    ["agent's funds", 'AgentFunds', agentFundsSchema],
    ["agent's deposit", 'AgentDeposit', depositAnswerSchema],
    ["issuer's funds", 'IssuerFunds', issuerFundsSchema],
    ["issuer's deposit", 'IssuerDeposit', issuerDepositAnswerSchema],
  ] as const)('%s and GraphQL %s', (_name, graphQLType, response) => {
    expect(describeShapeDisagreements(response, objectType(graphQLType), { graphQLOnlyFields: PAYMENT_PARTIES })).toEqual([]);
  });
});

describe('initiatePayment', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], environment: { INTERNAL_KEY } });
    key = (await server.platform!.access.keys.create('bearer', 'graph desk', 1000)).key;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const MUTATION = `mutation ($input: PaymentInput!) { initiatePayment(input: $input) {
    railPaymentId tmsReference status submittedAt settledAt
    settlement { txHash amount currency asset network exchangeRate fee }
    vop { requestId result proceedSafe score resolvedBy message }
    compliance { fatfR16Compliant micaCompliant geniusCompliant regulatoryNote } } }`;
  const post = (headers: Record<string, string>, input: unknown) =>
    server.app.inject({ method: 'POST', url: '/subgraphs/payments/graphql', headers, payload: { query: MUTATION, variables: { input } } });

  it('settles, answers what REST stores for the payment, and needs the bearer key', async () => {
    const input = {
      tmsReference: `TMS-GQL-${randomBytes(4).toString('hex')}`,
      amount: '42',
      currency: 'USD',
      creditor: { name: 'Unregistered Payee GmbH', walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) },
      debtor: { name: 'Acme Treasury Ltd', walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) },
    };
    const refused = (await post({}, input)).json() as { data: { initiatePayment: null }; errors: Array<{ extensions: { code: string } }> };
    expect(refused.data.initiatePayment).toBeNull();
    expect(refused.errors[0]!.extensions.code).toBe('GEN_ERR_UNAUTHORIZED');

    const answer = await post({ authorization: `Bearer ${key}` }, input);
    const body = answer.json() as { data: { initiatePayment: Record<string, unknown> } };
    expect(body.data.initiatePayment).toMatchObject({ tmsReference: input.tmsReference, status: 'SETTLED', vop: { result: 'NOT_REGISTERED' } });
    expect(answer.headers['x-ratelimit-limit']).toBe('1000');
    const rest = await server.app.inject({ method: 'GET', url: `/integration/payments?tmsReference=${input.tmsReference}`, headers: { authorization: `Bearer ${key}` } });
    expect(body.data.initiatePayment).toEqual(rest.json());
  });
});

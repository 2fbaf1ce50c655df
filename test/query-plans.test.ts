// The query plans of the operations that cross subgraphs, kept as files beside this test: a schema
// change that alters which subgraph is asked what, or in how many steps, shows in review as a diff
// of test/query-plans/*.txt (regenerate with `npx vitest run test/query-plans.test.ts -u`).

import { readFileSync } from 'node:fs';
import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { prettyFormatQueryPlan, QueryPlanner } from '@apollo/query-planner';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { VENDOR_QUERY } from './fixtures/vendor-query.js';

const supergraph = Supergraph.build(readFileSync(new URL('../schema/supergraph.graphql', import.meta.url), 'utf8'));
const planner = new QueryPlanner(supergraph);

function planOf(operation: string): string {
  return prettyFormatQueryPlan(planner.buildQueryPlan(operationFromDocument(supergraph.schema, parse(operation))));
}

/** A batch of payments (payments), each with its parties' entities and wallets (compliance) and an entity's fee (fees). */
const INITIATE_PAYMENTS = `mutation Batch($input: [PaymentInput!]!) {
  initiatePayments(input: $input) {
    tmsReference code error
    payment {
      railPaymentId status
      creditorEntity { lei legalName leiStatus paymentFee(amountUsd: 1000) { quoteId } }
      debtorEntity { lei legalName }
      creditorWallet { address registration { legalName lei } vopHistory { result } }
    }
  }
}`;

/** One payment with every party it names. */
const PAYMENT_WITH_PARTIES = `query Payment($id: ID!) {
  payment(railPaymentId: $id) {
    railPaymentId tmsReference status
    settlement { txHash }
    creditorWallet { address registration { legalName lei registrationType } }
    debtorWallet { address registration { legalName } }
    creditorEntity { lei legalName jurisdiction ownershipChain { result } esg { composite } }
    debtorEntity { lei legalName wallets { walletAddress } }
    settlementAgent { id }
    fundingIssuer
  }
}`;

describe('query plans of the operations that cross subgraphs', () => {
  it.each([
    ['vendor-assessment', VENDOR_QUERY],
    ['initiate-payments', INITIATE_PAYMENTS],
    ['payment-with-parties', PAYMENT_WITH_PARTIES],
  ])('%s plans as recorded in test/query-plans/', async (name, operation) => {
    const plan = planOf(operation);
    expect(plan).toMatch(/Fetch\(service: "/);
    await expect(`${plan}\n`).toMatchFileSnapshot(`./query-plans/${name}.txt`);
  });
});

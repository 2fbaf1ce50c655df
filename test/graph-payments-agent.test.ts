import { randomBytes } from 'node:crypto';
import { ES256 } from '@sd-jwt/crypto-nodejs';
import { eq } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../drizzle/schema.js';
import type { ChainConnection } from '../platform/chain/index.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../platform/db.js';
import { fundingWalletMessage } from '../subgraphs/payments/agent/domain/index.js';
import { fundAgent, fundWallet, ownerWallet, registerTestAgent, type TestAgent, transferToTreasury } from '../subgraphs/payments/agent/testing.js';
import { ACTIVE_LEI_ENTRY } from './fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from './helpers.js';

// The settlement agent in the graph through the gateway (decision 0083): settle, the funds, the
// held settlements and the issuers' funds, each answering what its REST route answers, with the
// same authority read from the same headers, and one Idempotency-Key settling once whichever door
// it comes through. Run on PGlite, and on PostgreSQL when DATABASE_URL is set.

const ADMIN_KEY = 'graph-agent-admin-key-0123456789abcdef0123';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const ISSUER = 'https://graph-bank.example';
const databaseUrl = process.env.DATABASE_URL;
const drivers = ['pglite', ...(databaseUrl ? ['postgres'] : [])];
const publicOf = (jwk: JsonWebKey) => ({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });

interface Answer {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions?: Record<string, any> }>;
}

const SETTLEMENT = `status held holdId railPaymentId violations { rule message } agent { agentId checked }
  mandate { type issuer reference payee { id name } paymentAmount { amount currency } constraints { type outcome } expiresAt quoteId }
  result { railPaymentId tmsReference status submittedAt settledAt settlement { txHash amount currency asset network exchangeRate fee }
    vop { requestId result proceedSafe score resolvedBy message } compliance { fatfR16Compliant micaCompliant geniusCompliant regulatoryNote } }`;
const FUNDS = 'agentId depositedUsd spentUsd availableUsd fundingWallets treasury';
const HOLD = 'holdId agentId request { amount sourceCurrency destinationCurrency recipientAddress } amountUsd violations { rule message } status railPaymentId createdAt decidedAt';
const ISSUER_FUNDS = 'issuer depositedUsd spentUsd availableUsd fundingWallets treasury';

const SETTLE = `mutation ($input: SettleInput!) { settle(input: $input) { ${SETTLEMENT} } }`;
const AGENT_FUNDS = `{ agentFunds { ${FUNDS} } }`;
const codeOf = (answer: Answer) => answer.errors?.[0]?.extensions?.code;

describe.each(drivers)('the settlement agent in the graph on %s', (driver) => {
  const schemaName = `t_gpa_${process.pid}_${Date.now().toString(36)}`;
  let handle: DatabaseHandle | undefined;
  let server: TestServer;
  let rail: ChainConnection;
  const issuerWallet = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    const issuerKey = await ES256.generateKeyPair();
    const trusted = { [ISSUER]: { jwk: publicOf(issuerKey.publicKey), fundingWallets: [issuerWallet.address] } };
    if (driver === 'postgres') handle = await openDatabase({ databaseUrl, schemaName, poolSize: 8 });
    server = await startTestServer({ ...(handle ? { database: handle } : {}), environment: { ADMIN_KEY, AP2_TRUSTED_ISSUERS: JSON.stringify(trusted) } });
    rail = await server.platform!.chain.connect();
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await handle?.close();
    if (handle && databaseUrl) await dropSchema(databaseUrl, schemaName);
  });

  async function graphql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await server.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
    return response.json() as Answer;
  }
  const rest = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: unknown) =>
    injectJson(server, method, url, { headers, ...(payload === undefined ? {} : { payload }) });

  async function registeredRecipient(): Promise<Address> {
    const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
    expect((await rest('POST', '/compliance/register', ADMIN, { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei })).status).toBe(201);
    return wallet;
  }

  /** A REGISTERED agent with its mandate, its owner's `fundsUsd` deposited through REST (decision 0049). */
  async function fundedAgent(mandate: Record<string, unknown>, fundsUsd = '5000'): Promise<TestAgent> {
    const agent = await registerTestAgent(server);
    expect((await rest('POST', '/compliance/agent/mandate', agent.headers, { agentId: agent.agentId, ...mandate })).status).toBe(201);
    await fundAgent(server, rail, agent, fundsUsd);
    return agent;
  }

  describe("the agent's funds (X-Agent-Id and its owner's X-Agent-Key)", () => {
    it('bindFundingWallet, creditAgentDeposit and agentFunds answer as REST does; a deposit is credited once across both doors', async () => {
      const agent = await registerTestAgent(server);
      const owner = await ownerWallet(rail, '300');
      const signature = await owner.signMessage({ message: fundingWalletMessage(agent.agentId, owner.address, await rail.publicClient.getChainId()) });
      const bound = await graphql(`mutation ($input: FundingWalletInput!) { bindFundingWallet(input: $input) { ${FUNDS} } }`, { input: { walletAddress: owner.address, signature } }, agent.headers);
      expect(bound.errors).toBeUndefined();
      expect(bound.data!.bindFundingWallet).toEqual((await rest('GET', '/agent/funds', agent.headers)).body);
      expect(bound.data!.bindFundingWallet.fundingWallets).toEqual([owner.address]);

      const txHash = await transferToTreasury(rail, owner, '300');
      const credited = await graphql(
        `mutation ($txHash: String!) { creditAgentDeposit(txHash: $txHash) { agentId txHash credited { logIndex fromWallet amountUsd } funds { ${FUNDS} } } }`,
        { txHash },
        agent.headers,
      );
      expect(credited.errors).toBeUndefined();
      expect(credited.data!.creditAgentDeposit.credited).toEqual([{ logIndex: expect.any(Number), fromWallet: owner.address, amountUsd: '300' }]);
      // The same transaction through REST credits nothing more: the one function, the one ledger.
      const again = await rest('POST', '/agent/deposits', agent.headers, { txHash });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...credited.data!.creditAgentDeposit, credited: [] });
      const funds = await graphql(AGENT_FUNDS, {}, agent.headers);
      expect(funds.data!.agentFunds).toEqual((await rest('GET', '/agent/funds', agent.headers)).body);
      expect(funds.data!.agentFunds).toMatchObject({ depositedUsd: '300', availableUsd: '300' });
    });

    it("refuses no proof and another owner's key where REST refuses (401 PAY_ERR_AGENT_UNAUTHORIZED); a malformed X-Agent-Id is PAY_ERR_INVALID_REQUEST", async () => {
      const agent = await registerTestAgent(server);
      const stranger = await registerTestAgent(server);
      for (const headers of [{}, { 'x-agent-id': agent.agentId }, { 'x-agent-id': agent.agentId, 'x-agent-key': stranger.agentKey }] as Array<Record<string, string>>) {
        const answer = await graphql(AGENT_FUNDS, {}, headers);
        expect(answer.data!.agentFunds).toBeNull();
        expect(codeOf(answer)).toBe('PAY_ERR_AGENT_UNAUTHORIZED');
        expect(await rest('GET', '/agent/funds', headers)).toMatchObject({ status: 401, body: { code: 'PAY_ERR_AGENT_UNAUTHORIZED' } });
      }
      const malformed = await graphql(AGENT_FUNDS, {}, { 'x-agent-id': 'agt_short', 'x-agent-key': agent.agentKey });
      expect(codeOf(malformed)).toBe('PAY_ERR_INVALID_REQUEST');
    });
  });

  describe('settle (POST /agent/settle)', () => {
    it('settles once for one Idempotency-Key, twice through the graph and once more through REST, all answering the first answer', async () => {
      const agent = await fundedAgent({ maxNotionalUsd: 10_000, dailyCapUsd: 100_000 });
      const recipient = await registeredRecipient();
      const headers = { ...agent.headers, 'idempotency-key': `graph-settle-${randomBytes(6).toString('hex')}` };
      const input = { amount: '1250.50', sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient };
      const first = await graphql(SETTLE, { input }, headers);
      expect(first.errors).toBeUndefined();
      expect(first.data!.settle).toMatchObject({ status: 'SETTLED', held: false, holdId: null, agent: { agentId: agent.agentId, checked: ['MAX_NOTIONAL', 'DAILY_CAP'] }, mandate: null });
      const second = await graphql(SETTLE, { input }, headers);
      expect(second.data!.settle).toEqual(first.data!.settle);
      const viaRest = await rest('POST', '/agent/settle', headers, { ...input, amount: 1250.5 });
      expect(viaRest.status).toBe(200);
      expect(viaRest.body).toEqual(first.data!.settle);
      // The payment is the settlement agent's: the admin reads it as REST stores it.
      expect(first.data!.settle.result).toEqual((await rest('GET', `/integration/payments/${first.data!.settle.railPaymentId}`, ADMIN)).body);
      const rows = await server.platform!.database.db.select({ id: payments.railPaymentId }).from(payments).where(eq(payments.agentId, agent.agentId));
      expect(rows).toEqual([{ id: first.data!.settle.railPaymentId }]);
      expect((await graphql(AGENT_FUNDS, {}, agent.headers)).data!.agentFunds).toMatchObject({ depositedUsd: '5000', spentUsd: '1250.5', availableUsd: '3749.5' });
    });

    it("refuses whom REST refuses: no agent and no mandate, an agent without its owner's key, another owner's key", async () => {
      const agent = await fundedAgent({ maxNotionalUsd: 10_000, dailyCapUsd: 100_000 }, '100');
      const stranger = await registerTestAgent(server);
      const recipient = await registeredRecipient();
      const input = { amount: '10', sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient };
      for (const headers of [{}, { 'x-agent-id': agent.agentId }, { 'x-agent-id': agent.agentId, 'x-agent-key': stranger.agentKey }] as Array<Record<string, string>>) {
        const answer = await graphql(SETTLE, { input }, headers);
        expect(answer.data!.settle).toBeNull();
        expect(codeOf(answer)).toBe('PAY_ERR_AGENT_UNAUTHORIZED');
        expect(await rest('POST', '/agent/settle', headers, { ...input, amount: 10 })).toMatchObject({ status: 401, body: { code: 'PAY_ERR_AGENT_UNAUTHORIZED' } });
      }
      expect((await server.platform!.database.db.select().from(payments).where(eq(payments.agentId, agent.agentId))).length).toBe(0);
    });

    it('bad input is PAY_ERR_INVALID_REQUEST naming the field, as REST answers it, never an internal error', async () => {
      const agent = await registerTestAgent(server);
      const good = { amount: '10', sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ amount: '-5' }, 'amount'],
        [{ amount: '0.1234567' }, 'amount'],
        [{ amount: '123456789012.123456' }, 'amount'],
        [{ sourceCurrency: 'usd' }, 'sourceCurrency'],
        [{ recipientAddress: '0xnot-an-address' }, 'recipientAddress'],
      ];
      for (const [change, field] of cases) {
        const answer = await graphql(SETTLE, { input: { ...good, ...change } }, agent.headers);
        expect(answer.data!.settle).toBeNull();
        expect(codeOf(answer)).toBe('PAY_ERR_INVALID_REQUEST');
        expect(answer.errors![0]!.message).toContain(field);
      }
      const notDecimal = await graphql(SETTLE, { input: { ...good, amount: 'ten' } }, agent.headers);
      expect(codeOf(notDecimal)).toEqual(expect.any(String));
      expect(codeOf(notDecimal)).not.toBe('INTERNAL_SERVER_ERROR');
    });
  });

  describe('held settlements (admin key)', () => {
    /** A settlement of 1,250.50 USD by an agent whose maximum notional is 1,000, through the graph: held (MAX_NOTIONAL). */
    async function held(): Promise<{ agent: TestAgent; holdId: string }> {
      const agent = await fundedAgent({ maxNotionalUsd: 1000, dailyCapUsd: 10_000 });
      const answer = await graphql(SETTLE, { input: { amount: '1250.5', sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: await registeredRecipient() } }, agent.headers);
      expect(answer.data!.settle).toMatchObject({ status: 'PENDING', held: true, result: null, violations: [{ rule: 'MAX_NOTIONAL' }] });
      return { agent, holdId: answer.data!.settle.holdId };
    }

    it('heldSettlement and heldSettlements answer the REST bodies; dismissHeldSettlement and releaseHeldSettlement act as REST does', async () => {
      const dismissed = await held();
      const one = await graphql(`query ($id: ID!) { heldSettlement(holdId: $id) { ${HOLD} } }`, { id: dismissed.holdId }, ADMIN);
      expect(one.data!.heldSettlement).toEqual((await rest('GET', `/agent/holds/${dismissed.holdId}`, ADMIN)).body);
      const list = await graphql(`query ($agentId: String) { heldSettlements(agentId: $agentId, status: HELD) { count holds { ${HOLD} } } }`, { agentId: dismissed.agent.agentId }, ADMIN);
      expect(list.data!.heldSettlements).toEqual((await rest('GET', `/agent/holds?agentId=${dismissed.agent.agentId}&status=HELD`, ADMIN)).body);
      expect(list.data!.heldSettlements.count).toBe(1);

      const dismissal = await graphql(`mutation ($id: ID!) { dismissHeldSettlement(holdId: $id) { ${HOLD} } }`, { id: dismissed.holdId }, ADMIN);
      expect(dismissal.data!.dismissHeldSettlement).toMatchObject({ status: 'DISMISSED', railPaymentId: null });
      expect(dismissal.data!.dismissHeldSettlement).toEqual((await rest('GET', `/agent/holds/${dismissed.holdId}`, ADMIN)).body);
      const late = await graphql(
        `
          mutation ($id: ID!) {
            releaseHeldSettlement(holdId: $id) {
              status
            }
          }
        `,
        { id: dismissed.holdId },
        ADMIN,
      );
      expect(codeOf(late)).toBe('PAY_ERR_HOLD_DECIDED');

      const released = await held();
      const release = await graphql(`mutation ($id: ID!) { releaseHeldSettlement(holdId: $id) { ${SETTLEMENT} } }`, { id: released.holdId }, ADMIN);
      expect(release.errors).toBeUndefined();
      expect(release.data!.releaseHeldSettlement).toMatchObject({ status: 'SETTLED', held: false, holdId: released.holdId });
      // A second release through REST answers the same payment: the hold settled once.
      const again = await rest('POST', `/agent/holds/${released.holdId}/release`, ADMIN);
      expect(again.body).toEqual(release.data!.releaseHeldSettlement);
    });

    it('refuses without the admin key (none, an agent owner, an institution key) before the input is read, as REST does', async () => {
      const { agent, holdId } = await held();
      const institution = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'desk', 1000)).key}` };
      for (const headers of [{}, agent.headers, institution] as Array<Record<string, string>>) {
        for (const [query, variables] of [
          [`query ($id: ID!) { heldSettlement(holdId: $id) { holdId } }`, { id: 'malformed' }],
          [`{ heldSettlements { count } }`, {}],
          [`mutation ($id: ID!) { releaseHeldSettlement(holdId: $id) { status } }`, { id: holdId }],
          [`mutation ($id: ID!) { dismissHeldSettlement(holdId: $id) { status } }`, { id: holdId }],
        ] as const) {
          expect(codeOf(await graphql(query, variables, headers))).toBe('GEN_ERR_UNAUTHORIZED');
        }
        expect((await rest('GET', `/agent/holds/${holdId}`, headers)).status).toBe(401);
      }
      expect((await rest('GET', `/agent/holds/${holdId}`, ADMIN)).body.status).toBe('HELD');
      const malformed = await graphql(
        `
          query ($id: ID!) {
            heldSettlement(holdId: $id) {
              holdId
            }
          }
        `,
        { id: 'hld_short' },
        ADMIN,
      );
      expect(codeOf(malformed)).toBe('PAY_ERR_INVALID_REQUEST');
      const badStatus = await graphql(
        `
          {
            heldSettlements(agentId: "nope") {
              count
            }
          }
        `,
        {},
        ADMIN,
      );
      expect(codeOf(badStatus)).toBe('PAY_ERR_INVALID_REQUEST');
    });
  });

  describe("a trusted AP2 issuer's funds (admin key)", () => {
    it('creditIssuerDeposit and issuerFunds answer as REST does; a deposit is credited once across both doors', async () => {
      await fundWallet(rail, issuerWallet, '200');
      const txHash = await transferToTreasury(rail, issuerWallet, '200');
      const credited = await graphql(
        `mutation ($issuer: String!, $txHash: String!) { creditIssuerDeposit(issuer: $issuer, txHash: $txHash) { issuer txHash credited { logIndex fromWallet amountUsd } funds { ${ISSUER_FUNDS} } } }`,
        { issuer: ISSUER, txHash },
        ADMIN,
      );
      expect(credited.errors).toBeUndefined();
      expect(credited.data!.creditIssuerDeposit.credited).toEqual([{ logIndex: expect.any(Number), fromWallet: issuerWallet.address, amountUsd: '200' }]);
      const again = await rest('POST', '/agent/issuers/deposits', ADMIN, { issuer: ISSUER, txHash });
      expect(again.body).toEqual({ ...credited.data!.creditIssuerDeposit, credited: [] });
      const funds = await graphql(`query ($issuer: String!) { issuerFunds(issuer: $issuer) { ${ISSUER_FUNDS} } }`, { issuer: ISSUER }, ADMIN);
      expect(funds.data!.issuerFunds).toEqual((await rest('GET', `/agent/issuers/funds?issuer=${encodeURIComponent(ISSUER)}`, ADMIN)).body);
      expect(funds.data!.issuerFunds.fundingWallets).toEqual([issuerWallet.address]);
    });

    it('refuses without the admin key, as REST does; an untrusted issuer is PAY_ERR_INVALID_REQUEST', async () => {
      const agent = await registerTestAgent(server);
      for (const headers of [{}, agent.headers] as Array<Record<string, string>>) {
        const funds = await graphql(`{ issuerFunds(issuer: "${ISSUER}") { issuer } }`, {}, headers);
        expect([funds.data!.issuerFunds, codeOf(funds)]).toEqual([null, 'GEN_ERR_UNAUTHORIZED']);
        const deposit = await graphql(`mutation { creditIssuerDeposit(issuer: "${ISSUER}", txHash: "0x${'0'.repeat(64)}") { issuer } }`, {}, headers);
        expect([deposit.data!.creditIssuerDeposit, codeOf(deposit)]).toEqual([null, 'GEN_ERR_UNAUTHORIZED']);
        expect((await rest('GET', `/agent/issuers/funds?issuer=${encodeURIComponent(ISSUER)}`, headers)).status).toBe(401);
      }
      const untrusted = await graphql(
        `
          {
            issuerFunds(issuer: "https://stranger.example") {
              issuer
            }
          }
        `,
        {},
        ADMIN,
      );
      expect(codeOf(untrusted)).toBe('PAY_ERR_INVALID_REQUEST');
      const badHash = await graphql(`mutation { creditIssuerDeposit(issuer: "${ISSUER}", txHash: "0x12") { issuer } }`, {}, ADMIN);
      expect(codeOf(badHash)).toBe('PAY_ERR_INVALID_REQUEST');
    });
  });
});

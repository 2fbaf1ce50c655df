import { randomBytes } from 'node:crypto';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../platform/chain/index.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../../platform/db.js';
import { agentHeaders, bindFundingWallet, fundAgent, ownerWallet, registerTestAgent, type TestAgent, transferToTreasury, treasuryOf } from '../../subgraphs/payments/agent/testing.js';
import { ACTIVE_LEI_ENTRY } from '../fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from '../helpers.js';

// Issue 21 findings 1 and 2, as a stranger would try them, on one server with two agent owners
// (decisions 0048, 0049). Run on PGlite, and on PostgreSQL when DATABASE_URL is set.
// 1. Without the owner's key (X-Agent-Key), or with another owner's, nobody changes an agent's
//    mandate, revokes it, settles as it or touches its funds: REST and GraphQL alike.
// 2. A settlement moves its owner's deposits, never the rail's: a registered agent with nothing
//    deposited cannot settle, and settlements beyond the deposits are refused, under concurrency too.

const ADMIN_KEY = 'authority-test-admin-key-0123456789abcdef01';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const databaseUrl = process.env.DATABASE_URL;
const drivers = ['pglite', ...(databaseUrl ? ['postgres'] : [])];

describe.each(drivers)('agent authority and funds on %s', (driver) => {
  const schemaName = `t_auth_${process.pid}_${Date.now().toString(36)}`;
  let handle: DatabaseHandle | undefined;
  let server: TestServer;
  let rail: ChainConnection;
  let alice: TestAgent;
  let mallory: TestAgent;
  let recipient: Address;

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, options: { payload?: unknown; headers?: Record<string, string> } = {}) => injectJson(server, method, url, options);
  const balanceOf = (address: Address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] });
  const settle = (headers: Record<string, string>, amount = 100) =>
    call('POST', '/agent/settle', { headers, payload: { amount, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient } });

  async function graphql(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const response = await server.app.inject({ method: 'POST', url: '/subgraphs/compliance/graphql', headers, payload: { query, variables } });
    return response.json() as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  }

  async function registeredRecipient(): Promise<Address> {
    const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
    expect((await call('POST', '/compliance/register', { payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei }, headers: ADMIN })).status).toBe(201);
    return wallet;
  }

  beforeAll(async () => {
    if (driver === 'postgres') handle = await openDatabase({ databaseUrl, schemaName, poolSize: 8 });
    server = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], ...(handle ? { database: handle } : {}), environment: { ADMIN_KEY } });
    rail = await server.platform!.chain.connect();
    recipient = await registeredRecipient();
    alice = await registerTestAgent(server, { name: 'Alice treasury bot', ownerEntity: 'Alice Ltd', ownerEmail: 'ops@alice.example', discoverable: true });
    mallory = await registerTestAgent(server, { name: 'Mallory bot', ownerEntity: 'Mallory Ltd', ownerEmail: 'ops@mallory.example' });
    const mandate = await call('POST', '/compliance/agent/mandate', {
      headers: alice.headers,
      payload: { agentId: alice.agentId, maxNotionalUsd: 5000, dailyCapUsd: 10000, counterpartyWhitelist: [ACTIVE_LEI_ENTRY.lei] },
    });
    expect(mandate.status).toBe(201);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await handle?.close();
    if (handle && databaseUrl) await dropSchema(databaseUrl, schemaName);
  });

  describe('finding 1: the agent id alone proves nothing', () => {
    it('answers the owner its agentKey once at registration, and a keyless registration still registers', async () => {
      const registered = await call('POST', '/compliance/agent/register', { payload: { name: 'hook-owner-agent', ownerEntity: 'Hook Owner Ltd', ownerEmail: 'ops@owner.example' } });
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({ agentId: expect.stringMatching(/^agt_/), agentKey: expect.stringMatching(/^agk_[A-Za-z0-9_-]{43}$/), kyaLevel: 'REGISTERED' });
      const record = await call('GET', `/compliance/agent/${registered.body.agentId}`);
      expect(JSON.stringify(record.body)).not.toContain(registered.body.agentKey);
    });

    it("refuses a mandate change of another owner's agent (id from the directory) without its key, or with another's, and leaves the mandate as it was", async () => {
      const directory = await call('GET', '/compliance/agents/directory?ownerEntity=Alice%20Ltd');
      const target = directory.body.agents.find((agent: { agentId: string }) => agent.agentId === alice.agentId);
      expect(target).toBeDefined();
      const raise = { agentId: alice.agentId, maxNotionalUsd: 25000, dailyCapUsd: 25000 };
      for (const headers of [{}, { 'x-agent-id': alice.agentId }, { 'x-agent-key': mallory.agentKey }, { 'x-agent-key': `agk_${'A'.repeat(43)}` }] as Record<string, string>[]) {
        const refused = await call('POST', '/compliance/agent/mandate', { headers, payload: raise });
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ code: 'CMP_ERR_AGENT_UNAUTHORIZED', error: expect.stringContaining('X-Agent-Key') });
      }
      const record = await call('GET', `/compliance/agent/${alice.agentId}`);
      expect(record.body.mandate).toMatchObject({ maxNotionalUsd: 5000, dailyCapUsd: 10000, counterpartyWhitelist: [ACTIVE_LEI_ENTRY.lei] });
    });

    it("refuses a revocation without the owner's key, or with another owner's; the agent stays ACTIVE", async () => {
      for (const headers of [{}, { 'x-agent-key': mallory.agentKey }] as Record<string, string>[]) {
        const refused = await call('DELETE', `/compliance/agent/${alice.agentId}`, { headers });
        expect(refused.status).toBe(401);
        expect(refused.body.code).toBe('CMP_ERR_AGENT_UNAUTHORIZED');
      }
      expect((await call('GET', `/compliance/agent/${alice.agentId}`)).body.status).toBe('ACTIVE');
    });

    it("refuses a settlement with X-Agent-Id alone, with another owner's key, or with none at all: nothing is sent", async () => {
      await fundAgent(server, rail, alice, '1000');
      const before = await balanceOf(recipient);
      for (const headers of [{ 'x-agent-id': alice.agentId }, agentHeaders(alice.agentId, mallory.agentKey), {}] as Record<string, string>[]) {
        const refused = await settle(headers);
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ code: 'PAY_ERR_AGENT_UNAUTHORIZED' });
      }
      expect(await balanceOf(recipient)).toBe(before);
    });

    it('refuses a key not of the agent key format (200 characters) on a settlement and on the funds with 401, not 500', async () => {
      const long = agentHeaders(alice.agentId, 'k'.repeat(200));
      for (const refused of [await settle(long), await call('GET', '/agent/funds', { headers: long })]) {
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ code: 'PAY_ERR_AGENT_UNAUTHORIZED', error: expect.stringContaining('X-Agent-Key') });
      }
    });

    it("refuses a stranger's GraphQL setMandate and revokeAgent, and takes the owner's key there as on REST", async () => {
      const setMandate = 'mutation($input: SetMandateInput!) { setMandate(input: $input) { agentId maxNotionalUsd } }';
      const stranger = await graphql(setMandate, { input: { agentId: alice.agentId, maxNotionalUsd: 25000 } }, { 'x-agent-key': mallory.agentKey });
      expect(stranger.errors?.[0]?.extensions?.code, JSON.stringify(stranger)).toBe('CMP_ERR_AGENT_UNAUTHORIZED');
      const revoke = await graphql('mutation($id: ID!) { revokeAgent(id: $id) { status } }', { id: alice.agentId }, {});
      expect(revoke.errors?.[0]?.extensions?.code).toBe('CMP_ERR_AGENT_UNAUTHORIZED');
      const owner = await graphql(
        setMandate,
        { input: { agentId: alice.agentId, maxNotionalUsd: 5000, dailyCapUsd: 10000, counterpartyWhitelist: [ACTIVE_LEI_ENTRY.lei] } },
        { 'x-agent-key': alice.agentKey },
      );
      expect(owner.errors).toBeUndefined();
      expect(owner.data).toEqual({ setMandate: { agentId: alice.agentId, maxNotionalUsd: 5000 } });
      expect((await call('GET', `/compliance/agent/${alice.agentId}`)).body.status).toBe('ACTIVE');
    });

    it("offers a stranger no agent capability over MCP: no tool touches agents, and an agent's payment reference is refused there", async () => {
      const bearer = `Bearer ${(await server.platform!.access.keys.create('bearer', 'mcp stranger', 1000)).key}`;
      const rpc = async (id: number, method: string, params: Record<string, unknown>) =>
        (
          await server.app.inject({
            method: 'POST',
            url: '/integration/mcp',
            headers: { authorization: bearer, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            payload: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
          })
        ).json() as { result: Record<string, any> };
      const tools = (await rpc(1, 'tools/list', {})).result.tools as Array<{ name: string; description: string }>;
      expect(tools.map((tool) => tool.name).sort()).toEqual(['integration.health', 'payments.batch', 'payments.find', 'payments.get', 'payments.initiate', 'rates.get']);
      // A stranger cannot take the reference an idempotent settlement of Alice's agent would claim.
      const payment = {
        tmsReference: 'AGT-IK-taken-first',
        amount: '1.00',
        currency: 'USD',
        creditor: { name: 'Mallory Ltd', walletAddress: recipient },
        debtor: { name: 'Mallory Ltd', walletAddress: recipient },
      };
      const refused = (await rpc(2, 'tools/call', { name: 'payments.initiate', arguments: payment })).result;
      expect(refused.isError).toBe(true);
      expect(JSON.parse(refused.content[0].text)).toMatchObject({ code: 'PAY_ERR_INVALID_REQUEST', error: expect.stringContaining('AGT-') });
    });

    it("refuses a stranger the agent's funds: reading them, binding a wallet, crediting a deposit", async () => {
      const wallet = await ownerWallet(rail, '10');
      const asStranger = { ...alice, headers: agentHeaders(alice.agentId, mallory.agentKey) };
      expect((await bindFundingWallet(server, rail, asStranger, wallet)).body.code).toBe('PAY_ERR_AGENT_UNAUTHORIZED');
      expect((await call('GET', '/agent/funds', { headers: { 'x-agent-id': alice.agentId } })).status).toBe(401);
      const txHash = await transferToTreasury(rail, wallet, '10');
      expect((await call('POST', '/agent/deposits', { headers: asStranger.headers, payload: { txHash } })).status).toBe(401);
    });

    it('settles once for any number of concurrent identical requests under one Idempotency-Key; another body under it is 409', async () => {
      const before = await balanceOf(recipient);
      const headers = { ...alice.headers, 'idempotency-key': `settle-${randomBytes(8).toString('hex')}` };
      const answers = await Promise.all(Array.from({ length: 8 }, () => settle(headers, 7)));
      for (const answer of answers) expect(answer.status).toBe(200);
      const ids = new Set(answers.map((answer) => answer.body.railPaymentId));
      expect(ids.size).toBe(1);
      expect(answers[0]!.body).toMatchObject({ status: 'SETTLED', held: false });
      // One payment of 7 (less its fee) reached the recipient; eight would have been more than 7.
      const delta = (await balanceOf(recipient)) - before;
      expect(delta > 0n && delta <= 7_000_000n).toBe(true);
      const again = await settle(headers, 7);
      expect(again.body.railPaymentId).toBe(answers[0]!.body.railPaymentId);
      expect((await balanceOf(recipient)) - before).toBe(delta);
      const other = await settle(headers, 8);
      expect(other.status).toBe(409);
      expect(other.body.code).toBe('GEN_ERR_IDEMPOTENCY_CONFLICT');
    });

    it('limits one agent key to its requests a minute (429 with X-RateLimit-*), not another agent', async () => {
      const busy = await registerTestAgent(server, { name: 'Busy bot' });
      const mandate = { agentId: busy.agentId, maxNotionalUsd: 100 };
      const answers = [];
      for (let i = 0; i < 61; i += 1) answers.push(await injectJson(server, 'POST', '/compliance/agent/mandate', { headers: busy.headers, payload: mandate }));
      expect(answers.slice(0, 60).every((answer) => answer.status === 200 || answer.status === 201)).toBe(true);
      expect(answers[59]!.headers['x-ratelimit-remaining']).toBe('0');
      expect(answers[60]!.status).toBe(429);
      expect(answers[60]!.body.code).toBe('GEN_ERR_RATE_LIMITED');
      expect((await settle(busy.headers)).status).toBe(429);
      const other = await registerTestAgent(server, { name: 'Quiet bot' });
      expect((await call('POST', '/compliance/agent/mandate', { headers: other.headers, payload: { agentId: other.agentId, maxNotionalUsd: 100 } })).status).toBe(201);
    });

    it("does not count the agent's funds against its key's limit: 60 reads of the funds, then a settlement settles", async () => {
      const reader = await registerTestAgent(server, { name: 'Reader bot' });
      await fundAgent(server, rail, reader, '10');
      for (let i = 0; i < 60; i += 1) expect((await call('GET', '/agent/funds', { headers: reader.headers })).status).toBe(200);
      const settled = await settle(reader.headers, 5);
      expect(settled.status).toBe(200);
      expect(settled.body).toMatchObject({ status: 'SETTLED' });
      expect(settled.headers['x-ratelimit-remaining']).toBe('59');
    });
  });

  describe("finding 2: the owner's money, never the rail's", () => {
    it('refuses a registered agent with nothing deposited before anything is sent; the treasury is untouched', async () => {
      const stranger = await registerTestAgent(server, { name: 'Free rider' });
      const treasuryBefore = await balanceOf(treasuryOf(rail));
      const refused = await settle(stranger.headers, 900);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'PAY_ERR_INSUFFICIENT_FUNDS', error: expect.stringContaining('USD 0 available') });
      expect(await balanceOf(treasuryOf(rail))).toBe(treasuryBefore);
    });

    it("takes body.mandate alone as the AP2 path, paid from its issuer's funds (decision 0049 §9; test/attacks/ap2-issuer-funds.test.ts): a mandate that does not verify is 400, and nothing is sent", async () => {
      const treasuryBefore = await balanceOf(treasuryOf(rail));
      const refused = await call('POST', '/agent/settle', { payload: { amount: 10, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: recipient, mandate: 'a.b.c~' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'PAY_ERR_MANDATE_INVALID', reason: 'MALFORMED' });
      expect(await balanceOf(treasuryOf(rail))).toBe(treasuryBefore);
    });

    it('credits a deposit once, spends it, and refuses what it does not cover', async () => {
      const bob = await registerTestAgent(server, { name: 'Bob bot' });
      const { txHash } = await fundAgent(server, rail, bob, '100');
      const again = await call('POST', '/agent/deposits', { headers: bob.headers, payload: { txHash } });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ agentId: bob.agentId, credited: [], funds: { depositedUsd: '100', spentUsd: '0', availableUsd: '100' } });
      expect((await settle(bob.headers, 60)).body.status).toBe('SETTLED');
      const refused = await settle(bob.headers, 60);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('PAY_ERR_INSUFFICIENT_FUNDS');
      const funds = await call('GET', '/agent/funds', { headers: bob.headers });
      expect(funds.body).toMatchObject({ agentId: bob.agentId, depositedUsd: '100', spentUsd: '60', availableUsd: '40', treasury: treasuryOf(rail) });
      expect(funds.body.fundingWallets).toHaveLength(1);
    });

    it("refuses a deposit the agent's wallets did not make, and a wallet bound to another agent", async () => {
      const carol = await registerTestAgent(server, { name: 'Carol bot' });
      const { owner, txHash } = await fundAgent(server, rail, carol, '5');
      const dave = await registerTestAgent(server, { name: 'Dave bot' });
      const stolen = await call('POST', '/agent/deposits', { headers: dave.headers, payload: { txHash } });
      expect(stolen.status).toBe(400);
      expect(stolen.body.code).toBe('PAY_ERR_DEPOSIT_INVALID');
      const taken = await bindFundingWallet(server, rail, dave, owner);
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('PAY_ERR_FUNDING_WALLET_TAKEN');
      const forged = await call('POST', '/agent/funding-wallets', {
        headers: dave.headers,
        payload: { walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`), signature: `0x${'11'.repeat(65)}` },
      });
      expect(forged.status).toBe(400);
      expect(forged.body.code).toBe('PAY_ERR_FUNDING_WALLET_INVALID');
    });

    it('settles concurrent requests only as far as the deposits go: no double spend', async () => {
      const erin = await registerTestAgent(server, { name: 'Erin bot' });
      await fundAgent(server, rail, erin, '100');
      const answers = await Promise.all(Array.from({ length: 5 }, () => settle(erin.headers, 30)));
      const settled = answers.filter((answer) => answer.status === 200 && answer.body.status === 'SETTLED');
      const refused = answers.filter((answer) => answer.status === 409);
      // 3 x 30 = 90 fits in 100; a fourth would make 120.
      expect(settled).toHaveLength(3);
      expect(refused).toHaveLength(2);
      for (const answer of refused) expect(answer.body.code).toBe('PAY_ERR_INSUFFICIENT_FUNDS');
      expect((await call('GET', '/agent/funds', { headers: erin.headers })).body).toMatchObject({ spentUsd: '90', availableUsd: '10' });
    });
  });
});

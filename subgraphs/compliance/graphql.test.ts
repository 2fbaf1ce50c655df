import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTIVE_LEI_ENTRY } from '../../test/fixtures/lei-entries.js';
import { startTestServer, type TestServer } from '../../test/helpers.js';

// The compliance graph through the gateway (/graphql): the same capabilities and validation as
// REST, entities Wallet, LegalEntity and Agent, and children loaded one query per batch.

const ADMIN_KEY = 'compliance-admin-key-0123456789abcdef0123';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };

let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  // The all-in-one server: the gateway plans over every subgraph, in process.
  server = await startTestServer({ environment: { ADMIN_KEY } });
  apiKey = (await server.platform!.access.keys.create('api', 'compliance graph', 1000)).key;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

interface GraphQLAnswer {
  status: number;
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions?: Record<string, any> }>;
}

async function graphql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, url = '/graphql'): Promise<GraphQLAnswer> {
  const response = await server.app.inject({ method: 'POST', url, headers, payload: { query, variables } });
  return { status: response.statusCode, ...(response.json() as Omit<GraphQLAnswer, 'status'>) };
}

const freshWallet = (): string => getAddress(`0x${randomBytes(20).toString('hex')}`);
const nowSeconds = () => Math.floor(server.clock.now().getTime() / 1000);

const REGISTER_WALLET = `mutation ($input: RegisterWalletInput!) { registerWallet(input: $input) { walletAddress legalName lei leiStatus aliases registeredAt registrationType country } }`;
const VERIFY = `mutation ($input: VerifyPayeeInput!) { verifyPayee(input: $input) {
  requestId result proceedSafe score resolvedBy registeredName registeredLei leiStatus message
  attestation { fatfR16Compliant regulatoryNote }
  grayZoneReasoning { assessment confidence likelyCause rationale proceedRecommendation processedAt } } }`;
const AGENT_FIELDS = `id agentId name framework ownerEntity protocols discoverable did publicKey { kty crv x y } kyaLevel kyaScore status
  tierCaps { maxNotionalUsd dailyCapUsd } leiVerified leiEntityName registeredAt revokedAt _next
  mandate { mandateId agentId maxNotionalUsd dailyCapUsd counterpartyWhitelist currencyPairs esgFloor ap2Compatible clamped createdAt updatedAt }`;

describe('verification of payee and the wallet registry in the graph', () => {
  it('verifyPayee unpaid: null and the payment requirements; with an API key: the VoP result, recorded in the wallet history', async () => {
    const wallet = freshWallet();
    const registered = await graphql(REGISTER_WALLET, { input: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei } }, ADMIN);
    expect(registered.data?.registerWallet).toEqual({
      walletAddress: wallet,
      legalName: ACTIVE_LEI_ENTRY.legalName,
      lei: ACTIVE_LEI_ENTRY.lei,
      leiStatus: 'ACTIVE',
      aliases: [...ACTIVE_LEI_ENTRY.otherNames],
      registeredAt: nowSeconds(),
      registrationType: 'REGISTRY_VERIFIED',
      country: 'SG',
    });

    const input = { walletAddress: wallet, submittedName: 'Shell Technologies Singapore' };
    const unpaid = await graphql(VERIFY, { input });
    expect(unpaid.status).toBe(402);
    expect(unpaid.data?.verifyPayee).toBeNull();
    expect(unpaid.errors![0]!.extensions).toMatchObject({
      code: 'GEN_ERR_PAYMENT_REQUIRED',
      httpStatus: 402,
      x402Version: 1,
      accepts: [expect.objectContaining({ maxAmountRequired: '75000', resource: expect.stringMatching(/\/graphql#verifyPayee$/) })],
    });

    const paid = await graphql(VERIFY, { input }, { 'x-api-key': apiKey });
    expect(paid.errors).toBeUndefined();
    expect(paid.data?.verifyPayee).toEqual({
      requestId: expect.any(String),
      result: 'PROCEED_FLAGGED',
      proceedSafe: true,
      score: 66.67,
      resolvedBy: 'LEGAL_NAME_MATCH',
      registeredName: ACTIVE_LEI_ENTRY.legalName,
      registeredLei: ACTIVE_LEI_ENTRY.lei,
      leiStatus: 'ACTIVE',
      message: expect.stringMatching(/moderate match/),
      attestation: { fatfR16Compliant: false, regulatoryNote: expect.stringMatching(/^FATF R\.16: beneficiary not confirmed \(PROCEED_FLAGGED\)/) },
      grayZoneReasoning: {
        assessment: expect.any(String),
        confidence: expect.any(String),
        likelyCause: expect.any(String),
        rationale: expect.any(String),
        proceedRecommendation: expect.any(String),
        processedAt: nowSeconds(),
      },
    });

    const read = await graphql(
      `
        query ($address: String!, $lei: String!) {
          wallet(address: $address) {
            address
            registration {
              legalName
              registrationType
            }
            vopHistory {
              requestId
              result
              score
              resolvedBy
              submittedName
              submittedLei
              checkedAt
            }
          }
          legalEntity(lei: $lei) {
            lei
            legalName
            leiStatus
            jurisdiction
            otherNames
            wallets {
              walletAddress
            }
          }
        }
      `,
      { address: wallet, lei: ACTIVE_LEI_ENTRY.lei.toLowerCase() },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data!.wallet).toEqual({
      address: wallet.toLowerCase(),
      registration: { legalName: ACTIVE_LEI_ENTRY.legalName, registrationType: 'REGISTRY_VERIFIED' },
      vopHistory: [
        {
          requestId: paid.data!.verifyPayee.requestId,
          result: 'PROCEED_FLAGGED',
          score: 66.67,
          resolvedBy: 'LEGAL_NAME_MATCH',
          submittedName: input.submittedName,
          submittedLei: null,
          checkedAt: nowSeconds(),
        },
      ],
    });
    expect(read.data!.legalEntity).toMatchObject({
      lei: ACTIVE_LEI_ENTRY.lei,
      legalName: ACTIVE_LEI_ENTRY.legalName,
      leiStatus: 'ACTIVE',
      jurisdiction: 'SG',
      otherNames: [...ACTIVE_LEI_ENTRY.otherNames],
    });
    expect(read.data!.legalEntity.wallets).toContainEqual({ walletAddress: wallet });
  });

  it('registerWallet and deregisterWallet need the admin bearer; deregistration empties the registration', async () => {
    const wallet = freshWallet();
    const refused = await graphql(REGISTER_WALLET, { input: { walletAddress: wallet, legalName: 'Fabrikam GmbH' } });
    expect(refused.data?.registerWallet).toBeNull();
    expect(refused.errors![0]!.extensions).toMatchObject({ code: 'GEN_ERR_UNAUTHORIZED' });
    await graphql(REGISTER_WALLET, { input: { walletAddress: wallet, legalName: 'Fabrikam GmbH' } }, ADMIN);
    const deregister = `mutation ($address: String!) { deregisterWallet(address: $address) { walletAddress active deactivatedAt } }`;
    expect((await graphql(deregister, { address: wallet })).errors![0]!.extensions).toMatchObject({ code: 'GEN_ERR_UNAUTHORIZED' });
    expect((await graphql(deregister, { address: wallet }, ADMIN)).data?.deregisterWallet).toEqual({ walletAddress: wallet, active: false, deactivatedAt: nowSeconds() });
    expect(
      (
        await graphql(
          `
            query ($a: String!) {
              wallet(address: $a) {
                registration {
                  legalName
                }
              }
            }
          `,
          { a: wallet },
        )
      ).data?.wallet,
    ).toEqual({ registration: null });
  });

  it('refuses bad input with the catalog codes, as REST does', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [`query ($a: String!) { wallet(address: $a) { address } }`, { a: '__proto__' }, 'CMP_ERR_INVALID_REQUEST'],
      [`query ($l: String!) { legalEntity(lei: $l) { lei } }`, { l: '2138001KPMR6PD83HC09' }, 'CMP_ERR_INVALID_LEI'],
      [VERIFY, { input: { walletAddress: freshWallet(), submittedName: 'x'.repeat(10_000) } }, 'CMP_ERR_INVALID_REQUEST'],
      [REGISTER_WALLET, { input: { walletAddress: freshWallet() } }, 'CMP_ERR_INVALID_REQUEST'],
      [`query ($id: ID!) { agent(id: $id) { id } }`, { id: 'constructor' }, 'CMP_ERR_INVALID_REQUEST'],
      [`query { agentDirectory(limit: 0) { count } }`, {}, 'CMP_ERR_INVALID_REQUEST'],
      [`mutation ($i: RegisterAgentInput!) { registerAgent(input: $i) { agentId } }`, { i: { name: 'bot', ownerEmail: 'not an email' } }, 'CMP_ERR_INVALID_REQUEST'],
    ];
    for (const [query, variables, code] of cases) {
      const answer = await graphql(query, variables, { 'x-api-key': apiKey, ...ADMIN });
      expect(answer.errors?.[0]?.extensions?.code, query).toBe(code);
    }
  });

  it('regulatoryCalendar: the 16 events with their citations', async () => {
    const { data } = await graphql(`
      {
        regulatoryCalendar {
          count
          events {
            framework
            event
            effectiveDate
            jurisdictions
            summary
            railAlignment
            instrument
            citation {
              url
              publisher
            }
          }
        }
      }
    `);
    expect(data!.regulatoryCalendar.count).toBe(16);
    expect(data!.regulatoryCalendar.events).toHaveLength(16);
    for (const event of data!.regulatoryCalendar.events) expect(event.citation.url).toMatch(/^https:\/\//);
  });
});

describe('agents in the graph', () => {
  it('registerAgent, setMandate, agent, agentDirectory and revokeAgent', async () => {
    const ownerEntity = `Graph Test Treasury ${randomBytes(4).toString('hex')}`;
    const registered = await graphql(
      `
        mutation ($input: RegisterAgentInput!) {
          registerAgent(input: $input) {
            agentId
            agentKey
            name
            did
            kyaLevel
            kyaScore
            status
            tierCaps {
              maxNotionalUsd
              dailyCapUsd
            }
            leiVerified
            leiEntityName
            tierNote
            registeredAt
            _next
            mandate {
              mandateId
              maxNotionalUsd
              dailyCapUsd
              clamped
              ap2Compatible
            }
          }
        }
      `,
      { input: { name: 'Payables bot', ownerEntity, ownerEmail: 'ops@example.com', protocols: ['x402'], discoverable: true, mandate: { maxNotionalUsd: 50_000, dailyCapUsd: null } } },
    );
    expect(registered.errors).toBeUndefined();
    const agent = registered.data!.registerAgent;
    // The owner's proof (decision 0048): the key answered once, sent as X-Agent-Key on the mandate and the revocation.
    const owner = { 'x-agent-key': agent.agentKey as string };
    expect(agent).toMatchObject({
      agentKey: expect.stringMatching(/^agk_[A-Za-z0-9_-]{43}$/),
      name: 'Payables bot',
      kyaLevel: 'REGISTERED',
      status: 'ACTIVE',
      tierCaps: { maxNotionalUsd: 25_000, dailyCapUsd: 25_000 },
      leiVerified: false,
      leiEntityName: null,
      _next: expect.any(String),
      mandate: { maxNotionalUsd: 25_000, clamped: true, ap2Compatible: false },
    });

    const mandate = await graphql(
      `
        mutation ($input: SetMandateInput!) {
          setMandate(input: $input) {
            mandateId
            agentId
            maxNotionalUsd
            dailyCapUsd
            currencyPairs
            esgFloor
            clamped
          }
        }
      `,
      {
        input: { agentId: agent.agentId, maxNotionalUsd: 1000, dailyCapUsd: 5000, currencyPairs: ['usd|eur'], esgFloor: 40 },
      },
      owner,
    );
    expect(mandate.data?.setMandate).toEqual({
      mandateId: agent.mandate.mandateId,
      agentId: agent.agentId,
      maxNotionalUsd: 1000,
      dailyCapUsd: 5000,
      currencyPairs: ['USD|EUR'],
      esgFloor: 40,
      clamped: false,
    });

    const read = await graphql(
      `query ($id: ID!, $owner: String) { agent(id: $id) { ${AGENT_FIELDS} } agentDirectory(ownerEntity: $owner) { count agents { agentId name ownerEntity kyaLevel leiVerified did protocols registeredAt } } }`,
      {
        id: agent.agentId,
        owner: ownerEntity,
      },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data!.agent).toMatchObject({
      id: agent.agentId,
      agentId: agent.agentId,
      did: agent.did,
      ownerEntity,
      publicKey: null,
      revokedAt: null,
      mandate: { maxNotionalUsd: 1000, currencyPairs: ['USD|EUR'] },
    });
    expect(read.data!.agentDirectory).toEqual({
      count: 1,
      agents: [{ agentId: agent.agentId, name: 'Payables bot', ownerEntity, kyaLevel: 'REGISTERED', leiVerified: false, did: agent.did, protocols: ['x402'], registeredAt: agent.registeredAt }],
    });

    const strangerRevocation = await graphql(
      `
        mutation ($id: ID!) {
          revokeAgent(id: $id) {
            agentId
            status
            revokedAt
          }
        }
      `,
      { id: agent.agentId },
    );
    expect(strangerRevocation.errors?.[0]?.extensions?.code).toBe('CMP_ERR_AGENT_UNAUTHORIZED');
    const revoked = await graphql(
      `
        mutation ($id: ID!) {
          revokeAgent(id: $id) {
            agentId
            status
            revokedAt
          }
        }
      `,
      { id: agent.agentId },
      owner,
    );
    expect(revoked.data?.revokeAgent).toEqual({ agentId: agent.agentId, status: 'REVOKED', revokedAt: server.clock.now().toISOString() });
    const after = await graphql(
      `
        query ($id: ID!, $owner: String) {
          agent(id: $id) {
            status
            revokedAt
          }
          agentDirectory(ownerEntity: $owner) {
            count
          }
        }
      `,
      { id: agent.agentId, owner: ownerEntity },
    );
    expect(after.data).toEqual({ agent: { status: 'REVOKED', revokedAt: server.clock.now().toISOString() }, agentDirectory: { count: 0 } });
    const refused = await graphql(
      `
        mutation ($input: SetMandateInput!) {
          setMandate(input: $input) {
            mandateId
          }
        }
      `,
      { input: { agentId: agent.agentId, maxNotionalUsd: 10 } },
      owner,
    );
    expect(refused.errors![0]!.extensions).toMatchObject({ code: 'CMP_ERR_AGENT_REVOKED' });
  });

  it('an unknown agent is null', async () => {
    expect(
      (
        await graphql(`
          {
            agent(id: "agt_AAAAAAAAAAAAAAAAAAAAAA") {
              id
            }
          }
        `)
      ).data,
    ).toEqual({ agent: null });
  });
});

describe('children load in one query per batch (entity references at the subgraph)', () => {
  const ENTITIES = `query ($representations: [_Any!]!) { _entities(representations: $representations) {
    ... on Wallet { address registration { legalName } vopHistory { requestId } }
    ... on Agent { id name mandate { mandateId } }
    ... on LegalEntity { lei wallets { walletAddress } } } }`;

  /** Counts the SQL statements drizzle prepares while `work` runs (every store call prepares one). */
  async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
    const spy = vi.spyOn(server.platform!.database.db._.session, 'prepareQuery');
    try {
      const result = await work();
      return { result, queries: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  it('50 wallets with registration and history: 2 queries; 50 agents with mandates: 1 query', async () => {
    const wallets = Array.from({ length: 50 }, freshWallet);
    for (const wallet of wallets.slice(0, 5)) await graphql(REGISTER_WALLET, { input: { walletAddress: wallet, legalName: 'Batch Holdings' } }, ADMIN);
    const walletAnswer = await countQueries(() => graphql(ENTITIES, { representations: wallets.map((address) => ({ __typename: 'Wallet', address })) }, {}, '/subgraphs/compliance/graphql'));
    expect(walletAnswer.result.errors).toBeUndefined();
    expect(walletAnswer.result.data!._entities).toHaveLength(50);
    expect(walletAnswer.result.data!._entities.filter((entity: { registration: unknown }) => entity.registration !== null)).toHaveLength(5);
    expect(walletAnswer.queries).toBe(2);

    const agentIds: string[] = [];
    for (let index = 0; index < 50; index += 1) {
      const { data } = await graphql(
        `
          mutation ($input: RegisterAgentInput!) {
            registerAgent(input: $input) {
              agentId
            }
          }
        `,
        { input: { name: `batch agent ${index}` } },
      );
      agentIds.push(data!.registerAgent.agentId);
    }
    const agentAnswer = await countQueries(() => graphql(ENTITIES, { representations: agentIds.map((id) => ({ __typename: 'Agent', id })) }, {}, '/subgraphs/compliance/graphql'));
    expect(agentAnswer.result.errors).toBeUndefined();
    expect(agentAnswer.result.data!._entities.map((entity: { id: string; name: string }) => entity.id)).toEqual(agentIds);
    expect(agentAnswer.queries).toBe(1);
  });
});

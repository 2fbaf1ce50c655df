import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { LAZARUS_ETH } from '../subgraphs/compliance/aml/testing.js';
import { leiCheckDigits } from '../subgraphs/compliance/domain/index.js';
import { ACTIVE_LEI_ENTRY, UNKNOWN_VALID_LEI } from './fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from './helpers.js';

// The compliance capabilities issue 25 brought into the graph, through the gateway (/graphql): each
// answers what its REST route answers for the same input, refuses whom REST refuses, and answers bad
// input with a coded error (decision 0082).

const ADMIN_KEY = 'graph-compliance-admin-key-0123456789abcdef';
const INTERNAL_KEY = 'graph-compliance-internal-key-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
const INTERNAL = { 'x-internal-key': INTERNAL_KEY };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ environment: { ADMIN_KEY, INTERNAL_KEY } });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

interface GraphQLAnswer {
  status: number;
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, any> }>;
  headers: Record<string, unknown>;
}

async function gql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<GraphQLAnswer> {
  const response = await server.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return { status: response.statusCode, headers: response.headers, ...(response.json() as Omit<GraphQLAnswer, 'status' | 'headers'>) };
}

/** The coded error of a refused or invalid field: its data null and one error with our code (never INTERNAL_SERVER_ERROR). */
function expectRefused(answer: GraphQLAnswer, field: string, code: string) {
  expect(answer.data?.[field] ?? null).toBeNull();
  expect(answer.errors?.map((error) => error.extensions?.code)).toEqual([code]);
}

/** REST leaves out what does not apply; GraphQL answers it null: the graph's answer without the nulls REST has no field for. */
function asRest(graph: unknown, rest: unknown): unknown {
  if (Array.isArray(graph)) return graph.map((item, index) => asRest(item, Array.isArray(rest) ? rest[index] : undefined));
  if (graph === null || typeof graph !== 'object') return graph;
  const restObject = rest !== null && typeof rest === 'object' ? (rest as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(graph)
      .filter(([name, field]) => field !== null || Object.hasOwn(restObject, name))
      .map(([name, field]) => [name, asRest(field, restObject[name])]),
  );
}

const freshWallet = () => getAddress(`0x${randomBytes(20).toString('hex')}`);

const ESG_FIELDS = `lei entityName composite environmental social governance feeTier feeSurcharge coverage computedAt expiresAt fromCache narration narrationModel methodology
  assessedPillars inputs { pillar input value score weight source asOf } missingInputs
  dataSources { lei { source url asOf licence plenary } fatf { source url asOf licence plenary } }`;

describe('LEI search, entity ESG and the reference data', () => {
  it('leiSearch answers GET /compliance/lei/search for the same name', async () => {
    const name = 'Shell Catalysts Technologies';
    const rest = await injectJson(server, 'GET', `/compliance/lei/search?name=${encodeURIComponent(name)}`);
    const graph = await gql(`query ($name: String!) { leiSearch(name: $name) { query count matches { lei legalName leiStatus jurisdiction matchedName score } } }`, { name });
    expect(rest.status).toBe(200);
    expect(graph.errors).toBeUndefined();
    expect(rest.body.matches.map((match: { lei: string }) => match.lei)).toContain(ACTIVE_LEI_ENTRY.lei);
    expect(graph.data?.leiSearch).toEqual(rest.body);
  });

  it('leiSearch refuses an empty name as REST does', async () => {
    expect((await injectJson(server, 'GET', '/compliance/lei/search?name=%20')).status).toBe(400);
    expectRefused(await gql(`{ leiSearch(name: " ") { count } }`), 'leiSearch', 'CMP_ERR_INVALID_REQUEST');
  });

  it('entityEsgScore answers GET /compliance/esg/score/:lei, for a snapshot LEI and for a declared one', async () => {
    const query = `query ($lei: String!, $name: String, $country: String) { entityEsgScore(lei: $lei, name: $name, country: $country) { ${ESG_FIELDS} } }`;
    for (const [lei, declared] of [
      [ACTIVE_LEI_ENTRY.lei, {}],
      [UNKNOWN_VALID_LEI, { name: 'Graph Test Holdings Ltd', country: 'DE' }],
    ] as const) {
      const search = new URLSearchParams(declared).toString();
      // Computed once, then both front doors read the cached score.
      await injectJson(server, 'GET', `/compliance/esg/score/${lei}?${search}`);
      const rest = await injectJson(server, 'GET', `/compliance/esg/score/${lei}?${search}`);
      const graph = await gql(query, { lei, ...declared });
      expect(rest.status).toBe(200);
      expect(graph.errors).toBeUndefined();
      expect(rest.body).toMatchObject({ lei, fromCache: true });
      expect(asRest(graph.data?.entityEsgScore, rest.body)).toEqual(rest.body);
    }
  });

  it('entityEsgScore refuses what REST refuses: a bad LEI, a bad country, an unknown LEI without a name', async () => {
    const field = (args: string) => gql(`{ entityEsgScore(${args}) { composite } }`);
    expect((await injectJson(server, 'GET', '/compliance/esg/score/NOT-AN-LEI')).body.code).toBe('CMP_ERR_INVALID_LEI');
    expectRefused(await field('lei: "NOT-AN-LEI"'), 'entityEsgScore', 'CMP_ERR_INVALID_LEI');
    expectRefused(await field(`lei: "${UNKNOWN_VALID_LEI}", name: "X", country: "Germany"`), 'entityEsgScore', 'CMP_ERR_INVALID_REQUEST');
    // A well-formed LEI nobody registered and the snapshot does not hold: REST needs its name.
    const base = `GRAPHTEST${randomBytes(5).toString('hex').toUpperCase().slice(0, 9)}`;
    const unnamed = `${base}${leiCheckDigits(base)}`;
    const rest = await injectJson(server, 'GET', `/compliance/esg/score/${unnamed}`);
    expect(rest).toMatchObject({ status: 400, body: { code: 'CMP_ERR_ESG_NAME_REQUIRED' } });
    expectRefused(await field(`lei: "${unnamed}"`), 'entityEsgScore', 'CMP_ERR_ESG_NAME_REQUIRED');
  });

  it('Wallet.esg answers GET /compliance/esg/score/wallet/:wallet; an unregistered wallet is the same coded error', async () => {
    const wallet = freshWallet();
    expect((await injectJson(server, 'POST', '/compliance/register', { payload: { walletAddress: wallet, lei: ACTIVE_LEI_ENTRY.lei }, headers: ADMIN })).status).toBe(201);
    await injectJson(server, 'GET', `/compliance/esg/score/wallet/${wallet}`);
    const rest = await injectJson(server, 'GET', `/compliance/esg/score/wallet/${wallet}`);
    const query = `query ($address: String!) { wallet(address: $address) { esg { ${ESG_FIELDS} } } }`;
    const graph = await gql(query, { address: wallet });
    expect(rest.status).toBe(200);
    expect(graph.errors).toBeUndefined();
    expect(asRest(graph.data?.wallet.esg, rest.body)).toEqual(rest.body);

    const stranger = freshWallet();
    const restUnregistered = await injectJson(server, 'GET', `/compliance/esg/score/wallet/${stranger}`);
    expect(restUnregistered).toMatchObject({ status: 404, body: { code: 'CMP_ERR_WALLET_NOT_REGISTERED' } });
    const unregistered = await gql(query, { address: stranger });
    expect(unregistered.data?.wallet.esg).toBeNull();
    expect(unregistered.errors?.map((error) => error.extensions?.code)).toEqual(['CMP_ERR_WALLET_NOT_REGISTERED']);
  });

  it('referenceData answers GET /compliance/reference-data', async () => {
    const rest = await injectJson(server, 'GET', '/compliance/reference-data');
    const graph = await gql(`{ referenceData { datasets { dataset source url asOf licence records sha256 files loadedAt inUse } } }`);
    expect(graph.errors).toBeUndefined();
    expect(rest.body.datasets.length).toBeGreaterThan(0);
    expect(graph.data?.referenceData).toEqual(rest.body);
  });
});

const AML_SCREEN = `mutation ($input: AmlScreenInput!) { amlScreen(input: $input) {
  wallet riskScore riskTier action paymentId checkedAt
  signals { code category description weight baseWeight multiplier sanctionsCorrelated measured threshold }
  sanctions { hit matches { kind entNum name type programs matchedName score currency address } list { source url asOf stale } }
  profile { maturity txCount txVolumeAvg riskScore }
  reasoning { recommendation confidence rationale keyFactors processedAt model } } }`;
const AML_PROFILE = `query ($wallet: String!) { amlProfile(wallet: $wallet) {
  wallet maturity txCount txVolumeAvg txVolumeStdDev txVolumeTotal txVolumeMax counterpartyCount screenCount blockedCount riskScore firstSeenAt lastSeenAt lastScreenedAt } }`;
const AML_EVENTS = `query ($wallet: String!) { amlEvents(wallet: $wallet) {
  wallet count events { paymentId level riskScore riskTier action direction amountUsd signals sanctionsHit recommendation checkedAt } } }`;

describe('AML in the graph: internal, X-Internal-Key as on REST', () => {
  const screenOf = (wallet: string, paymentId: string, counterparty = LAZARUS_ETH) => ({ wallet, counterparty, amount: 9500, currency: 'USD', paymentId, direction: 'SEND' });

  it('amlScreen screens as POST /compliance/aml/screen: the REST repeat of the same payment answers the stored result', async () => {
    const wallet = freshWallet();
    const input = screenOf(wallet, `pay-${randomBytes(6).toString('hex')}`);
    const graph = await gql(AML_SCREEN, { input }, INTERNAL);
    expect(graph.errors).toBeUndefined();
    expect(graph.data?.amlScreen).toMatchObject({ wallet, action: 'BLOCK', sanctions: { hit: true } });
    const rest = await injectJson(server, 'POST', '/compliance/aml/screen', { payload: input, headers: INTERNAL });
    expect(rest.status).toBe(200);
    expect(asRest(graph.data?.amlScreen, rest.body)).toEqual(rest.body);
  });

  it('amlProfile and amlEvents answer GET /compliance/aml/profile/:wallet and /aml/events/:wallet', async () => {
    const wallet = freshWallet();
    for (const paymentId of ['p-1', 'p-2'].map((suffix) => `${suffix}-${randomBytes(6).toString('hex')}`)) {
      expect((await injectJson(server, 'POST', '/compliance/aml/screen', { payload: screenOf(wallet, paymentId), headers: INTERNAL })).status).toBe(200);
    }
    const profile = await injectJson(server, 'GET', `/compliance/aml/profile/${wallet}`, { headers: INTERNAL });
    const events = await injectJson(server, 'GET', `/compliance/aml/events/${wallet}`, { headers: INTERNAL });
    expect(profile.body).toMatchObject({ wallet, screenCount: 2, blockedCount: 2 });
    expect(events.body).toMatchObject({ wallet, count: 2 });

    const graphProfile = await gql(AML_PROFILE, { wallet }, INTERNAL);
    const graphEvents = await gql(AML_EVENTS, { wallet }, INTERNAL);
    expect(graphProfile.errors).toBeUndefined();
    expect(graphEvents.errors).toBeUndefined();
    expect(graphProfile.data?.amlProfile).toEqual(profile.body);
    expect(graphEvents.data?.amlEvents).toEqual(events.body);
  });

  it('refuses a caller without the internal key, or with a wrong one, before reading its arguments, as REST does', async () => {
    const wallet = freshWallet();
    for (const headers of [{}, { 'x-internal-key': 'not-the-key' }] as Record<string, string>[]) {
      expect((await injectJson(server, 'GET', `/compliance/aml/profile/${wallet}`, { headers })).body.code).toBe('GEN_ERR_UNAUTHORIZED');
      expectRefused(await gql(AML_PROFILE, { wallet }, headers), 'amlProfile', 'GEN_ERR_UNAUTHORIZED');
      expectRefused(await gql(AML_EVENTS, { wallet }, headers), 'amlEvents', 'GEN_ERR_UNAUTHORIZED');
      // Invalid arguments too: an outsider learns nothing about the fields.
      expectRefused(await gql(AML_SCREEN, { input: { ...screenOf(wallet, 'p-stranger'), amount: -1 } }, headers), 'amlScreen', 'GEN_ERR_UNAUTHORIZED');
    }
    // Nothing was screened for the stranger.
    expect((await gql(AML_PROFILE, { wallet }, INTERNAL)).data?.amlProfile).toMatchObject({ screenCount: 0, maturity: 'UNKNOWN' });
  });

  it('answers bad input from an internal caller with CMP_ERR_INVALID_REQUEST', async () => {
    expectRefused(await gql(AML_PROFILE, { wallet: 'not a wallet!' }, INTERNAL), 'amlProfile', 'CMP_ERR_INVALID_REQUEST');
    expectRefused(await gql(AML_EVENTS, { wallet: '' }, INTERNAL), 'amlEvents', 'CMP_ERR_INVALID_REQUEST');
    const input = { ...screenOf(freshWallet(), 'p-bad'), currency: 'EUR' };
    expect((await injectJson(server, 'POST', '/compliance/aml/screen', { payload: input, headers: INTERNAL })).status).toBe(400);
    const refused = await gql(AML_SCREEN, { input }, INTERNAL);
    expectRefused(refused, 'amlScreen', 'CMP_ERR_INVALID_REQUEST');
    expect(refused.errors![0]!.message).toMatch(/amountUsd: is required/);
  });
});

const VERIFY_AGENT = `mutation ($id: ID!) { verifyAgent(id: $id) {
  verified agentId status kyaLevel kyaScore verifiableCredential revokedAt message
  credential { agentId issuedAt expiresAt mandateId signature attestation { kyaLevel ownerVerified mandateActive fatfCompliant dailyCapUsd maxNotionalUsd } } } }`;
const AUTHORIZE_AGENT = `mutation ($id: ID!, $agentKey: String!) { authorizeAgent(id: $id, agentKey: $agentKey) { agentId authorized } }`;

async function registeredAgent(): Promise<{ agentId: string; agentKey: string }> {
  const { status, body } = await injectJson(server, 'POST', '/compliance/agent/register', {
    payload: { name: 'Graph test agent', framework: 'langgraph', ownerEntity: 'Graph Test Ltd', ownerEmail: 'ops@example.com', protocols: ['x402'] },
  });
  expect(status).toBe(201);
  return { agentId: body.agentId, agentKey: body.agentKey };
}

/** The claims of a VC-JWT (its signature is the issuer's; the REST tests verify it). */
const jwtClaims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, any>;

describe('agent verification and authorization in the graph', () => {
  it('verifyAgent answers POST /compliance/agent/:id/verify: the same credential, a VC-JWT of the same claims; REVOKED once revoked', async () => {
    const { agentId, agentKey } = await registeredAgent();
    const rest = await injectJson(server, 'POST', `/compliance/agent/${agentId}/verify`);
    const graph = await gql(VERIFY_AGENT, { id: agentId });
    expect(rest.body).toMatchObject({ verified: true, status: 'ACTIVE' });
    expect(graph.errors).toBeUndefined();
    const { verifiableCredential, ...answered } = asRest(graph.data?.verifyAgent, rest.body) as Record<string, any>;
    const { verifiableCredential: restCredential, ...restAnswer } = rest.body;
    expect(answered).toEqual(restAnswer);
    // Each VC-JWT has its own jti; everything else it says is the same.
    const { jti, ...claims } = jwtClaims(verifiableCredential);
    const { jti: restJti, ...restClaims } = jwtClaims(restCredential);
    expect(jti).not.toBe(restJti);
    expect(claims).toEqual(restClaims);

    expect((await injectJson(server, 'DELETE', `/compliance/agent/${agentId}`, { headers: { 'x-agent-key': agentKey } })).status).toBe(200);
    const revokedRest = await injectJson(server, 'POST', `/compliance/agent/${agentId}/verify`);
    const revoked = await gql(VERIFY_AGENT, { id: agentId });
    expect(revokedRest.body).toMatchObject({ verified: false, status: 'REVOKED' });
    expect(asRest(revoked.data?.verifyAgent, revokedRest.body)).toEqual(revokedRest.body);
  });

  it('verifyAgent answers a malformed id and an unknown agent with the codes REST answers', async () => {
    expectRefused(await gql(VERIFY_AGENT, { id: 'agent-1' }), 'verifyAgent', 'CMP_ERR_INVALID_REQUEST');
    const unknown = `agt_${randomBytes(16).toString('base64url')}`;
    expect((await injectJson(server, 'POST', `/compliance/agent/${unknown}/verify`)).body.code).toBe('CMP_ERR_AGENT_NOT_FOUND');
    expectRefused(await gql(VERIFY_AGENT, { id: unknown }), 'verifyAgent', 'CMP_ERR_AGENT_NOT_FOUND');
  });

  it("authorizeAgent answers POST /compliance/agent/:id/authorize for an internal caller with the agent's own key", async () => {
    const { agentId, agentKey } = await registeredAgent();
    const rest = await injectJson(server, 'POST', `/compliance/agent/${agentId}/authorize`, { payload: { agentKey }, headers: INTERNAL });
    const graph = await gql(AUTHORIZE_AGENT, { id: agentId, agentKey }, INTERNAL);
    expect(rest.body).toEqual({ agentId, authorized: true });
    expect(graph.errors).toBeUndefined();
    expect(graph.data?.authorizeAgent).toEqual(rest.body);
  });

  it("refuses a caller without the internal key, and another agent's key, as REST does; bad input is CMP_ERR_INVALID_REQUEST", async () => {
    const mine = await registeredAgent();
    const theirs = await registeredAgent();
    expect((await injectJson(server, 'POST', `/compliance/agent/${mine.agentId}/authorize`, { payload: { agentKey: mine.agentKey } })).body.code).toBe('GEN_ERR_UNAUTHORIZED');
    expectRefused(await gql(AUTHORIZE_AGENT, { id: mine.agentId, agentKey: mine.agentKey }), 'authorizeAgent', 'GEN_ERR_UNAUTHORIZED');
    expectRefused(await gql(AUTHORIZE_AGENT, { id: mine.agentId, agentKey: mine.agentKey }, { 'x-internal-key': 'not-the-key' }), 'authorizeAgent', 'GEN_ERR_UNAUTHORIZED');
    const crossed = await injectJson(server, 'POST', `/compliance/agent/${mine.agentId}/authorize`, { payload: { agentKey: theirs.agentKey }, headers: INTERNAL });
    expect(crossed).toMatchObject({ status: 401, body: { code: 'CMP_ERR_AGENT_UNAUTHORIZED' } });
    expectRefused(await gql(AUTHORIZE_AGENT, { id: mine.agentId, agentKey: theirs.agentKey }, INTERNAL), 'authorizeAgent', 'CMP_ERR_AGENT_UNAUTHORIZED');
    expectRefused(await gql(AUTHORIZE_AGENT, { id: mine.agentId, agentKey: 'k'.repeat(200) }, INTERNAL), 'authorizeAgent', 'CMP_ERR_INVALID_REQUEST');
  });
});

const SESSION_FIELDS = 'sessionId status unitType unitPriceUsdc fundedUsdc balanceUsdc balanceUnits unitsUsed payer transaction openedAt expiresAt lastTickAt';
const OPEN_STREAM = `mutation ($input: StreamOpenInput!) { openStreamSession(input: $input) { ${SESSION_FIELDS} token } }`;
const TICK_STREAM = `mutation ($sessionId: ID!, $units: Float!) { tickStreamSession(sessionId: $sessionId, units: $units) { sessionId unitsCharged costUsdc balanceUsdc balanceUnits unitsUsed status tickedAt } }`;
const STREAM_SESSION = `query ($sessionId: ID!) { streamSession(sessionId: $sessionId) { ${SESSION_FIELDS} } }`;

describe('streaming sessions in the graph: paid with x402, then only by the token its opener holds', () => {
  let session: Record<string, any>;
  let bearer: Record<string, string>;

  async function paidOpen(input: Record<string, unknown>, account: number): Promise<GraphQLAnswer> {
    const unpaid = await gql(OPEN_STREAM, { input });
    const requirements = unpaid.errors![0]!.extensions!.accepts[0] as PaymentRequirements;
    const rail = await server.platform!.chain.connect();
    const header = await createPaymentHeader(rail.embedded!.walletFor(rail.embedded!.accounts[account]!) as never, 1, requirements);
    return gql(OPEN_STREAM, { input }, { 'x-payment': header });
  }

  it('openStreamSession unpaid: null and the requirements for exactly the amount asked, with the preview REST gives', async () => {
    const input = { amountUsdc: '0.15', unitType: 'call' };
    const rest = await injectJson(server, 'POST', '/compliance/stream/open', { payload: input });
    const unpaid = await gql(OPEN_STREAM, { input });
    expect(rest.status).toBe(402);
    expectRefused(unpaid, 'openStreamSession', 'GEN_ERR_PAYMENT_REQUIRED');
    expect(unpaid.errors![0]!.extensions).toMatchObject({
      httpStatus: 402,
      accepts: [expect.objectContaining({ maxAmountRequired: '150000', resource: expect.stringMatching(/\/graphql#openStreamSession$/) })],
      streamPreview: rest.body.streamPreview,
    });
  });

  it('openStreamSession paid: the session and its token; streamSession answers GET /compliance/stream/:sessionId', async () => {
    const opened = await paidOpen({ amountUsdc: '0.225', unitType: 'call' }, 7);
    expect(opened.errors).toBeUndefined();
    session = opened.data!.openStreamSession;
    expect(session).toMatchObject({ status: 'ACTIVE', unitType: 'call', fundedUsdc: '0.225', balanceUnits: 3, unitsUsed: 0, token: expect.stringMatching(/^sst_/) });
    expect(settleResponseFromHeader(String(opened.headers['x-payment-response'])).transaction).toBe(session.transaction);
    bearer = { authorization: `Bearer ${session.token}` };

    const rest = await injectJson(server, 'GET', `/compliance/stream/${session.sessionId}`, { headers: bearer });
    const graph = await gql(STREAM_SESSION, { sessionId: session.sessionId }, bearer);
    expect(graph.errors).toBeUndefined();
    const { token: _token, ...withoutToken } = session;
    expect(rest.body).toEqual(withoutToken);
    expect(graph.data?.streamSession).toEqual(rest.body);
  });

  it('tickStreamSession charges as POST /compliance/stream/:sessionId/tick: each front door sees the other', async () => {
    const graphTick = await gql(TICK_STREAM, { sessionId: session.sessionId, units: 1 }, bearer);
    expect(graphTick.errors).toBeUndefined();
    const restTick = await injectJson(server, 'POST', `/compliance/stream/${session.sessionId}/tick`, { payload: { units: 1 }, headers: bearer });
    expect(restTick.status).toBe(200);
    // The same tick one unit later: what REST answers is the graph's answer less one more unit.
    expect(graphTick.data?.tickStreamSession).toEqual({ ...restTick.body, balanceUsdc: '0.15', balanceUnits: 2, unitsUsed: 1 });
    expect(restTick.body).toMatchObject({ unitsCharged: 1, costUsdc: '0.075', balanceUsdc: '0.075', balanceUnits: 1, unitsUsed: 2, status: 'ACTIVE' });

    const tooMany = await gql(TICK_STREAM, { sessionId: session.sessionId, units: 2 }, bearer);
    expectRefused(tooMany, 'tickStreamSession', 'CMP_ERR_STREAM_INSUFFICIENT_BALANCE');
    expect(tooMany.errors![0]!.extensions).toMatchObject({ requestedUnits: 2, balanceUnits: 1 });
  });

  it("refuses a reader or ticker without the session's token, or with another session's, as REST does", async () => {
    const other = (await paidOpen({ amountUsdc: '0.01', unitType: 'byte' }, 8)).data!.openStreamSession;
    const strangers: Array<[Record<string, string>, string]> = [
      [{}, 'CMP_ERR_STREAM_TOKEN_REQUIRED'],
      [{ authorization: `Bearer ${other.token}` }, 'CMP_ERR_STREAM_NOT_FOUND'],
    ];
    for (const [headers, code] of strangers) {
      expect((await injectJson(server, 'GET', `/compliance/stream/${session.sessionId}`, { headers })).body.code).toBe(code);
      expectRefused(await gql(STREAM_SESSION, { sessionId: session.sessionId }, headers), 'streamSession', code);
      expectRefused(await gql(TICK_STREAM, { sessionId: session.sessionId, units: 1 }, headers), 'tickStreamSession', code);
    }
    // Nothing was charged by the strangers.
    expect((await gql(STREAM_SESSION, { sessionId: session.sessionId }, bearer)).data?.streamSession).toMatchObject({ unitsUsed: 2, balanceUnits: 1 });
  });

  it('answers bad input with CMP_ERR_INVALID_REQUEST, or the code REST gives', async () => {
    expectRefused(await gql(OPEN_STREAM, { input: { amountUsdc: 'lots', unitType: 'call' } }), 'openStreamSession', 'CMP_ERR_INVALID_REQUEST');
    const notWhole = await injectJson(server, 'POST', '/compliance/stream/open', { payload: { amountUsdc: '0.1', unitType: 'call' } });
    expectRefused(await gql(OPEN_STREAM, { input: { amountUsdc: '0.1', unitType: 'call' } }), 'openStreamSession', notWhole.body.code);
    expect(notWhole.body.code).toBe('CMP_ERR_STREAM_AMOUNT_NOT_WHOLE_UNITS');
    expectRefused(await gql(TICK_STREAM, { sessionId: session.sessionId, units: 0 }, bearer), 'tickStreamSession', 'CMP_ERR_INVALID_REQUEST');
    expectRefused(await gql(TICK_STREAM, { sessionId: session.sessionId, units: 1.5 }, bearer), 'tickStreamSession', 'CMP_ERR_INVALID_REQUEST');
    expectRefused(await gql(STREAM_SESSION, { sessionId: 'str_short' }, bearer), 'streamSession', 'CMP_ERR_INVALID_REQUEST');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { type PaymentRequirements, settleResponseFromHeader } from 'x402/types';
import { ManualClock } from '../platform/clock.js';
import { sharedTestChain, sharedTestDatabase, TEST_NOW, testConfig } from '../test/helpers.js';
import { mountGateway } from './graphql-endpoints.js';
import { buildServer, type BuiltServer } from './server.js';
import type { PlanKind } from './single-fetch.js';
import { SUBGRAPH_NAMES } from './subgraphs.js';

// The split layout in one process: every subgraph behind a real port, and a gateway alone reaching
// them over HTTP (ForwardingDataSource), with the single-fetch path at /single and the planner's
// path alone at /planned. Each request is sent to both; status, body and the headers a client reads
// must be the same (issue 27 item 3: same answers, errors, limits and access).

const INTERNAL_KEY = 'single-fetch-internal-key-0123456789abcdef';
const HEADERS_COMPARED = ['content-type', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

let subgraphs: BuiltServer;
let gateway: BuiltServer;
const kinds: PlanKind[] = [];
const downKinds: PlanKind[] = [];
const localKinds: PlanKind[] = [];

beforeAll(async () => {
  const clock = new ManualClock(TEST_NOW);
  subgraphs = await buildServer({ config: testConfig({ INTERNAL_KEY }), clock, database: await sharedTestDatabase(), chain: sharedTestChain(), gateway: false });
  // The all-in-one layout's gateway (in-process subgraphs, InProcessDataSource) on the same paths under /local.
  await mountGateway(subgraphs.app, subgraphs.base, subgraphs.subgraphs, { path: '/local/single', primary: false, singleFetch: { observe: (kind) => localKinds.push(kind) } });
  await mountGateway(subgraphs.app, subgraphs.base, subgraphs.subgraphs, { path: '/local/planned', primary: false, singleFetch: { enabled: false } });
  await subgraphs.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = subgraphs.app.server.address() as { port: number };
  const url = (name: string) => `http://127.0.0.1:${port}/subgraphs/${name}/graphql`;
  const urls = SUBGRAPH_NAMES.map((name) => `${name}=${url(name)}`).join(',');
  gateway = await buildServer({ config: testConfig({ SUBGRAPH_URLS: urls }), subgraphs: [], gateway: true, clock });
  const { base, app } = gateway;
  await mountGateway(app, base, [], { path: '/single', primary: false, singleFetch: { observe: (kind) => kinds.push(kind) } });
  await mountGateway(app, base, [], { path: '/planned', primary: false, singleFetch: { enabled: false } });
  // forecast behind a closed port (the subgraph server's port 1 is never listened on): a down subgraph.
  const down = {
    ...base,
    config: { ...base.config, gateway: { ...base.config.gateway, subgraphUrls: { ...base.config.gateway.subgraphUrls, forecast: 'http://127.0.0.1:1/subgraphs/forecast/graphql' } } },
  };
  await mountGateway(app, down, [], { path: '/down/single', primary: false, singleFetch: { observe: (kind) => downKinds.push(kind) } });
  await mountGateway(app, down, [], { path: '/down/planned', primary: false, singleFetch: { enabled: false } });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await gateway?.close();
  await subgraphs?.close();
});

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, unknown>;
}

async function ask(path: string, payload: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const server = path.startsWith('/local/') ? subgraphs : gateway;
  const response = await server.app.inject({ method: 'POST', url: path, headers: { 'x-request-id': 'single-fetch-test', ...headers }, payload });
  const compared = Object.fromEntries(HEADERS_COMPARED.filter((name) => response.headers[name] !== undefined).map((name) => [name, response.headers[name]]));
  return { status: response.statusCode, body: response.json(), headers: compared };
}

/**
 * The same request on both paths, twice on /single: its first sight plans the operation, the
 * second takes the single-fetch path when the plan allows it. Returns both answers and how /single served the second.
 */
async function onBothPaths(payload: Record<string, unknown>, headers: Record<string, string> = {}, prefix = '') {
  await ask(`${prefix}/single`, payload, headers);
  const before = kinds.length;
  const single = await ask(`${prefix}/single`, payload, headers);
  const planned = await ask(`${prefix}/planned`, payload, headers);
  return { single, planned, kind: kinds.slice(before).at(-1) };
}

const HEAT_CHECK = '{ heatCheck { asOf dataQuality commodities { symbol status signal } } }';
const FEE_QUOTE_FIELDS = 'schema validForSeconds fees { total { bps } } volumeTier';

describe('the single-fetch path answers as the planned path does', () => {
  it.each([
    ['a plain query', { query: HEAT_CHECK }],
    [
      'variables',
      { query: `query Fee($input: FeeQuoteInput!) { feeQuote(input: $input) { ${FEE_QUOTE_FIELDS} } }`, variables: { input: { amountUsd: 10000, hasFx: true, esgScore: 75 } }, operationName: 'Fee' },
    ],
    ['aliases', { query: '{ hot: heatCheck { when: asOf list: commodities { s: symbol status } } }' }],
    ['a fragment on the field’s own type', { query: 'query { heatCheck { ...Heat } } fragment Heat on HeatCheck { asOf commodities { symbol } }' }],
    ['__typename', { query: '{ heatCheck { __typename asOf } }' }],
  ])('%s: forwarded straight, the same answer', async (_name, payload) => {
    const { single, planned, kind } = await onBothPaths(payload);
    expect(kind).toBe('single-fetch');
    expect(single.status).toBe(200);
    expect(single).toEqual(planned);
  });

  it.each([
    ['a root __typename, answered by the gateway', { query: '{ __typename heatCheck { asOf } }' }],
    ['a fragment under @include with a variable', { query: 'query ($on: Boolean!) { heatCheck { asOf ... @include(if: $on) { dataQuality } } }', variables: { on: false } }],
    ['a field under @skip with a variable', { query: 'query ($off: Boolean!) { heatCheck { asOf dataQuality @skip(if: $off) } }', variables: { off: true } }],
  ])('%s: the same answer, whichever path the plan allows', async (_name, payload) => {
    const { single, planned } = await onBothPaths(payload);
    expect(single.status).toBe(200);
    expect(single).toEqual(planned);
  });

  it.each([
    // Refused before any executor runs (validation, the limits, the cost plugin's coercion of the variables): no path at all.
    ['a validation error', { query: '{ heatCheck { noSuchField } }' }, 400, undefined],
    ['variables the gateway refuses', { query: 'query ($input: FeeQuoteInput!) { feeQuote(input: $input) { schema } }', variables: { input: { amountUsd: 'lots' } } }, 400, undefined],
    ['the depth limit', { query: `{ heatCheck { ${'commodities { '.repeat(20)}symbol${' }'.repeat(20)} } }` }, 400, undefined],
    ['the alias limit', { query: `{ ${Array.from({ length: 40 }, (_, index) => `h${index}: heatCheck { asOf }`).join(' ')} }` }, 400, undefined],
    ['a subgraph error (the fee model refuses the amount)', { query: `{ feeQuote(input: { amountUsd: -5 }) { ${FEE_QUOTE_FIELDS} } }` }, 400, 'single-fetch-shaped'],
  ])('%s: the same error, status and shape', async (_name, payload, status, path) => {
    const { single, planned, kind } = await onBothPaths(payload);
    expect(kind).toBe(path);
    expect(single.status).toBe(status);
    expect((single.body as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
    expect(single).toEqual(planned);
  });

  it('access: refused without the internal key and with a stranger’s, answered with it; alike on both paths', async () => {
    const query = { query: 'query ($wallet: String!) { amlProfile(wallet: $wallet) { wallet txCount } }', variables: { wallet: '0x000000000000000000000000000000000000dEaD' } };
    const callers: Array<Record<string, string>> = [{}, { 'x-internal-key': 'not-the-internal-key-0123456789abcdef' }, { 'x-internal-key': INTERNAL_KEY }];
    for (const headers of callers) {
      const { single, planned, kind } = await onBothPaths(query, headers);
      expect(single).toEqual(planned);
      expect(kind).toMatch(/^single-fetch/);
    }
    const refused = await ask('/single', query);
    expect((refused.body as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code).toMatch(/_ERR_/);
    expect((await ask('/single', query, { 'x-internal-key': INTERNAL_KEY })).body).toMatchObject({ data: { amlProfile: { txCount: expect.any(Number) } } });
  });

  it('a paid field: the same 402 and requirements unpaid; paid, the same report and X-PAYMENT-RESPONSE relayed, each payment taken once', async () => {
    const query = { query: '{ climateReport { reportType period synthesis { riskLevel } } }' };
    const { single, planned, kind } = await onBothPaths(query);
    expect(kind).toBe('single-fetch-shaped');
    expect(single.status).toBe(402);
    expect(single).toEqual(planned);
    const requirements = (single.body as { errors: Array<{ extensions: { accepts: PaymentRequirements[] } }> }).errors[0]!.extensions.accepts[0]!;
    const rail = await subgraphs.platform!.chain.connect();
    const pay = async (path: string, account: number) => {
      const header = await createPaymentHeader(rail.embedded!.walletFor(rail.embedded!.accounts[account]!) as never, 1, requirements);
      const response = await gateway.app.inject({ method: 'POST', url: path, headers: { 'x-payment': header }, payload: query });
      return { status: response.statusCode, body: response.json() as unknown, settled: settleResponseFromHeader(String(response.headers['x-payment-response'])) };
    };
    const before = kinds.length;
    const paidSingle = await pay('/single', 4);
    expect(kinds.slice(before)).toEqual(['single-fetch']);
    const paidPlanned = await pay('/planned', 5);
    expect(paidSingle.status).toBe(200);
    expect(paidSingle.body).toEqual(paidPlanned.body);
    expect(paidSingle.body).toMatchObject({ data: { climateReport: { reportType: 'climate' } } });
    expect(paidSingle.settled).toMatchObject({ success: true, payer: rail.embedded!.accounts[4]!.address });
    expect(paidPlanned.settled).toMatchObject({ success: true, payer: rail.embedded!.accounts[5]!.address });
  });

  it('a down subgraph: the same SUBGRAPH_UNAVAILABLE, 503 and retry hint, without the subgraph’s address', async () => {
    const { single, planned } = await onBothPaths({ query: HEAT_CHECK }, {}, '/down');
    expect(downKinds).toEqual(['planned', 'single-fetch-shaped']);
    expect(single.status).toBe(503);
    expect(single.headers['retry-after']).toBe('5');
    expect(single).toEqual(planned);
    expect(JSON.stringify(single.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    expect(single.body).toMatchObject({ data: { heatCheck: null }, errors: [{ extensions: { code: 'SUBGRAPH_UNAVAILABLE' } }] });
  });
});

describe('which path an operation takes', () => {
  it('a one-subgraph query is forwarded straight after its first sight; the planner is not asked again', async () => {
    const query = { query: '{ heatCheck { evaluatedAt } }' };
    const before = kinds.length;
    await ask('/single', query);
    await ask('/single', query);
    await ask('/single', query);
    expect(kinds.slice(before)).toEqual(['planned', 'single-fetch', 'single-fetch']);
  });

  it('a query across subgraphs keeps the planner’s path', async () => {
    const query = { query: `{ heatCheck { asOf } feeQuote(input: { amountUsd: 100 }) { schema } }` };
    const { single, planned, kind } = await onBothPaths(query);
    expect(kind).toBe('planned');
    expect(single).toEqual(planned);
  });

  it('introspection stays on the gateway', async () => {
    const { single, planned, kind } = await onBothPaths({ query: '{ heatCheck { asOf } __type(name: "HeatCheck") { name } }' });
    expect(kind).toBe('planned');
    expect(single).toEqual(planned);
  });
});

describe('the all-in-one layout (in-process subgraphs) takes the same path', () => {
  it.each([
    ['a plain query', { query: HEAT_CHECK }, 'single-fetch'],
    ['variables', { query: `query ($input: FeeQuoteInput!) { feeQuote(input: $input) { ${FEE_QUOTE_FIELDS} } }`, variables: { input: { amountUsd: 10000, esgScore: 75 } } }, 'single-fetch'],
    ['a subgraph error', { query: `{ feeQuote(input: { amountUsd: -5 }) { ${FEE_QUOTE_FIELDS} } }` }, 'single-fetch-shaped'],
    ['the internal key refused', { query: '{ amlProfile(wallet: "0x000000000000000000000000000000000000dEaD") { txCount } }' }, 'single-fetch-shaped'],
    ['a paid field unpaid', { query: '{ climateReport { reportType } }' }, 'single-fetch-shaped'],
  ])('%s: the same answer as the planned path', async (_name, payload, path) => {
    await ask('/local/single', payload);
    const before = localKinds.length;
    const single = await ask('/local/single', payload);
    const planned = await ask('/local/planned', payload);
    expect(localKinds.slice(before)).toEqual([path]);
    expect(single).toEqual(planned);
  });
});

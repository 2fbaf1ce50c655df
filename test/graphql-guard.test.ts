import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../platform/log.js';
import { openTestPglite, startTestServer, type TestServer } from './helpers.js';

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

async function post(server: TestServer, payload: unknown, path = '/graphql', headers: Record<string, string> = {}) {
  const response = await server.app.inject({ method: 'POST', url: path, payload: payload as string, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.statusCode, body: response.json() as GraphQLBody, headers: response.headers };
}

const codes = (body: GraphQLBody) => (body.errors ?? []).map((error) => error.extensions?.code);

describe('GraphQL limits at the gateway (defaults)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('finding: a 512 KB request of 9,000 commodities{outlook} ran 36 s; it is refused by the token limit while /health answers', async () => {
    const query = `{ ${Array.from({ length: 9000 }, () => 'commodities { outlook { symbol status confidence } }').join(' ')} }`;
    expect(query.length).toBeGreaterThan(450_000);
    const [refused, health] = await Promise.all([post(server, { query }), server.app.inject({ method: 'GET', url: '/health' })]);
    expect(refused.status).toBe(400);
    expect(codes(refused.body)).toEqual(['GQL_ERR_TOO_MANY_TOKENS']);
    expect(JSON.stringify(refused.body).length).toBeLessThan(500);
    expect(health.statusCode).toBe(200);
  });

  it('finding: 1,000 feeQuote aliases wrote 1,000 rows; they are refused before any resolver runs', async () => {
    const amount = 4321.987654;
    const aliases = (count: number) => `{ ${Array.from({ length: count }, (_, index) => `q${index}: feeQuote(input: { amountUsd: ${amount} }) { quoteId }`).join(' ')} }`;
    const thousand = await post(server, { query: aliases(1000) });
    expect(thousand.status).toBe(400);
    expect(codes(thousand.body)).toEqual(['GQL_ERR_TOO_MANY_TOKENS']);
    // Under the token limit, the alias limit (30) refuses 100 aliases.
    const hundred = await post(server, { query: aliases(100) });
    expect(hundred.status).toBe(400);
    expect(codes(hundred.body)).toEqual(['GQL_ERR_TOO_MANY_ALIASES']);
    const stored = await server.platform!.database.db.execute(`select count(*)::int as n from fee_quotes where amount_usd = ${amount}` as never);
    expect((stored as unknown as { rows?: Array<{ n: number }> }).rows?.[0]?.n ?? (stored as unknown as Array<{ n: number }>)[0]?.n).toBe(0);
  });

  it('finding: two operations without operationName, an unknown operationName and mutation{x} were HTTP 500; they are 400 with a code', async () => {
    const two = await post(server, { query: 'query A { heatCheck { asOf } } query B { feeSchedule { schema } }' });
    expect(two.status).toBe(400);
    expect(codes(two.body)).toEqual(['GQL_ERR_BAD_REQUEST']);
    const unknown = await post(server, { query: 'query A { heatCheck { asOf } }', operationName: 'Nope' });
    expect(unknown.status).toBe(400);
    expect(codes(unknown.body)).toEqual(['GQL_ERR_BAD_REQUEST']);
    // The supergraph has mutations (compliance's): an unknown one fails validation. The fees subgraph has none at all.
    const mutation = await post(server, { query: 'mutation { x }' });
    expect(mutation.status).toBe(400);
    expect(codes(mutation.body)).toEqual(['GQL_ERR_VALIDATION_FAILED']);
    const onSubgraph = await post(server, { query: 'mutation { x }' }, '/subgraphs/fees/graphql');
    expect(onSubgraph.status).toBe(400);
    expect(codes(onSubgraph.body)).toEqual(['GQL_ERR_BAD_REQUEST']);
  });

  it('finding: malformed JSON at /graphql got a REST {error} body; it gets GraphQL errors', async () => {
    const response = await post(server, '{"query": "{ heatCheck { asOf } }"');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: [{ message: 'The body is not valid JSON, or it holds a __proto__ or constructor.prototype key.', extensions: { code: 'GEN_ERR_BAD_REQUEST' } }] });
  });

  it.each(['/graphql', '/subgraphs/fees/graphql'])('refuses variables of the wrong type at %s with 400 GQL_ERR_BAD_USER_INPUT, never a 500', async (path) => {
    const response = await post(server, { query: 'query ($i: FeeQuoteInput!) { feeQuote(input: $i) { quoteId } }', variables: { i: { amountUsd: 'NaN' } } }, path);
    expect(response.status).toBe(400);
    expect(codes(response.body)).toEqual(['GQL_ERR_BAD_USER_INPUT']);
  });

  it('refuses a persisted query of an unknown protocol version with 400 and a code', async () => {
    const response = await post(server, { extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } });
    expect(response.status).toBe(400);
    expect(codes(response.body)).toEqual(['GQL_ERR_BAD_REQUEST']);
  });

  it('refuses a batched request (a JSON array of operations) with 400', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify([{ query: '{ heatCheck { asOf } }' }, { query: '{ feeSchedule { schema } }' }]),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ message: 'Operation batching disabled.', extensions: { code: 'GQL_ERR_BATCHING_DISABLED' } }] });
  });

  it('finding: bad input was reported as an outage; a NUL byte in a quote id is an input error, 400', async () => {
    // The platform's input rule (decision 0053) refuses the literal before the resolver reads it.
    const response = await post(server, { query: '{ quote(quoteId: "srq-1-\\u0000abc") { quoteId } }' });
    expect(response.status).toBe(400);
    expect(codes(response.body)).toEqual(['GQL_ERR_BAD_USER_INPUT']);
  });

  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each(['/graphql', '/subgraphs/fees/graphql'])('finding 7: a variable nested 5,000 deep (10 KB, unused) answered 500 at %s; it is 400 GQL_ERR_VARIABLES_TOO_LARGE', async (path) => {
    const response = await post(server, `{"query":"{ __typename }","variables":{"x":${nested(5000)}}}`, path);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: `The GraphQL variables nest deeper or hold more values than allowed. variables.x${'.0'.repeat(31)}: nests deeper than 32 levels.`,
          extensions: { code: 'GQL_ERR_VARIABLES_TOO_LARGE' },
        },
      ],
    });
  });

  it('refuses variables of more than 20,000 values with 400, and lets 32 levels through', async () => {
    const wide = await post(server, { query: '{ __typename }', variables: { x: Array.from({ length: 25_000 }, () => 0) } });
    expect(wide.status).toBe(400);
    expect(wide.body.errors).toEqual([
      { message: 'The GraphQL variables nest deeper or hold more values than allowed. variables: holds more than 20000 values.', extensions: { code: 'GQL_ERR_VARIABLES_TOO_LARGE' } },
    ]);
    const deepEnough = await post(server, `{"query":"{ __typename }","variables":{"x":${nested(31)}}}`);
    expect(deepEnough.status).toBe(200);
    expect(deepEnough.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('GraphQL limits, configured low', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      environment: { GRAPHQL_MAX_DEPTH: '3', GRAPHQL_MAX_DIRECTIVES: '2', GRAPHQL_MAX_COST: '60', GRAPHQL_MAX_RESPONSE_BYTES: '1500', GRAPHQL_LIST_SIZE_ESTIMATE: '10' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    { limit: 'depth', query: '{ feeQuote(input: { amountUsd: 1 }) { fees { esg { tier } } } }', code: 'GQL_ERR_TOO_DEEP' },
    { limit: 'directives', query: '{ heatCheck @include(if: true) { asOf @include(if: true) dataQuality @skip(if: false) } }', code: 'GQL_ERR_TOO_MANY_DIRECTIVES' },
    // commodities (list, x10) > calendar (list, x10) > 2 fields: 1 + 10 * (1 + 10 * 2) = 211 > 60
    { limit: 'cost with list multipliers', query: '{ commodities { calendar { month events } } }', code: 'GQL_ERR_TOO_COSTLY' },
  ])('refuses an operation over the $limit limit with its own code, 400', async ({ query, code }) => {
    const response = await post(server, { query });
    expect(response.status).toBe(400);
    expect(codes(response.body)).toContain(code);
    expect(response.body.data ?? null).toBeNull();
  });

  it('lets an operation under every limit through', async () => {
    // 1 + 10 * (1 + 1) = 21 ≤ 60, depth 2, no directives
    const response = await post(server, { query: '{ commodities { symbol } }' });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });

  it('refuses a response larger than the limit with 413 and no data', async () => {
    const response = await post(server, { query: '{ heatCheck { asOf commodities { symbol status signal } } }' });
    expect(response.status).toBe(413);
    expect(response.body.data).toBeNull();
    expect(codes(response.body)).toEqual(['GQL_ERR_RESPONSE_TOO_LARGE']);
  });
});

describe('GraphQL error hygiene', () => {
  it('finding: stack traces with absolute paths whenever NODE_ENV is unset; an outage is logged once with the request id and answered without one', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const closed = await openTestPglite();
    await closed.close();
    const server = await startTestServer({ database: closed, logger: createLogger({ logLevel: 'info', destination }), subgraphs: ['fees'], gateway: false });
    try {
      const response = await post(server, { query: '{ quote(quoteId: "srq-1-000000000000000000000000") { quoteId } feeSchedule { schema } }' }, '/subgraphs/fees/graphql', {
        'x-request-id': 'hygiene-1',
      });
      expect(process.env.NODE_ENV === 'production').toBe(false);
      expect(response.body.data).toEqual({ quote: null, feeSchedule: { schema: 'srg-fee-schedule/1.0' } });
      expect(codes(response.body)).toEqual(['GEN_ERR_UNAVAILABLE']);
      expect(JSON.stringify(response.body)).not.toMatch(/stacktrace|exception|\/work\/|\.ts:|node_modules|Failed query/);
      const logged = lines.filter((line) => line.requestId === 'hygiene-1' && line.code === 'GEN_ERR_UNAVAILABLE');
      expect(logged).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('finding 11: an internal error was logged with its code only; the log now holds its cause chain (messages, stack frames) and the client none of it', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    // The whole server starts (compliance reads its reference data at start), then its database goes away.
    const database = await openTestPglite();
    const server = await startTestServer({ database, logger: createLogger({ logLevel: 'info', destination }) });
    await database.close();
    try {
      const query = { query: '{ quote(quoteId: "srq-1-000000000000000000000000") { quoteId } }' };
      // 1. At a subgraph endpoint (the split layout's subgraph): its Apollo server logs the error behind the code.
      // 2. Through the gateway to the in-process subgraph: the fetch logs it, since the gateway only sees the code.
      for (const [path, requestId] of [
        ['/subgraphs/fees/graphql', 'cause-subgraph'],
        ['/graphql', 'cause-gateway'],
      ] as const) {
        const response = await post(server, query, path, { 'x-request-id': requestId });
        expect(codes(response.body)).toEqual(['GEN_ERR_UNAVAILABLE']);
        expect(JSON.stringify(response.body)).not.toMatch(/cause|stack|InfrastructureError|Failed query|\.ts:|node_modules/);
        const logged = lines.filter((line) => line.requestId === requestId && line.code === 'GEN_ERR_UNAVAILABLE' && line.err !== undefined);
        expect(logged).toHaveLength(1);
        const err = logged[0]!.err as Record<string, any>;
        expect(err).toMatchObject({ type: 'InfrastructureError', message: expect.stringMatching(/ failed$/), stack: expect.stringMatching(/^at /), cause: { message: expect.any(String) } });
        // The chain goes down to the driver's own error, each link with its message.
        let link = err;
        let depth = 0;
        while (link.cause) {
          link = link.cause;
          depth += 1;
          expect(link.message).toEqual(expect.any(String));
        }
        expect(depth).toBeGreaterThanOrEqual(1);
      }
      // 3. REST answers 503 in its shape, and its line holds the same chain with stack frames.
      const rest = await server.app.inject({ method: 'GET', url: `/compliance/vop/lookup/0x${'2'.repeat(40)}`, headers: { 'x-request-id': 'cause-rest' } });
      expect(rest.statusCode).toBe(503);
      expect(rest.json()).toEqual({ error: 'A dependency is unavailable; retry later.', code: 'GEN_ERR_UNAVAILABLE' });
      const restLine = lines.find((line) => line.reqId === 'cause-rest' && line.err !== undefined);
      expect(restLine?.err).toMatchObject({ type: 'InfrastructureError', stack: expect.stringMatching(/^at /), cause: { stack: expect.stringMatching(/^at /) } });
    } finally {
      await server.close();
    }
  }, 120_000);

  describe('in production (NODE_ENV=production)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ environment: { NODE_ENV: 'production' } });
    });
    afterAll(async () => {
      await server.close();
    });

    it('finding: introspection stayed on in production; it is refused with a code', async () => {
      const response = await post(server, { query: '{ __schema { types { name } } }' });
      expect(response.status).toBe(400);
      expect(codes(response.body)).toEqual(['GQL_ERR_INTROSPECTION_DISABLED']);
    });

    it('finding: suggestions ("Did you mean") stayed on in production; they are hidden', async () => {
      const response = await post(server, { query: '{ heatChek { asOf } }' });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).not.toMatch(/Did you mean|heatCheck/);
    });

    it('finding: _service{sdl} was public on subgraph endpoints; it is refused in production', async () => {
      const response = await post(server, { query: '{ _service { sdl } }' }, '/subgraphs/fees/graphql');
      expect(response.status).toBe(400);
      expect(codes(response.body)).toEqual(['GQL_ERR_INTROSPECTION_DISABLED']);
    });
  });
});

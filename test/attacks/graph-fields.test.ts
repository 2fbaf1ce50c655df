import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, startTestServer, type TestServer } from '../helpers.js';

// A review of the fields issue 25 brought into the graph (decision 0085), as an attacker and an
// operator would try them through the gateway and the subgraph endpoints: each finding first
// failed here, then was fixed in the code. What held is listed in the decision.

interface GraphQLBody {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions?: Record<string, any> }>;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function gql(query: string, variables: Record<string, unknown> = {}, path = '/graphql') {
  const response = await server.app.inject({ method: 'POST', url: path, payload: { query, variables } });
  return { status: response.statusCode, body: response.json() as GraphQLBody };
}

const codes = (body: GraphQLBody) => (body.errors ?? []).map((error) => error.extensions?.code);

describe('bad input answered with a coded client error, never an internal one', () => {
  it('finding: fxRate with a malformed currency was GEN_ERR_INTERNAL (500); it is PAY_ERR_INVALID_REQUEST, as GET /integration/rates/:currency answers it', async () => {
    const query = 'query ($currency: String!) { fxRate(currency: $currency) { currency rate updatedAt } }';
    for (const currency of ['', 'eur', 'EURO', 'E1R', 'x'.repeat(300), '../EUR']) {
      const rest = await injectJson(server, 'GET', `/integration/rates/${encodeURIComponent(currency)}`);
      const graph = await gql(query, { currency });
      expect(rest.status, currency).toBe(400);
      expect(rest.body.code, currency).toBe('PAY_ERR_INVALID_REQUEST');
      expect(graph.body.data?.fxRate ?? null, currency).toBeNull();
      expect(codes(graph.body), currency).toEqual(['PAY_ERR_INVALID_REQUEST']);
      expect(graph.body.errors?.[0]?.message).toMatch(/currency: must be an ISO 4217 code of 3 capital letters/);
    }
    // The control: a well-formed code answers what REST answers.
    const rest = await injectJson(server, 'GET', '/integration/rates/EUR');
    expect(rest.status).toBe(200);
    expect((await gql(query, { currency: 'EUR' })).body).toEqual({ data: { fxRate: rest.body } });
  });

  it("finding: a Commodity reference whose symbol is not a string was GEN_ERR_INTERNAL at the forecast subgraph's endpoint; it is FCT_ERR_UNSUPPORTED_SYMBOL", async () => {
    const query = 'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Commodity { symbol outlook { name } } } }';
    for (const symbol of [12, null, undefined, { symbol: 'WHEAT' }, ['WHEAT']]) {
      const answer = await gql(query, { r: [{ __typename: 'Commodity', ...(symbol === undefined ? {} : { symbol }) }] }, '/subgraphs/forecast/graphql');
      expect(codes(answer.body), JSON.stringify(symbol)).toEqual(['FCT_ERR_UNSUPPORTED_SYMBOL']);
    }
    // The control: a supported symbol, as a string, resolves.
    const wheat = await gql(query, { r: [{ __typename: 'Commodity', symbol: 'wheat' }] }, '/subgraphs/forecast/graphql');
    expect(wheat.body.errors).toBeUndefined();
    expect(wheat.body.data?._entities).toEqual([{ symbol: 'WHEAT', outlook: { name: expect.any(String) } }]);
  });

  it('the other entities a subgraph endpoint resolves answer a key of the wrong type as not found, never an internal error', async () => {
    const references: Array<[string, string, string]> = [
      ['/subgraphs/compliance/graphql', 'LegalEntity', '... on LegalEntity { lei legalName esg { composite } }'],
      ['/subgraphs/compliance/graphql', 'Wallet', '... on Wallet { address registration { lei } esg { composite } }'],
      ['/subgraphs/compliance/graphql', 'Agent', '... on Agent { id name }'],
      ['/subgraphs/payments/graphql', 'Payment', '... on Payment { railPaymentId callback { status } }'],
      ['/subgraphs/fees/graphql', 'Quote', '... on Quote { quoteId }'],
    ];
    for (const [path, typename, fragment] of references) {
      const key = { LegalEntity: 'lei', Wallet: 'address', Agent: 'id', Payment: 'railPaymentId', Quote: 'quoteId' }[typename]!;
      for (const value of [12, null, { a: 1 }]) {
        const answer = await gql(`query ($r: [_Any!]!) { _entities(representations: $r) { ${fragment} } }`, { r: [{ __typename: typename, [key]: value }] }, path);
        expect(
          codes(answer.body).filter((code) => code === 'GEN_ERR_INTERNAL' || code === 'INTERNAL_SERVER_ERROR'),
          `${typename} ${JSON.stringify(value)}`,
        ).toEqual([]);
      }
    }
  });
});

describe('introspection, which is not cost-estimated (decision 0078), is bounded by its shape', () => {
  /** A deep introspection within graphql-js's MaxIntrospectionDepthRule (two nested lists of fields). */
  const DEEP = '__schema { types { name fields { name args { name type { name fields { name args { name } type { name ofType { name } } } } } type { name fields { name type { name } } } } } }';

  it('finding: 29 aliased copies of a deep introspection cost 0 and ran (~2 s of the event loop) until the response size limit refused the answer; they are refused before running', async () => {
    const copies = await gql(`{ ${Array.from({ length: 29 }, (_, index) => `copy${index}: ${DEEP}`).join(' ')} }`);
    expect(copies.status).toBe(400);
    expect(codes(copies.body)).toEqual(['GQL_ERR_TOO_MANY_ALIASES']);
    expect(copies.body.data).toBeUndefined();
    // The same through a subgraph's own endpoint, where the answer would have fit under the size limit.
    const atSubgraph = await gql(`{ ${Array.from({ length: 29 }, (_, index) => `copy${index}: ${DEEP}`).join(' ')} }`, {}, '/subgraphs/compliance/graphql');
    expect(atSubgraph.status).toBe(400);
    expect(codes(atSubgraph.body)).toEqual(['GQL_ERR_TOO_MANY_ALIASES']);
  });

  it('aliases inside one introspection, in a fragment on an introspection type, or on __type are refused alike', async () => {
    const typesList = 'types { name fields { name type { name fields { name } } } }';
    const inside = await gql(`{ __schema { ${Array.from({ length: 20 }, (_, index) => `t${index}: ${typesList}`).join(' ')} } }`);
    const inFragment = await gql(`{ __schema { types { ...Twice } } } fragment Twice on __Type { one: fields { name } two: fields { name } }`);
    const onType = await gql('{ query: __type(name: "Query") { name } }');
    for (const answer of [inside, inFragment, onType]) {
      expect(answer.status).toBe(400);
      expect(codes(answer.body)).toEqual(['GQL_ERR_TOO_MANY_ALIASES']);
    }
  });

  it("the controls: the explorer's introspection query and one deep introspection answer; aliases outside introspection are counted as before", async () => {
    const explorer = await gql(getIntrospectionQuery({ inputValueDeprecation: true, schemaDescription: true }));
    expect(explorer.status).toBe(200);
    expect(explorer.body.errors).toBeUndefined();
    expect(explorer.body.data?.__schema.types.map((type: { name: string }) => type.name)).toEqual(expect.arrayContaining(['Query', 'Mutation', 'Payment', 'Wallet']));
    const deep = await gql(`{ ${DEEP} __type(name: "Payment") { name fields { name } } }`);
    expect(deep.status).toBe(200);
    expect(deep.body.errors).toBeUndefined();
    expect(deep.body.data?.__type).toMatchObject({ name: 'Payment', fields: expect.arrayContaining([{ name: 'callback' }]) });
    const aliased = await gql('{ first: regulatoryCalendar { kind: __typename } second: regulatoryCalendar { __typename } }');
    expect(aliased.body).toEqual({ data: { first: { kind: 'RegulatoryCalendar' }, second: { __typename: 'RegulatoryCalendar' } } });
  });

  it('finding: an introspection nested past graphql-js\'s depth was answered GQL_ERR_INTROSPECTION_DISABLED ("disabled in production") outside production; it is GQL_ERR_TOO_DEEP', async () => {
    const tooDeep = await gql('{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
    expect(tooDeep.status).toBe(400);
    expect(codes(tooDeep.body)).toEqual(['GQL_ERR_TOO_DEEP']);
  });
});

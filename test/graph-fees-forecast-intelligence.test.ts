import { getNamedType, type GraphQLField, type GraphQLNamedType, type GraphQLOutputType, type GraphQLSchema, isLeafType, isListType, isNonNullType, isObjectType, Kind } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../platform/db.js';
import { catalogEntry } from '../subgraphs/intelligence/shared/catalog.js';
import { graphQLShape } from '../subgraphs/intelligence/shared/signal-resolvers.js';
import { exampleGraphQLArguments, listedSignalEndpoints } from '../subgraphs/intelligence/shared/testing.js';
import { injectJson, openTestPglite, startTestServer, type TestServer } from './helpers.js';

/**
 * Each field of the fees, forecast and intelligence subgraphs that names a REST route in
 * `@rest(routes: [...])` answers, through the gateway, the body that route answers for the same
 * input: every field of the GraphQL type is selected, so a field REST has and GraphQL lost (or the
 * reverse, or a value that differs) fails the comparison. REST's body is compared as GraphQL serves
 * it: each leaf through its scalar (Decimal money is a string), a key REST leaves out is null.
 * Bad input is a GraphQL error with the code REST's refusal carries.
 */

const SHELL_CATALYSTS_LEI = '2138001KPMR6PD83HC08';
const POSITIONS = [
  { symbol: 'WHEAT', notionalUsd: 1_000_000 },
  { symbol: 'COFFEE', notionalUsd: 500_000 },
  { symbol: 'WTI', notionalUsd: 2_000_000 },
];

/** The fields of an object type a full selection takes: all but those omitted and those with a required argument. */
function selectedFields(type: GraphQLNamedType, omit: readonly string[]): Array<GraphQLField<unknown, unknown>> {
  if (!isObjectType(type)) throw new Error(`${type.name}: only object types are selected in full`);
  return Object.values(type.getFields()).filter((field) => !omit.includes(`${type.name}.${field.name}`) && !field.args.some((argument) => isNonNullType(argument.type)));
}

/** Every field of `type` and of its object fields, recursively. */
function fullSelection(type: GraphQLNamedType, omit: readonly string[], depth = 0): string {
  if (isLeafType(type)) return '';
  if (depth > 8) throw new Error(`${type.name}: nested too deep`);
  return `{ ${selectedFields(type, omit)
    .map((field) => `${field.name} ${fullSelection(getNamedType(field.type), omit, depth + 1)}`)
    .join(' ')} }`;
}

/** A REST value as GraphQL serves it in `type`: leaves through their scalar, a missing key null; keys the type lacks are kept (and so differ). */
function asServed(type: GraphQLOutputType, value: unknown, omit: readonly string[]): unknown {
  if (isNonNullType(type)) return asServed(type.ofType, value, omit);
  if (value === undefined || value === null) return null;
  if (isListType(type)) return Array.isArray(value) ? value.map((item) => asServed(type.ofType, item, omit)) : value;
  if (isLeafType(type)) return type.serialize(value);
  if (!isObjectType(type) || typeof value !== 'object' || Array.isArray(value)) return value;
  const served: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of selectedFields(type, omit)) served[field.name] = asServed(field.type, (value as Record<string, unknown>)[field.name], omit);
  return served;
}

/** The type of the field a path from Query ends at (`['commodity', 'outlook']` -> CommodityOutlook!). */
function typeAt(schema: GraphQLSchema, path: readonly string[]): GraphQLOutputType {
  let type: GraphQLOutputType = schema.getQueryType()!;
  for (const name of path) {
    const parent: GraphQLNamedType = getNamedType(type);
    const field: GraphQLField<unknown, unknown> | undefined = isObjectType(parent) ? parent.getFields()[name] : undefined;
    if (!field) throw new Error(`${parent.name} has no field ${name}`);
    type = field.type;
  }
  return type;
}

interface ParityCase {
  /** The route as the field's @rest names it. */
  route: string;
  rest: { method: 'GET' | 'POST'; url: string; payload?: unknown };
  subgraph: 'fees' | 'forecast' | 'intelligence';
  /** The fields from Query to the answer; the first carries `args`. */
  path: readonly string[];
  args?: string;
  variables?: Record<string, unknown>;
  variableDefinitions?: string;
  /** GraphQL-only fields the REST body does not have (Type.field). */
  omit?: readonly string[];
  /** REST's body in GraphQL's shape, where the type documents a difference (objects keyed by name become lists). */
  toGraphQL?: (body: any) => unknown;
  /** Top-level keys that differ by design between two calls (a fresh quote id, a signal's cacheHit on the second call). */
  perCall?: readonly string[];
  paid?: boolean;
}

/** A GraphQL body through the gateway, with the API key when given. */
async function gatewayQuery(server: TestServer, query: string, variables: Record<string, unknown>, key?: string) {
  const response = await server.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, payload: { query, variables } });
  return response.json() as { data?: Record<string, any> | null; errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, unknown> }> };
}

/** "Type.field" of the last field of a path from Query. */
function fieldAt(schema: GraphQLSchema, path: readonly string[]): string {
  const parent = path.length > 1 ? getNamedType(typeAt(schema, path.slice(0, -1))) : schema.getQueryType()!;
  return `${parent.name}.${path.at(-1)}`;
}

/** "METHOD /route" -> the fields ("Type.field") whose @rest names it. */
function restRoutesOf(schemas: readonly GraphQLSchema[]): Map<string, string[]> {
  const fieldsByRoute = new Map<string, string[]>();
  for (const type of schemas.flatMap((schema) => Object.values(schema.getTypeMap()))) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const routes = field.astNode?.directives?.find((directive) => directive.name.value === 'rest')?.arguments?.[0]?.value;
      const named = routes?.kind === Kind.LIST ? routes.values.flatMap((value) => (value.kind === Kind.STRING ? [value.value] : [])) : [];
      for (const route of named) fieldsByRoute.set(route, [...(fieldsByRoute.get(route) ?? []), `${type.name}.${field.name}`]);
    }
  }
  return fieldsByRoute;
}

const schemaOf = (server: TestServer, testCase: ParityCase) => server.subgraphs.find((subgraph) => subgraph.name === testCase.subgraph)!.schema;

function queryOf(server: TestServer, testCase: ParityCase): string {
  const [first, ...rest] = testCase.path;
  const selection = fullSelection(getNamedType(typeAt(schemaOf(server, testCase), testCase.path)), testCase.omit ?? []);
  const inner = rest.reduceRight((body, field) => `{ ${field} ${body} }`, selection);
  return `query${testCase.variableDefinitions ?? ''} { ${first}${testCase.args ?? ''} ${inner} }`;
}

function dataAt(data: Record<string, any>, path: readonly string[]): unknown {
  return path.reduce<any>((value, field) => value?.[field], data);
}

/** { USDC: 0.5, ... } as GraphQL's [{ asset, weight }]. */
const weightsList = (weights: Record<string, number>) => Object.entries(weights).map(([asset, weight]) => ({ asset, weight }));

const feesCases: ParityCase[] = [
  ...(['GET', 'POST'] as const).map((method): ParityCase => ({
    route: `${method} /stability/quote`,
    rest:
      method === 'GET'
        ? { method, url: '/stability/quote?amountUsd=25000&hasFx=true&esgScore=82&monthlyVolumeUsd=2000000' }
        : { method, url: '/stability/quote', payload: { amountUsd: 25000, hasFx: true, esgScore: 82, monthlyVolumeUsd: 2000000 } },
    subgraph: 'fees',
    path: ['feeQuote'],
    args: '(input: $input)',
    variableDefinitions: '($input: FeeQuoteInput!)',
    variables: { input: { amountUsd: 25000, hasFx: true, esgScore: 82, monthlyVolumeUsd: 2000000 } },
    omit: ['Quote.verification'],
    perCall: ['quoteId'],
  })),
  { route: 'GET /esg/manifest', rest: { method: 'GET', url: '/esg/manifest' }, subgraph: 'fees', path: ['esgManifest'] },
  { route: 'GET /stability/manifest', rest: { method: 'GET', url: '/stability/manifest' }, subgraph: 'fees', path: ['stabilityManifest'] },
  { route: 'GET /stability/fee-schedule', rest: { method: 'GET', url: '/stability/fee-schedule' }, subgraph: 'fees', path: ['feeSchedule'] },
  { route: 'GET /esg/fee-schedule', rest: { method: 'GET', url: '/esg/fee-schedule' }, subgraph: 'fees', path: ['esgFeeSchedule'] },
  ...(['GET', 'POST'] as const).map((method): ParityCase => ({
    route: `${method} /esg/quote`,
    rest: method === 'GET' ? { method, url: '/esg/quote?amountUsd=2500&esgScore=64' } : { method, url: '/esg/quote', payload: { amountUsd: 2500, esgScore: 64 } },
    subgraph: 'fees',
    path: ['esgFeeQuote'],
    args: '(input: $input)',
    variableDefinitions: '($input: EsgFeeQuoteInput!)',
    variables: { input: { amountUsd: 2500, esgScore: 64 } },
  })),
  {
    route: 'GET /stability/verify-fees',
    rest: { method: 'GET', url: '/stability/verify-fees?amountUsd=10000&hasFx=true&esgScore=75' },
    subgraph: 'fees',
    path: ['feeVerification'],
    args: '(input: $input)',
    variableDefinitions: '($input: FeeVerificationInput!)',
    variables: { input: { amountUsd: 10000, hasFx: true, esgScore: 75 } },
  },
  { route: 'GET /stability/fx/:currency', rest: { method: 'GET', url: '/stability/fx/EUR' }, subgraph: 'fees', path: ['usdFxRate'], args: '(currency: "EUR")' },
  {
    route: 'GET /stability/reliability',
    rest: { method: 'GET', url: '/stability/reliability' },
    subgraph: 'fees',
    path: ['stabilityReliability'],
    omit: ['StabilityReliability.decision'],
    toGraphQL: (body) => ({ ...body, peg: { ...body.peg, basketWeights: weightsList(body.peg.basketWeights) } }),
  },
  { route: 'GET /stability/api/status', rest: { method: 'GET', url: '/stability/api/status' }, subgraph: 'fees', path: ['stabilityStatus'] },
  { route: 'GET /stability/api/history', rest: { method: 'GET', url: '/stability/api/history' }, subgraph: 'fees', path: ['stabilityHistory'] },
  { route: 'GET /esg/esg-score', rest: { method: 'GET', url: '/esg/esg-score' }, subgraph: 'fees', path: ['railEsgScore'] },
  { route: 'GET /stability/esg-score', rest: { method: 'GET', url: '/stability/esg-score' }, subgraph: 'fees', path: ['railEsgScore'] },
  { route: 'GET /esg/reliability', rest: { method: 'GET', url: '/esg/reliability' }, subgraph: 'fees', path: ['esgReliability'] },
];

const positionsInput = (extra: Record<string, unknown>) => ({ positions: POSITIONS, ...extra });

const forecastCases: ParityCase[] = [
  { route: 'GET /forecast/heat-check', rest: { method: 'GET', url: '/forecast/heat-check' }, subgraph: 'forecast', path: ['heatCheck'] },
  { route: 'GET /forecast/commodity/:symbol', rest: { method: 'GET', url: '/forecast/commodity/COFFEE' }, subgraph: 'forecast', path: ['commodity', 'outlook'], args: '(symbol: "COFFEE")' },
  { route: 'GET /forecast/regions', rest: { method: 'GET', url: '/forecast/regions' }, subgraph: 'forecast', path: ['climateRegions'] },
  { route: 'GET /forecast/calendar', rest: { method: 'GET', url: '/forecast/calendar' }, subgraph: 'forecast', path: ['riskCalendar'] },
  {
    route: 'POST /forecast/portfolio',
    rest: { method: 'POST', url: '/forecast/portfolio', payload: positionsInput({ label: 'hedge book' }) },
    subgraph: 'forecast',
    path: ['portfolioStress'],
    args: '(input: $input)',
    variableDefinitions: '($input: PortfolioInput!)',
    variables: { input: positionsInput({ label: 'hedge book' }) },
  },
  {
    route: 'POST /forecast/scenario',
    rest: { method: 'POST', url: '/forecast/scenario', payload: positionsInput({ scenario: 'black_sea_disruption' }) },
    subgraph: 'forecast',
    path: ['scenarioAnalysis'],
    args: '(input: $input)',
    variableDefinitions: '($input: ScenarioInput!)',
    variables: { input: positionsInput({ scenario: 'black_sea_disruption' }) },
  },
  {
    route: 'POST /forecast/tcfd-report',
    rest: { method: 'POST', url: '/forecast/tcfd-report', payload: positionsInput({ entityName: 'Acme Treasury', reportingPeriod: 'FY2026' }) },
    subgraph: 'forecast',
    path: ['tcfdReport'],
    args: '(input: $input)',
    variableDefinitions: '($input: TcfdReportInput!)',
    variables: { input: positionsInput({ entityName: 'Acme Treasury', reportingPeriod: 'FY2026' }) },
  },
];

/** Arguments of the signals whose every parameter is optional but whose answer is about a subject. */
const SUBJECT_ARGUMENTS: Record<string, Record<string, string>> = { entityEsg: { address: SHELL_CATALYSTS_LEI } };

function signalCases(): ParityCase[] {
  return listedSignalEndpoints().flatMap((endpoint): ParityCase[] => {
    const entry = catalogEntry(endpoint.id, endpoint.summary);
    const subject = SUBJECT_ARGUMENTS[endpoint.graphql.field] ?? {};
    const url = entry.path.replace(/:(\w+)/g, (_, name: string) => subject[name]!);
    const paid: ParityCase = {
      route: `${entry.method} ${entry.path}`,
      rest: entry.method === 'POST' ? { method: 'POST', url, payload: endpoint.example } : { method: 'GET', url },
      subgraph: 'intelligence',
      path: [endpoint.graphql.field],
      args: Object.keys(subject).length > 0 ? `(${Object.entries(subject).map(([name, value]) => `${name}: ${JSON.stringify(value)}`)})` : exampleGraphQLArguments(endpoint),
      toGraphQL: (body) => graphQLShape(endpoint, body),
      // Where the answer was cached, the second caller's cacheHit differs; the rest is the kept answer.
      perCall: ['cacheHit'],
      paid: true,
    };
    const discovery = endpoint.discovery;
    const listing: ParityCase[] = discovery ? [{ route: `GET ${entry.path}`, rest: { method: 'GET', url: entry.path }, subgraph: 'intelligence', path: [discovery.graphqlField] }] : [];
    return [paid, ...listing];
  });
}

const reportCases: ParityCase[] = [
  ['climate', 'climateReport', ''],
  ['macro', 'macroReport', ''],
  ['esg', 'esgReport', `lei=${SHELL_CATALYSTS_LEI}`],
  ['compliance', 'complianceReport', `lei=${SHELL_CATALYSTS_LEI}`],
  ['treasury', 'treasuryReport', 'period=2026-10'],
].map(([type, field, query]) => ({
  route: `GET /reports/report/${type}`,
  rest: { method: 'GET', url: `/reports/report/${type}${query ? `?${query}` : ''}` },
  subgraph: 'intelligence',
  path: [field!],
  args: query ? `(${query!.replace('=', ': "')}")` : '',
  paid: true,
}));

describe('the fees, forecast and intelligence fields answer what their REST routes answer', () => {
  let database: DatabaseHandle;
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    database = await openTestPglite();
    // Full selections of the larger answers are above the public limits on cost and tokens.
    server = await startTestServer({ database, environment: { ORACLE_SCHEDULER: 'true', GRAPHQL_MAX_COST: '1000000', GRAPHQL_MAX_TOKENS: '100000' } });
    key = (await server.platform!.access.keys.create('api', 'graph parity', 10_000)).key;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  const without = (keys: readonly string[] = [], value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object), ...Object.fromEntries(keys.map((key) => [key, undefined])) } : value;

  it.each([...feesCases, ...forecastCases, ...signalCases(), ...reportCases].map((testCase) => ({ ...testCase, name: `${testCase.route} = ${testCase.path.join('.')}` })))(
    '$name',
    async (testCase) => {
      const headers: Record<string, string> = testCase.paid ? { 'x-api-key': key } : {};
      const rest = await injectJson(server, testCase.rest.method, testCase.rest.url, { headers, ...(testCase.rest.payload === undefined ? {} : { payload: testCase.rest.payload }) });
      expect(rest.status, JSON.stringify(rest.body)).toBe(200);
      const result = await gatewayQuery(server, queryOf(server, testCase), testCase.variables ?? {}, testCase.paid ? key : undefined);
      expect(result.errors).toBeUndefined();
      const expected = asServed(typeAt(schemaOf(server, testCase), testCase.path), testCase.toGraphQL ? testCase.toGraphQL(rest.body) : rest.body, testCase.omit ?? []);
      const answered = dataAt(result.data!, testCase.path);
      for (const key of testCase.perCall ?? []) expect((answered as Record<string, unknown>)[key]).toEqual(expect.anything());
      expect(without(testCase.perCall, answered)).toEqual(without(testCase.perCall, JSON.parse(JSON.stringify(expected))));
    },
  );

  it('POST /stability/quote/verify = quoteVerification, for a quote the rail issued', async () => {
    const quote = await injectJson(server, 'POST', '/stability/quote', { payload: { amountUsd: 12500, hasFx: true, esgScore: 70 } });
    expect(quote.status).toBe(200);
    const terms = { quoteId: quote.body.quoteId, amountUsd: 12500, hasFx: true, esgScore: 70, monthlyVolumeUsd: 0 };
    const testCase: ParityCase = { route: 'POST /stability/quote/verify', rest: { method: 'POST', url: '/stability/quote/verify', payload: terms }, subgraph: 'fees', path: ['quoteVerification'] };
    const rest = await injectJson(server, 'POST', '/stability/quote/verify', { payload: terms });
    expect(rest.body).toMatchObject({ valid: true, reason: 'valid', totalFeeUsd: quote.body.fees.total.usd });
    const result = await gatewayQuery(server, queryOf(server, { ...testCase, args: '(input: $input)', variableDefinitions: '($input: QuoteVerificationInput!)' }), { input: terms });
    expect(result.errors).toBeUndefined();
    expect(result.data!.quoteVerification).toEqual(JSON.parse(JSON.stringify(asServed(typeAt(schemaOf(server, testCase), testCase.path), rest.body, []))));
  });

  it.each([
    { name: 'an ESG quote for a negative amount', rest: '/esg/quote?amountUsd=-5', status: 400, query: '{ esgFeeQuote(input: { amountUsd: -5 }) { schema } }', code: 'FEE_ERR_INVALID_QUOTE_PARAMS' },
    { name: 'a malformed currency', rest: '/stability/fx/E1', status: 400, query: '{ usdFxRate(currency: "E1") { rate } }', code: 'FEE_ERR_INVALID_CURRENCY' },
    { name: 'a currency without a published rate', rest: '/stability/fx/XXX', status: 404, query: '{ usdFxRate(currency: "XXX") { rate } }', code: 'FEE_ERR_FX_RATE_NOT_FOUND' },
    { name: 'an unsupported commodity', rest: '/forecast/commodity/BANANA', status: 404, query: '{ commodity(symbol: "BANANA") { outlook { name } } }', restCode: true },
    {
      name: 'a subject that is neither an address nor an LEI',
      rest: '/v1/intelligence/esg/not-a-subject',
      status: 400,
      query: '{ entityEsg(address: "not-a-subject") { esgScore } }',
      restCode: true,
      paid: true,
    },
  ])('bad input, $name: REST refuses it, GraphQL answers an error with the code', async ({ rest, status, query, code, restCode, paid }) => {
    const headers: Record<string, string> = paid ? { 'x-api-key': key } : {};
    const refused = await injectJson(server, 'GET', rest, { headers });
    expect(refused.status).toBe(status);
    const result = await gatewayQuery(server, query, {}, paid ? key : undefined);
    expect(result.errors?.[0]?.extensions?.code).toBe(restCode ? refused.body.code : code);
    expect(typeof result.errors?.[0]?.extensions?.code).toBe('string');
  });

  it('bad input to a simulation: an unknown node is INT_ERR_UNKNOWN_NODE in REST and GraphQL', async () => {
    const body = { origin: 'geo.atlantis', eventType: 'Sinking', magnitude: 50 };
    const refused = await injectJson(server, 'POST', '/v1/intelligence/butterfly', { payload: body, headers: { 'x-api-key': key } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INT_ERR_UNKNOWN_NODE' } });
    const result = await gatewayQuery(server, '{ butterfly(origin: "geo.atlantis", eventType: "Sinking", magnitude: 50) { synthesis } }', {}, key);
    expect(result.errors?.[0]?.extensions?.code).toBe('INT_ERR_UNKNOWN_NODE');
  });

  it('each case compares the field whose @rest names its route, and every route these subgraphs name has a case', () => {
    const cases = [...feesCases, ...forecastCases, ...signalCases(), ...reportCases];
    const fieldsByRoute = restRoutesOf(server.subgraphs.filter((subgraph) => ['fees', 'forecast', 'intelligence'].includes(subgraph.name)).map((subgraph) => subgraph.schema));
    for (const testCase of cases) expect(fieldsByRoute.get(testCase.route), testCase.route).toContain(fieldAt(schemaOf(server, testCase), testCase.path));
    const covered = new Set(cases.map((testCase) => testCase.route));
    // quote/verify has its own case above: it needs a quote issued first.
    expect([...fieldsByRoute.keys()].filter((route) => !covered.has(route))).toEqual(['POST /stability/quote/verify']);
    expect(fieldsByRoute.get('POST /stability/quote/verify')).toEqual(['Query.quoteVerification']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestServer, type TestServer } from '../../test/helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['forecast'] });
});
afterAll(async () => {
  await server.close();
});

describe('inherited object keys are not scenarios', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'finding: POST /forecast/scenario {"scenario":"%s"} was a 500; it is 400 FCT_ERR_UNKNOWN_SCENARIO in REST and GraphQL',
    async (scenario) => {
      const rest = await server.app.inject({ method: 'POST', url: '/forecast/scenario', payload: { scenario } });
      expect(rest.statusCode).toBe(400);
      expect(rest.json()).toEqual({ message: expect.stringContaining(`Unknown scenario "${scenario}"`), code: 'FCT_ERR_UNKNOWN_SCENARIO' });
      const viaGraphQL = await graphql(server, 'query ($input: ScenarioInput!) { scenarioAnalysis(input: $input) { scenario } }', { input: { scenario } }, '/subgraphs/forecast/graphql');
      expect(viaGraphQL.data).toEqual({ scenarioAnalysis: null });
      expect(viaGraphQL.errors?.[0]?.extensions?.code).toBe('FCT_ERR_UNKNOWN_SCENARIO');
    },
  );
});

describe('prototype keys in a JSON body', () => {
  it.each(['{"__proto__":{"polluted":true},"scenario":"baseline"}', '{"constructor":{"prototype":{"polluted":true}},"scenario":"baseline"}'])(
    'refuses %s with 400 in the forecast shape, and pollutes nothing',
    async (payload) => {
      const response = await server.app.inject({ method: 'POST', url: '/forecast/scenario', headers: { 'content-type': 'application/json' }, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: expect.stringContaining('__proto__'), code: 'FCT_ERR_INVALID_BODY' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});

describe('caller input is never echoed at length', () => {
  it('refuses a scenario id over 64 characters without repeating it', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/forecast/scenario', payload: { scenario: 'x'.repeat(100_000) } });
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(300);
    expect(response.json().code).toBe('FCT_ERR_INVALID_BODY');
  });

  it('cuts an unsupported symbol to 64 characters in the message', async () => {
    const viaGraphQL = await graphql(server, `{ commodity(symbol: "${'Z'.repeat(5000)}") { symbol } }`, {}, '/subgraphs/forecast/graphql');
    expect(viaGraphQL.errors?.[0]?.extensions?.code).toBe('FCT_ERR_UNSUPPORTED_SYMBOL');
    expect(viaGraphQL.errors?.[0]?.message.length).toBeLessThan(250);
  });

  it('finding: 404s under /forecast lacked message; an unknown path and a wrong method answer in the forecast shape', async () => {
    const missing = await server.app.inject({ method: 'GET', url: '/forecast/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'No route for GET /forecast/nothing-here', code: 'GEN_ERR_NOT_FOUND' });
    const wrongMethod = await server.app.inject({ method: 'DELETE', url: '/forecast/heat-check' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    expect(wrongMethod.json()).toEqual({ message: 'DELETE is not allowed on /forecast/heat-check; allowed: GET, HEAD', code: 'GEN_ERR_METHOD_NOT_ALLOWED' });
  });

  it('finding: a 101-character symbol answered 414 FST_ERR_MAX_PARAM_LENGTH; it is 400 FCT_ERR_INVALID_SYMBOL', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/forecast/commodity/${'A'.repeat(101)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'FCT_ERR_INVALID_SYMBOL', message: expect.any(String) });
  });
});

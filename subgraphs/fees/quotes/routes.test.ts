import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_NOW, type TestServer } from '../../../test/helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['fees'] });
});
afterAll(async () => {
  await server.close();
});

const quoteExample = { amountUsd: 10000, hasFx: true, esgScore: 75, monthlyVolumeUsd: 0 };

async function get(url: string) {
  const response = await server.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

describe('GET /stability/manifest', () => {
  it('returns every documented field', async () => {
    const { status, body } = await get('/stability/manifest');
    expect(status).toBe(200);
    expect(body).toEqual({
      schema: 'srg-manifest/1.0',
      name: expect.any(String),
      version: '2.1.0',
      description: expect.any(String),
      category: 'stablecoin-settlement-rail',
      network: 'base',
      chainId: 8453,
      capabilities: expect.arrayContaining(['fee-quote', 'fee-schedule']),
      fees: {
        coreBps: 85,
        fxBps: 40,
        licenseBps: 1,
        esgMaxBps: 50,
        esgFormula: '(100 - esgScore) / 200',
        typicalTotalBps: 138.5,
        worstCaseTotalBps: 176,
        bestCaseTotalBps: 86,
      },
      // The worker's embedded rail may be up already (another test used it): then its contracts are advertised (oracle-publication.test.ts checks them).
      contracts: Object.fromEntries((['token', 'esgOracle', 'redistribution', 'stabilityPID', 'basketPeg'] as const).map((name) => [name, server.platform!.chain.current()?.contracts[name] ?? null])),
      // Generated from the registered routes (decision 0033): every route of the service, and the discovery documents.
      endpoints: {
        apiHistory: 'GET /api/history',
        apiStatus: 'GET /api/status',
        esgScore: 'GET /esg-score',
        feeSchedule: 'GET /fee-schedule',
        fx: 'GET /fx/{currency}',
        health: 'GET /health',
        manifest: 'GET /manifest',
        quote: 'GET /quote',
        quotePost: 'POST /quote',
        quoteVerify: 'POST /quote/verify',
        reliability: 'GET /reliability',
        verifyFees: 'GET /verify-fees',
        widgetCorridors: 'GET /widget/corridors',
        openapi: 'GET /openapi.json',
        aiPlugin: 'GET /.well-known/ai-plugin.json',
        llms: 'GET /llms.txt',
        llmsFull: 'GET /llms-full.txt',
      },
      onboarding: { humanRequired: false },
      timestamp: TEST_NOW,
    });
  });
});

describe("the manifest's endpoints", () => {
  it('are all served: each method and path answers, neither 404 nor 405', async () => {
    const { body } = await get('/stability/manifest');
    for (const endpoint of Object.values(body.endpoints as Record<string, string>)) {
      const [method, path] = endpoint.split(' ') as ['GET' | 'POST', string];
      const response = await server.app.inject({ method, url: `/stability${path}?amountUsd=1`, ...(method === 'POST' ? { payload: { amountUsd: 1 } } : {}) });
      expect([endpoint, response.statusCode]).toEqual([endpoint, expect.not.toBeOneOf([404, 405])]);
    }
  });
});

describe('GET /stability/fee-schedule', () => {
  it('lists components, volume tiers, computed scenario examples and the competitive section', async () => {
    const { status, body } = await get('/stability/fee-schedule');
    expect(status).toBe(200);
    expect(body.schema).toBe('srg-fee-schedule/1.0');
    expect(body.timestamp).toBe(TEST_NOW);
    expect(body.components.core).toMatchObject({ bps: 85, pct: 0.85 });
    expect(body.components.fx).toMatchObject({ bps: 40, pct: 0.4 });
    expect(body.components.license).toMatchObject({ bps: 1, pct: 0.01 });
    expect(body.components.esg).toMatchObject({ minBps: 0, maxBps: 50, formula: '(100 - esgScore) / 200' });
    expect(body.volumeTiers).toEqual([
      { tier: 'STANDARD', minMonthlyVolumeUsd: 0, maxMonthlyVolumeUsd: 1_000_000, coreDiscountPct: 0, coreBps: 85 },
      { tier: 'PROFESSIONAL', minMonthlyVolumeUsd: 1_000_000, maxMonthlyVolumeUsd: 10_000_000, coreDiscountPct: 10, coreBps: 76.5 },
      { tier: 'INSTITUTIONAL', minMonthlyVolumeUsd: 10_000_000, maxMonthlyVolumeUsd: 100_000_000, coreDiscountPct: 20, coreBps: 68 },
      { tier: 'STRATEGIC', minMonthlyVolumeUsd: 100_000_000, maxMonthlyVolumeUsd: null, coreDiscountPct: 30, coreBps: 59.5 },
    ]);
    const typical = body.scenarioExamples.find((example: { name: string }) => example.name === 'typical cross-currency');
    expect(typical).toMatchObject({ totalBps: 138.5, totalUsd: 138.5, netUsd: 9861.5, volumeTier: 'STANDARD' });
    // 1,000,000 at INSTITUTIONAL: 68 + 40 + 12.5 + 1 = 121.5 bps = 12,150 USD
    const institutional = body.scenarioExamples.find((example: { name: string }) => example.name.startsWith('institutional'));
    expect(institutional).toMatchObject({ totalBps: 121.5, totalUsd: 12150, volumeTier: 'INSTITUTIONAL' });
    expect(body.competitive.benchmarks.length).toBeGreaterThan(0);
    for (const benchmark of body.competitive.benchmarks) expect(benchmark.url).toMatch(/^https:\/\//);
  });
});

describe('GET and POST /stability/quote', () => {
  it('quotes 138.5 bps and net 9861.5 for 10,000 USD cross-currency at score 75, with every documented field', async () => {
    const { status, body } = await get('/stability/quote?amountUsd=10000&hasFx=true&esgScore=75');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      schema: 'srg-quote/1.0',
      timestamp: TEST_NOW,
      validForSeconds: 300,
      input: { ...quoteExample, esgScoreSource: 'request' },
      fees: {
        core: { bps: 85, usd: 85 },
        fx: { bps: 40, usd: 40 },
        esg: { bps: 12.5, pct: 0.125, usd: 12.5, score: 75, tier: 'GOOD', formula: '(100 - esgScore) / 200' },
        license: { bps: 1, usd: 1 },
        total: { bps: 138.5, pct: 1.385, usd: 138.5 },
      },
      settlement: { netUsd: 9861.5, grossUsd: 10000 },
      volumeTier: 'STANDARD',
      esgImpact: { score: 75, tier: 'GOOD', feeBps: 12.5, feeUsd: 12.5, nextTier: { tier: 'EXCELLENT', minScore: 80, feeBpsAtMinScore: 10, savingUsd: 2.5 } },
      oracleContext: { network: 'base', chainId: 8453, issuedAt: TEST_NOW, expiresAt: '2026-11-22T12:05:00.000Z' },
    });
    // srq-<issued at, ms>-<16 hex nonce><24 hex signature> (decision 0001)
    expect(body.quoteId).toMatch(new RegExp(`^srq-${Date.parse(TEST_NOW)}-[0-9a-f]{40}$`));
    // card benchmark: 10000 × 5.4% + 0.30 = 540.30; saving 540.30 − 138.5 = 401.8
    expect(body.competitive.comparisons).toContainEqual(expect.objectContaining({ id: 'card-international-fx', estimatedUsd: 540.3, railSavingUsd: 401.8 }));
    expect(Object.keys(body).sort()).toEqual(['schema', 'timestamp', 'quoteId', 'validForSeconds', 'input', 'fees', 'settlement', 'esgImpact', 'volumeTier', 'competitive', 'oracleContext'].sort());
  });

  it('applies the defaults: hasFx false, esgScore 50 (schema default), monthlyVolumeUsd 0', async () => {
    const { body } = await get('/stability/quote?amountUsd=1000');
    // 85 + 0 + 25 + 1 = 111 bps; 1000 × 1.11% = 11.1
    expect(body.input).toEqual({ amountUsd: 1000, hasFx: false, esgScore: 50, monthlyVolumeUsd: 0, esgScoreSource: 'schema-default' });
    expect(body.fees.total).toEqual({ bps: 111, pct: 1.11, usd: 11.1 });
  });

  it('answers POST with a JSON body the same as GET', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/stability/quote', payload: { ...quoteExample, monthlyVolumeUsd: 2_000_000 } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // PROFESSIONAL: 76.5 + 40 + 12.5 + 1 = 130 bps
    expect(body.volumeTier).toBe('PROFESSIONAL');
    expect(body.fees.total).toEqual({ bps: 130, pct: 1.3, usd: 130 });
  });

  it.each([
    { name: 'missing amountUsd', url: '/stability/quote', error: /amountUsd/ },
    { name: 'non-numeric amountUsd', url: '/stability/quote?amountUsd=ten', error: /amountUsd: must be a number/ },
    { name: 'negative amountUsd', url: '/stability/quote?amountUsd=-5', error: /amountUsd: must be greater than 0/ },
    { name: 'zero amountUsd', url: '/stability/quote?amountUsd=0', error: /amountUsd: must be greater than 0/ },
    { name: 'amountUsd with an exponent', url: '/stability/quote?amountUsd=1e4', error: /amountUsd: must be a number/ },
    { name: 'repeated amountUsd', url: '/stability/quote?amountUsd=1&amountUsd=2', error: /amountUsd/ },
    { name: 'esgScore above 100', url: '/stability/quote?amountUsd=100&esgScore=101', error: /esgScore: must be between 0 and 100/ },
    { name: 'esgScore below 0', url: '/stability/quote?amountUsd=100&esgScore=-1', error: /esgScore: must be between 0 and 100/ },
    { name: 'non-boolean hasFx', url: '/stability/quote?amountUsd=100&hasFx=yes', error: /hasFx: must be true or false/ },
    { name: 'negative monthlyVolumeUsd', url: '/stability/quote?amountUsd=100&monthlyVolumeUsd=-1', error: /monthlyVolumeUsd: must be 0 or more/ },
    { name: 'an unknown parameter', url: '/stability/quote?amountUsd=100&hasFX=true', error: /hasFX|Unrecognized/i },
  ])('GET answers 400 {error, example} for $name', async ({ url, error }) => {
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.stringMatching(error), example: quoteExample });
  });

  it.each([
    { name: 'no body at all', headers: {}, payload: undefined, error: /JSON object body is required/ },
    { name: 'an empty JSON body', headers: { 'content-type': 'application/json' }, payload: '', error: /JSON body is required/ },
    { name: 'malformed JSON', headers: { 'content-type': 'application/json' }, payload: '{"amountUsd":', error: /JSON/ },
    { name: 'a text body', headers: { 'content-type': 'text/plain' }, payload: 'amountUsd=100', error: /JSON object body is required/ },
    { name: 'a form body', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'amountUsd=100', error: /Content-Type/i },
    { name: 'amountUsd as a string', headers: { 'content-type': 'application/json' }, payload: '{"amountUsd":"100"}', error: /amountUsd: must be a number/ },
    { name: 'hasFx as a string', headers: { 'content-type': 'application/json' }, payload: '{"amountUsd":100,"hasFx":"true"}', error: /hasFx: must be true or false/ },
    { name: 'esgScore out of range', headers: { 'content-type': 'application/json' }, payload: '{"amountUsd":100,"esgScore":150}', error: /esgScore/ },
  ])('POST answers 400 {error, example} for $name', async ({ headers, payload, error }) => {
    const response = await server.app.inject({ method: 'POST', url: '/stability/quote', headers, ...(payload === undefined ? {} : { payload }) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: expect.stringMatching(error), example: quoteExample });
  });
});

describe('quote amounts: whole USDC base units, bounded text', () => {
  const longZeros = (length: number) => `0.${'0'.repeat(length)}1`;

  it.each([
    { name: 'amountUsd 5e-324 in a JSON body (stored as 0 before)', payload: { amountUsd: 5e-324 }, error: /^Invalid body: amountUsd: must be at least 0\.000001 \(one USDC base unit\)$/ },
    { name: 'amountUsd 0.0000001 in a JSON body', payload: { amountUsd: 0.0000001 }, error: /amountUsd: must be at least 0\.000001/ },
    { name: 'amountUsd with 7 decimal places in a JSON body', payload: { amountUsd: 1234.5678912 }, error: /amountUsd: must have at most 6 decimal places/ },
    { name: 'esgScore 5e-324 in a JSON body', payload: { amountUsd: 100, esgScore: 5e-324 }, error: /esgScore: must have at most 6 decimal places/ },
    { name: 'monthlyVolumeUsd 5e-324 in a JSON body', payload: { amountUsd: 100, monthlyVolumeUsd: 5e-324 }, error: /monthlyVolumeUsd: must have at most 6 decimal places/ },
  ])('finding: POST /stability/quote refuses $name', async ({ payload, error }) => {
    const response = await server.app.inject({ method: 'POST', url: '/stability/quote', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: expect.stringMatching(error), example: quoteExample });
  });

  it.each([
    { name: 'amountUsd 0.0000001', query: 'amountUsd=0.0000001', error: /amountUsd: must have at most 6 decimal places/ },
    // Number('100.0000000000000000000001') is 100: the places are counted on the text.
    { name: 'amountUsd 100.0000000000000000000001', query: 'amountUsd=100.0000000000000000000001', error: /amountUsd: must have at most 6 decimal places/ },
    { name: 'esgScore with 7 decimal places', query: 'amountUsd=100&esgScore=75.1234567', error: /esgScore: must have at most 6 decimal places/ },
    { name: 'monthlyVolumeUsd with 7 decimal places', query: 'amountUsd=100&monthlyVolumeUsd=1.0000001', error: /monthlyVolumeUsd: must have at most 6 decimal places/ },
  ])('finding: GET /stability/quote refuses $name', async ({ query, error }) => {
    const { status, body } = await get(`/stability/quote?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.stringMatching(error), example: quoteExample });
  });

  it('accepts exactly one base unit and exactly 6 decimal places', async () => {
    const { status, body } = await get('/stability/quote?amountUsd=0.000001&esgScore=75.123456');
    expect(status).toBe(200);
    expect(body.input).toMatchObject({ amountUsd: 0.000001, esgScore: 75.123456 });
    const posted = await server.app.inject({ method: 'POST', url: '/stability/quote', payload: { amountUsd: 1234.567891 } });
    expect(posted.json().input.amountUsd).toBe(1234.567891);
  });

  it.each([
    { name: 'a 1 MB esgScore (Number() read it as 0 before)', url: `/stability/quote?amountUsd=10&esgScore=${longZeros(1_048_576)}` },
    { name: 'a 10 KB amountUsd', url: `/stability/quote?amountUsd=${longZeros(10_000)}` },
    { name: 'a 10 KB ESG quote amountUsd', url: `/esg/quote?amountUsd=${longZeros(10_000)}` },
  ])('finding: GET refuses $name with a short message that does not repeat it', async ({ url }) => {
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body.error).toMatch(/must be at most 32 characters/);
    expect(body.error.length).toBeLessThan(120);
    expect(body.error).not.toMatch(/0{33}/);
  });

  it('names a 100 KB unknown parameter in at most 64 of its characters', async () => {
    const { status, body } = await get(`/stability/quote?amountUsd=10&${'x'.repeat(100_000)}=1`);
    expect(status).toBe(400);
    expect(body.error).toMatch(/unknown field/);
    expect(body.error).not.toMatch(/x{65}/);
    expect(body.error.length).toBeLessThan(160);
  });
});

describe('ESG oracle quote and fee schedule', () => {
  it('GET /esg/quote prices the ESG component alone', async () => {
    const { status, body } = await get('/esg/quote?amountUsd=10000&esgScore=75');
    expect(status).toBe(200);
    expect(body).toEqual({
      schema: 'srg-esg-quote/1.0',
      timestamp: TEST_NOW,
      input: { amountUsd: 10000, esgScore: 75, esgScoreSource: 'request' },
      // (100 − 75)/2 = 12.5 bps; 10000 × 0.125% = 12.5
      fee: { bps: 12.5, pct: 0.125, usd: 12.5, score: 75, tier: 'GOOD', formula: '(100 - esgScore) / 200' },
      range: { minBps: 0, maxBps: 50 },
    });
  });

  it('POST /esg/quote takes the same fields as JSON', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/esg/quote', payload: { amountUsd: 400, esgScore: 10 } });
    // (100 − 10)/2 = 45 bps; 400 × 0.45% = 1.8
    expect(response.json().fee).toMatchObject({ bps: 45, usd: 1.8, tier: 'CRITICAL' });
  });

  it.each(['/esg/quote', '/esg/quote?amountUsd=abc', '/esg/quote?amountUsd=10&esgScore=200'])('GET %s answers 400', async (url) => {
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.any(String), example: { amountUsd: 10000, esgScore: 75 } });
  });

  it('GET /esg/fee-schedule lists the fee at every score tier', async () => {
    const { status, body } = await get('/esg/fee-schedule');
    expect(status).toBe(200);
    expect(body).toMatchObject({ schema: 'srg-esg-fee-schedule/1.0', formula: '(100 - esgScore) / 200', minBps: 0, maxBps: 50 });
    expect(body.tiers).toEqual([
      // EXCELLENT 80–100: (100−100)/2 = 0 to (100−80)/2 = 10 bps
      { tier: 'EXCELLENT', minScore: 80, maxScore: 100, minFeeBps: 0, maxFeeBps: 10, minFeePct: 0, maxFeePct: 0.1 },
      { tier: 'GOOD', minScore: 60, maxScore: 80, minFeeBps: 10, maxFeeBps: 20, minFeePct: 0.1, maxFeePct: 0.2 },
      { tier: 'FAIR', minScore: 40, maxScore: 60, minFeeBps: 20, maxFeeBps: 30, minFeePct: 0.2, maxFeePct: 0.3 },
      { tier: 'POOR', minScore: 20, maxScore: 40, minFeeBps: 30, maxFeeBps: 40, minFeePct: 0.3, maxFeePct: 0.4 },
      { tier: 'CRITICAL', minScore: 0, maxScore: 20, minFeeBps: 40, maxFeeBps: 50, minFeePct: 0.4, maxFeePct: 0.5 },
    ]);
  });
});

describe('OpenAPI documents', () => {
  it('/stability/openapi.json is OpenAPI 3.0 generated from the validating schemas', async () => {
    const { status, body } = await get('/stability/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.0\./);
    expect(body.info.version).toBe('2.1.0');
    expect(Object.keys(body.paths).sort()).toEqual([
      '/api/history',
      '/api/status',
      '/esg-score',
      '/fee-schedule',
      '/fx/{currency}',
      '/health',
      '/manifest',
      '/quote',
      '/quote/verify',
      '/reliability',
      '/verify-fees',
      '/widget/corridors',
    ]);
    const parameters = body.paths['/quote'].get.parameters.map((parameter: { name: string; required: boolean }) => [parameter.name, parameter.required]);
    expect(parameters).toEqual(
      expect.arrayContaining([
        ['amountUsd', true],
        ['hasFx', false],
        ['esgScore', false],
        ['monthlyVolumeUsd', false],
      ]),
    );
    expect(Object.keys(body.paths['/quote'].post.requestBody.content['application/json'].schema.properties).sort()).toEqual(['amountUsd', 'esgScore', 'hasFx', 'monthlyVolumeUsd']);
  });

  it('/esg/openapi.json documents the ESG paths only', async () => {
    const { body } = await get('/esg/openapi.json');
    expect(Object.keys(body.paths).sort()).toEqual(['/esg-score', '/fee-schedule', '/health', '/manifest', '/quote', '/reliability', '/widget/esg']);
  });
});

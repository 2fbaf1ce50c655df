import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { graphql, startTestServer, type TestServer } from '../../../test/helpers.js';

const SUBGRAPH = '/subgraphs/fees/graphql';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['fees'] });
});
afterAll(async () => {
  await server.close();
});

const ask = <T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}) => graphql<T>(server, query, variables, SUBGRAPH);

describe('fees subgraph: quote ids as input', () => {
  it.each([
    { name: 'not hex', quoteId: 'srq-1-zzzz' },
    { name: 'a 500 KB id (the request body limit is 1 MB)', quoteId: `srq-1-${'a'.repeat(500_000)}` },
    { name: 'another prefix', quoteId: 'abc-1-000000000000000000000000' },
  ])('finding: quote(quoteId) with $name is bad input (FEE_ERR_INVALID_QUOTE_PARAMS, 400), never a 503 from the database', async ({ quoteId }) => {
    const result = await ask('query ($id: ID!) { quote(quoteId: $id) { quoteId } }', { id: quoteId });
    expect(result.data).toEqual({ quote: null });
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({
      message: 'quoteId must look like srq-<digits>-<hex>',
      extensions: { code: 'FEE_ERR_INVALID_QUOTE_PARAMS', httpStatus: 400 },
    });
  });

  it('a NUL byte in a quote id never reaches the resolver: the platform input rule refuses it (decision 0053)', async () => {
    const result = await ask('query ($id: ID!) { quote(quoteId: $id) { quoteId } }', { id: 'srq-1-\u0000abc' });
    expect(result.data).toBeUndefined();
    expect(result.errors).toEqual([{ message: 'An argument of the GraphQL operation is invalid. variables.id: must not contain NUL (U+0000).', extensions: { code: 'GQL_ERR_BAD_USER_INPUT' } }]);
  });

  it('finding: a Quote entity reference with a malformed id resolves to null, without an error', async () => {
    const result = await ask<{ _entities: unknown[] }>('query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Quote { quoteId } } }', {
      representations: [
        { __typename: 'Quote', quoteId: 'srq-1-zzz' },
        { __typename: 'Quote', quoteId: 'srq-1-000000000000000000000000' },
      ],
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ _entities: [null, null] });
  });

  it('finds a quote it issued by its id once its batch is written', async () => {
    const issued = await ask<{ feeQuote: { quoteId: string } }>('{ feeQuote(input: { amountUsd: 321 }) { quoteId } }');
    const quoteId = issued.data!.feeQuote.quoteId;
    const found = await vi.waitFor(async () => {
      const answer = await ask<{ quote: unknown }>('query ($id: ID!) { quote(quoteId: $id) { quoteId fees { total { bps } } } }', { id: quoteId });
      expect(answer.data?.quote).not.toBeNull();
      return answer;
    });
    // 85 + 0 + 25 + 1 = 111 bps (no FX, schema-default score 50)
    expect(found).toEqual({ data: { quote: { quoteId, fees: { total: { bps: 111 } } } } });
  });
});

describe('fees subgraph: amounts as input', () => {
  it.each([
    { name: 'amountUsd 5e-324', input: '{ amountUsd: 5e-324 }', error: /amountUsd: must be at least 0\.000001/ },
    { name: 'amountUsd with 7 decimal places', input: '{ amountUsd: 1.0000001 }', error: /amountUsd: must have at most 6 decimal places/ },
    { name: 'esgScore 5e-324', input: '{ amountUsd: 100, esgScore: 5e-324 }', error: /esgScore: must have at most 6 decimal places/ },
    { name: 'monthlyVolumeUsd 5e-324', input: '{ amountUsd: 100, monthlyVolumeUsd: 5e-324 }', error: /monthlyVolumeUsd: must have at most 6 decimal places/ },
  ])('finding: feeQuote refuses $name (FEE_ERR_INVALID_QUOTE_PARAMS)', async ({ input, error }) => {
    const result = await ask(`{ feeQuote(input: ${input}) { quoteId } }`);
    expect(result.data).toEqual({ feeQuote: null });
    expect(result.errors?.[0]).toMatchObject({ message: expect.stringMatching(error), extensions: { code: 'FEE_ERR_INVALID_QUOTE_PARAMS' } });
  });
});

describe('fees subgraph: nullable root fields', () => {
  it('finding: a failing root field is null with its error, and its sibling fields still answer', async () => {
    const result = await ask<Record<string, unknown>>('{ stabilityManifest { schema endpoints } feeQuote(input: { amountUsd: -1 }) { quoteId } esgFeeSchedule { maxBps } }');
    expect(result.data).toEqual({
      stabilityManifest: { schema: 'srg-manifest/1.0', endpoints: expect.objectContaining({ quote: 'GET /quote', reliability: 'GET /reliability' }) },
      feeQuote: null,
      esgFeeSchedule: { maxBps: 50 },
    });
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({ path: ['feeQuote'], extensions: { code: 'FEE_ERR_INVALID_QUOTE_PARAMS' } });
  });

  it('serves the fee schedule, manifest and ESG quote as typed objects, not JSON blobs', async () => {
    const result = await ask<Record<string, any>>(
      `{ feeSchedule { components { core { bps volumeDiscounted } esg { maxBps tiers { tier } } rounding }
                       scenarioExamples { name input { amountUsd hasFx esgScore monthlyVolumeUsd } totalBps }
                       competitive { benchmarks { id fixedUsd appliesTo url } note } source { asOf } }
         esgFeeQuote(input: { amountUsd: 10000, esgScore: 75 }) { input { amountUsd esgScore esgScoreSource } } }`,
    );
    expect(result.errors).toBeUndefined();
    const schedule = result.data!.feeSchedule;
    expect(schedule.components.core).toEqual({ bps: 85, volumeDiscounted: true });
    expect(schedule.components.esg.maxBps).toBe(50);
    const typical = schedule.scenarioExamples.find((example: { name: string }) => example.name === 'typical cross-currency');
    // 85 + 40 + (100 − 75)/2 + 1 = 138.5 bps
    expect(typical).toEqual({ name: 'typical cross-currency', input: { amountUsd: 10000, hasFx: true, esgScore: 75, monthlyVolumeUsd: 0 }, totalBps: 138.5 });
    for (const benchmark of schedule.competitive.benchmarks) {
      expect(benchmark.url).toMatch(/^https:\/\//);
      expect(typeof benchmark.fixedUsd).toBe('string');
    }
    expect(result.data!.esgFeeQuote.input).toEqual({ amountUsd: 10000, esgScore: 75, esgScoreSource: 'request' });
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { composeSupergraph, readSupergraph } from '../gateway/compose.js';
import { graphql, startTestServer, TEST_NOW, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const QUOTE_FIELDS = `
  quoteId schema timestamp validForSeconds volumeTier
  input { amountUsd hasFx esgScore monthlyVolumeUsd esgScoreSource }
  fees {
    core { bps usd } fx { bps usd } license { bps usd }
    esg { bps pct usd score tier formula }
    total { bps pct usd }
  }
  settlement { netUsd grossUsd }
  oracleContext { expiresAt }
`;

describe('supergraph', () => {
  it('schema/supergraph.graphql is what npm run compose produces from schema/*.graphql', () => {
    expect(readSupergraph()).toBe(composeSupergraph());
  });
});

describe('fee quote through the gateway', () => {
  it('returns the same numbers as REST: 138.5 bps, net 9861.5', async () => {
    const result = await graphql<{ feeQuote: Record<string, any> }>(server, `query ($input: FeeQuoteInput!) { feeQuote(input: $input) { ${QUOTE_FIELDS} } }`, {
      input: { amountUsd: 10000, hasFx: true, esgScore: 75 },
    });
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    const quote = result.data!.feeQuote;
    expect(quote).toMatchObject({
      schema: 'srg-quote/1.0',
      timestamp: TEST_NOW,
      validForSeconds: 300,
      volumeTier: 'STANDARD',
      input: { amountUsd: 10000, hasFx: true, esgScore: 75, monthlyVolumeUsd: 0, esgScoreSource: 'request' },
      fees: {
        core: { bps: 85, usd: '85' },
        fx: { bps: 40, usd: '40' },
        license: { bps: 1, usd: '1' },
        esg: { bps: 12.5, pct: 0.125, usd: '12.5', score: 75, tier: 'GOOD', formula: '(100 - esgScore) / 200' },
        total: { bps: 138.5, pct: 1.385, usd: '138.5' },
      },
      settlement: { netUsd: '9861.5', grossUsd: '10000' },
    });
    const rest = (await server.app.inject({ method: 'GET', url: '/stability/quote?amountUsd=10000&hasFx=true&esgScore=75' })).json();
    expect(Number(quote.fees.total.usd)).toBe(rest.fees.total.usd);
    expect(Number(quote.settlement.netUsd)).toBe(rest.settlement.netUsd);
    // Each request is its own quote (decision 0001): same terms, same instant, another nonce.
    expect(quote.quoteId).toMatch(/^srq-\d+-[0-9a-f]{40}$/);
    expect(quote.quoteId).not.toBe(rest.quoteId);
  });

  it('finds an issued quote by its id (the Quote entity) once its batch is written, and null for an unknown id', async () => {
    server.clock.advance(1000);
    const issued = (await server.app.inject({ method: 'GET', url: '/stability/quote?amountUsd=250&esgScore=90' })).json();
    const lookup = () =>
      graphql<{ found: Record<string, any> | null; missing: null }>(
        server,
        `
          query ($id: ID!) {
            found: quote(quoteId: $id) {
              quoteId
              fees {
                total {
                  bps
                  usd
                }
              }
            }
            missing: quote(quoteId: "srq-1-000000000000000000000000") {
              quoteId
            }
          }
        `,
        { id: issued.quoteId },
      );
    const result = await vi.waitFor(async () => {
      const answer = await lookup();
      expect(answer.data?.found).not.toBeNull();
      return answer;
    });
    expect(result.errors).toBeUndefined();
    // 85 + 0 + 5 + 1 = 91 bps; 250 × 0.91% = 2.275
    expect(result.data).toEqual({ found: { quoteId: issued.quoteId, fees: { total: { bps: 91, usd: '2.275' } } }, missing: null });
  });

  it('refuses invalid input with the catalog code in extensions', async () => {
    const result = await graphql(
      server,
      `
        {
          feeQuote(input: { amountUsd: -1, esgScore: 120 }) {
            quoteId
          }
        }
      `,
    );
    expect(result.data).toEqual({ feeQuote: null });
    expect(result.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/amountUsd: must be greater than 0; esgScore: must be between 0 and 100/),
      extensions: { code: 'FEE_ERR_INVALID_QUOTE_PARAMS' },
    });
  });

  it('serves the manifest, the fee schedule and the ESG quote from the same functions as REST', async () => {
    const result = await graphql<Record<string, any>>(
      server,
      `
        {
          stabilityManifest {
            schema
            chainId
            fees {
              typicalTotalBps
              bestCaseTotalBps
              worstCaseTotalBps
            }
          }
          feeSchedule {
            volumeTiers {
              tier
              coreBps
            }
          }
          esgFeeQuote(input: { amountUsd: 10000, esgScore: 75 }) {
            fee {
              bps
              usd
              tier
            }
          }
          esgFeeSchedule {
            tiers {
              tier
              minFeeBps
              maxFeeBps
            }
          }
        }
      `,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.stabilityManifest).toEqual({ schema: 'srg-manifest/1.0', chainId: 8453, fees: { typicalTotalBps: 138.5, bestCaseTotalBps: 86, worstCaseTotalBps: 176 } });
    expect(result.data!.feeSchedule.volumeTiers.map((tier: { coreBps: number }) => tier.coreBps)).toEqual([85, 76.5, 68, 59.5]);
    expect(result.data!.esgFeeQuote.fee).toEqual({ bps: 12.5, usd: '12.5', tier: 'GOOD' });
    expect(result.data!.esgFeeSchedule.tiers[0]).toEqual({ tier: 'EXCELLENT', minFeeBps: 0, maxFeeBps: 10 });
  });

  it('serves each subgraph alone at /subgraphs/<name>/graphql with the federation _service field', async () => {
    const result = await graphql<{ _service: { sdl: string } }>(server, '{ _service { sdl } }', {}, '/subgraphs/fees/graphql');
    expect(result.data!._service.sdl).toContain('type Quote');
  });
});

describe('operations endpoints', () => {
  it('/health reports each part', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      databaseDriver: 'pglite',
      down: [],
      checks: { database: { status: 'up' }, 'subgraph fees': { status: 'up' }, 'subgraph forecast': { status: 'up' } },
    });
  });

  it('/metrics is Prometheus text with request durations by route', async () => {
    await server.app.inject({ method: 'GET', url: '/stability/manifest' });
    const response = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/stability\/manifest",status="200"\} [1-9]/);
  });

  it('an unknown path is a 404 in the generic error shape, never a stack trace', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No route for GET /nowhere', code: 'GEN_ERR_NOT_FOUND' });
  });
});

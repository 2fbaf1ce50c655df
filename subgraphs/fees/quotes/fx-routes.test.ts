import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphql, startTestServer, TEST_NOW, type TestServer } from '../../../test/helpers.js';
import { feeParameters } from '../data/index.js';
import { computeFees } from '../domain/index.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ subgraphs: ['fees'] });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.clock.set(TEST_NOW));

async function call(method: 'GET' | 'POST', url: string, payload?: string | object) {
  const response = await server.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

/** The last row of the shared snapshot itself (not the shipped copy), so a wrongly copied file fails. */
function lastRowOfSharedSnapshot(currency: string): { date: string; value: string } {
  const lines = readFileSync(`/work/shared/data/series/fx_daily_${currency}_per_USD.csv`, 'utf8').trim().split('\n');
  const [date, value] = lines.at(-1)!.split(',');
  return { date: date!, value: value! };
}
const sharedSnapshotPresent = (() => {
  try {
    readFileSync('/work/shared/data/series/fx_daily_EUR_per_USD.csv');
    return true;
  } catch {
    return false;
  }
})();

describe('GET /stability/fx/:currency', () => {
  it('answers the latest shipped EUR observation, units per USD as published, with its provenance', async () => {
    const { status, body } = await call('GET', '/stability/fx/EUR');
    expect(status).toBe(200);
    expect(body).toEqual({
      currency: 'EUR',
      rate: '0.8635',
      updatedAt: Date.UTC(2026, 7, 14) / 1000,
      direction: 'units of currency per 1 USD',
      observationDate: '2026-08-14',
      dataQuality: 'published',
      source: 'Board of Governors of the Federal Reserve System (H.10), via FRED / datasets/exchange-rates; EUR per 1 USD, noon buying rate in New York',
      url: 'https://fred.stlouisfed.org/series/DEXUSEU',
      asOf: '2026-08-22',
      licence: 'Public domain (US federal government work); packaging ODC-PDDL (datasets/exchange-rates)',
    });
  });

  it.runIf(sharedSnapshotPresent)('every shipped currency answers the last row of the shared snapshot, as text (trailing zeros kept)', async () => {
    for (const currency of ['GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'INR', 'KRW']) {
      const { status, body } = await call('GET', `/stability/fx/${currency}`);
      const last = lastRowOfSharedSnapshot(currency);
      expect(status).toBe(200);
      expect({ currency: body.currency, rate: body.rate, observationDate: body.observationDate }).toEqual({ currency, rate: last.value, observationDate: last.date });
    }
  });

  it('may be reused for a minute (Cache-Control), an error not', async () => {
    expect((await call('GET', '/stability/fx/EUR')).headers['cache-control']).toBe('public, max-age=60');
    expect((await call('GET', '/stability/fx/XAU')).headers['cache-control']).toBeUndefined();
  });

  it('USD is 1 by definition, stamped now', async () => {
    const { status, body } = await call('GET', '/stability/fx/USD');
    expect(status).toBe(200);
    expect(body).toMatchObject({ currency: 'USD', rate: '1', updatedAt: Date.parse(TEST_NOW) / 1000, observationDate: '2026-11-22', dataQuality: 'definition' });
  });

  it('an unknown currency is 404; a malformed one is 400, never 500', async () => {
    expect(await call('GET', '/stability/fx/XAU')).toMatchObject({ status: 404, body: { error: 'No FX rate against USD is shipped for XAU.' } });
    for (const bad of ['eur', 'EURO', 'E1R', '%C3%A9UR', '__proto__', 'x'.repeat(5000), '%00UR']) {
      const { status, body } = await call('GET', `/stability/fx/${bad}`);
      expect(status, bad.slice(0, 20)).toBe(400);
      expect(typeof body.error).toBe('string');
    }
  });
});

describe('POST /stability/quote/verify', () => {
  const terms = { amountUsd: 1000, hasFx: true };
  async function issue(body: object) {
    const { status, body: quote } = await call('POST', '/stability/quote', body);
    expect(status).toBe(200);
    return quote as { quoteId: string; fees: { total: { usd: number } } };
  }

  it('a quote issued with the defaults is valid for its terms and gives the quoted fee', async () => {
    const quote = await issue(terms);
    const { status, body } = await call('POST', '/stability/quote/verify', { quoteId: quote.quoteId, ...terms });
    expect(status).toBe(200);
    expect(body).toEqual({
      quoteId: quote.quoteId,
      valid: true,
      reason: 'valid',
      terms: { ...terms, esgScore: feeParameters.defaultEsgScore, monthlyVolumeUsd: 0 },
      termsSource: expect.stringMatching(/^(ledger|defaults)$/),
      totalFeeUsd: quote.fees.total.usd,
      issuedAt: TEST_NOW,
      expiresAt: new Date(Date.parse(TEST_NOW) + feeParameters.quoteValiditySeconds * 1000).toISOString(),
    });
    expect(body.totalFeeUsd).toBe(computeFees(body.terms, feeParameters).total.usd);
  });

  it('a quote issued for an ESG score verifies with the score given', async () => {
    const quote = await issue({ ...terms, esgScore: 80, monthlyVolumeUsd: 2_000_000 });
    const { body } = await call('POST', '/stability/quote/verify', { quoteId: quote.quoteId, ...terms, esgScore: 80, monthlyVolumeUsd: 2_000_000 });
    expect(body).toMatchObject({ valid: true, termsSource: 'request', totalFeeUsd: quote.fees.total.usd });
  });

  it('expired at the end of its validity, not before', async () => {
    const quote = await issue(terms);
    server.clock.advance(feeParameters.quoteValiditySeconds * 1000 - 1);
    expect((await call('POST', '/stability/quote/verify', { quoteId: quote.quoteId, ...terms })).body).toMatchObject({ valid: true });
    server.clock.advance(1);
    expect((await call('POST', '/stability/quote/verify', { quoteId: quote.quoteId, ...terms })).body).toMatchObject({ valid: false, reason: 'expired', totalFeeUsd: null });
  });

  it('other terms, a forged signature and a malformed id are not valid', async () => {
    const quote = await issue(terms);
    expect((await call('POST', '/stability/quote/verify', { quoteId: quote.quoteId, amountUsd: 1000.01, hasFx: true })).body).toMatchObject({ valid: false, reason: 'signature-mismatch' });
    expect((await call('POST', '/stability/quote/verify', { quoteId: quote.quoteId, amountUsd: 1000, hasFx: false })).body).toMatchObject({ valid: false, reason: 'signature-mismatch' });
    const last = quote.quoteId.at(-1) === '0' ? '1' : '0';
    const forged = quote.quoteId.slice(0, -1) + last;
    expect((await call('POST', '/stability/quote/verify', { quoteId: forged, ...terms })).body).toMatchObject({ valid: false, reason: 'signature-mismatch' });
    expect((await call('POST', '/stability/quote/verify', { quoteId: 'srq-nope', ...terms })).body).toMatchObject({ valid: false, reason: 'malformed', totalFeeUsd: null });
  });

  it('bad bodies are 400', async () => {
    for (const payload of [
      '{"quoteId": 5, "amountUsd": 1000, "hasFx": true}',
      '{"amountUsd": 1000, "hasFx": true}',
      '{"quoteId": "srq-1-ab", "amountUsd": 1000}',
      `{"quoteId": "${'a'.repeat(201)}", "amountUsd": 1000, "hasFx": true}`,
      '{"quoteId": "srq-1-ab", "amountUsd": 1000, "hasFx": true, "__proto__": {"x": 1}}',
      '{"quoteId": "srq-1-ab", "amountUsd": -1, "hasFx": true}',
      'not json',
    ]) {
      const { status } = await call('POST', '/stability/quote/verify', payload);
      expect(status, payload.slice(0, 40)).toBe(400);
    }
  });
});

describe("the same in the fees subgraph's graph", () => {
  const ask = (query: string, variables: Record<string, unknown>) => graphql(server, query, variables, '/subgraphs/fees/graphql');

  it('usdFxRate equals GET /stability/fx/:currency; unknown and malformed codes are their errors', async () => {
    const rest = await call('GET', '/stability/fx/GBP');
    const fields = Object.keys(rest.body).join(' ');
    expect(await ask(`query ($c: String!) { usdFxRate(currency: $c) { ${fields} } }`, { c: 'GBP' })).toEqual({ data: { usdFxRate: rest.body } });
    for (const [currency, code] of [
      ['XAU', 'FEE_ERR_FX_RATE_NOT_FOUND'],
      ['gbp', 'FEE_ERR_INVALID_CURRENCY'],
    ]) {
      const result = await ask('query ($c: String!) { usdFxRate(currency: $c) { rate } }', { c: currency });
      expect(result.data).toEqual({ usdFxRate: null });
      expect(result.errors![0]!.extensions).toMatchObject({ code });
    }
  });

  it('quoteVerification equals POST /stability/quote/verify; explicit nulls are omitted terms', async () => {
    const { body: quote } = await call('POST', '/stability/quote', { amountUsd: 2500, hasFx: false });
    // monthlyVolumeUsd given: the terms are the request's (not the ledger's, whose write trails), esgScore's null the default.
    const input = { quoteId: quote.quoteId, amountUsd: 2500, hasFx: false, monthlyVolumeUsd: 0 };
    const rest = await call('POST', '/stability/quote/verify', input);
    const result = await ask(
      'query ($input: QuoteVerificationInput!) { quoteVerification(input: $input) { quoteId valid reason termsSource totalFeeUsd issuedAt expiresAt terms { amountUsd hasFx esgScore monthlyVolumeUsd } } }',
      { input: { ...input, esgScore: null } },
    );
    expect(result).toEqual({ data: { quoteVerification: rest.body } });
    expect(rest.body).toMatchObject({ valid: true, termsSource: 'request', terms: { esgScore: 50 } });
  });
});

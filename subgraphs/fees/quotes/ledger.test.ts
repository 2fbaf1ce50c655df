import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { feeQuotes } from '../../../drizzle/schema.js';
import { ManualClock } from '../../../platform/clock.js';
import { createHmacSigner } from '../../../platform/signing.js';
import { openTestPglite, startTestServer, TEST_NOW, TEST_SIGNING_KEY } from '../../../test/helpers.js';
import { createFeesService } from './service.js';

/** Issued quotes reach the ledger through a write-behind queue (decision 0001). */
describe('the issued-quote ledger', () => {
  const issue = async (server: Awaited<ReturnType<typeof startTestServer>>, amountUsd: number) =>
    (await server.app.inject({ method: 'GET', url: `/stability/quote?amountUsd=${amountUsd}` })).json<{ quoteId: string }>().quoteId;

  it('writes every queued quote when the server shuts down, before the database closes', async () => {
    const database = await openTestPglite();
    try {
      // A flush window longer than the test: only the shutdown can write these.
      const server = await startTestServer({ database, subgraphs: ['fees'], gateway: false, environment: { WRITE_BEHIND_FLUSH_MS: '3600000' } });
      const quoteIds = await Promise.all(Array.from({ length: 20 }, (_, index) => issue(server, 100 + index)));
      const before = await database.db.select({ quoteId: feeQuotes.quoteId }).from(feeQuotes).where(inArray(feeQuotes.quoteId, quoteIds));
      expect(before).toEqual([]);
      await server.close();
      const after = await database.db.select({ quoteId: feeQuotes.quoteId }).from(feeQuotes).where(inArray(feeQuotes.quoteId, quoteIds));
      expect(after.map((row) => row.quoteId).sort()).toEqual([...quoteIds].sort());
    } finally {
      await database.close();
    }
  });

  it('answers quotes while its queue is full, and counts each quote it could not keep in write_behind_dropped_total', async () => {
    const server = await startTestServer({
      subgraphs: ['fees'],
      gateway: false,
      environment: { WRITE_BEHIND_FLUSH_MS: '3600000', WRITE_BEHIND_MAX_QUEUED: '2' },
    });
    try {
      const statuses = await Promise.all([1, 2, 3, 4, 5].map(async (amountUsd) => (await server.app.inject({ method: 'GET', url: `/stability/quote?amountUsd=${amountUsd}` })).statusCode));
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const metrics = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/^write_behind_dropped_total\{queue="fee_quotes"\} 3$/m);
      expect(metrics).toMatch(/^write_behind_pending\{queue="fee_quotes"\} 2$/m);
    } finally {
      await server.close();
    }
  });
});

describe('quote ids verified without the ledger (as a settlement does)', () => {
  const clock = new ManualClock(TEST_NOW);
  const contracts = { token: null, esgOracle: null, redistribution: null, stabilityPID: null, basketPeg: null };
  const service = createFeesService({ clock, signer: createHmacSigner(TEST_SIGNING_KEY), store: { findQuotes: async () => new Map() }, ledger: { record: () => {} }, contracts });

  it('accepts an id for the terms it was issued for, and refuses it tampered or for other terms', () => {
    const terms = { amountUsd: 2500, hasFx: true, esgScore: 80 };
    const { quoteId } = service.issueQuote(terms);
    expect(service.verifyQuoteId(quoteId, terms)).toMatchObject({ valid: true, expired: false });
    const lastDigit = quoteId.at(-1) === '0' ? '1' : '0';
    expect(service.verifyQuoteId(`${quoteId.slice(0, -1)}${lastDigit}`, terms)).toEqual({ valid: false, reason: 'signature-mismatch' });
    expect(service.verifyQuoteId(quoteId, { ...terms, amountUsd: 2501 })).toEqual({ valid: false, reason: 'signature-mismatch' });
    expect(service.verifyQuoteId('srq-1-zz', terms)).toEqual({ valid: false, reason: 'malformed' });
  });

  it('says when a genuine id has expired', () => {
    const terms = { amountUsd: 10 };
    const { quoteId, oracleContext } = service.issueQuote(terms);
    clock.set(oracleContext.expiresAt);
    expect(service.verifyQuoteId(quoteId, terms)).toMatchObject({ valid: true, expired: true });
  });
});

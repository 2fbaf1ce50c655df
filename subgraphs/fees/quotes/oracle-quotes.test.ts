import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { createHmacSigner } from '../../../platform/signing.js';
import { TEST_NOW, TEST_SIGNING_KEY } from '../../../test/helpers.js';
import type { OracleReadings } from '../domain/index.js';
import { createFeesService } from './service.js';

const contracts = { token: null, esgOracle: null, redistribution: null, stabilityPID: null, basketPeg: null };
const readings: OracleReadings = {
  stability: { score: 88.4, status: 'caution', pegDeviationBps: 12.5, pegAlert: false, confidence: 81, runAt: '2026-11-22T11:55:00.000Z' },
  esg: { environmental: 61.2, social: 70.4, governance: 75.1, average: 68.9, runAt: '2026-11-22T11:55:00.000Z' },
};

function service(oracleReadings?: () => OracleReadings) {
  return createFeesService({
    clock: new ManualClock(TEST_NOW),
    signer: createHmacSigner(TEST_SIGNING_KEY),
    store: { findQuotes: async () => new Map() },
    ledger: { record: () => {} },
    contracts,
    ...(oracleReadings ? { oracleReadings } : {}),
  });
}

describe("quotes and the oracles' latest runs (decision 0036)", () => {
  it("an omitted esgScore is the ESG oracle's scores.average, and the quote says so", () => {
    const quote = service(() => readings).issueQuote({ amountUsd: 10_000 });
    expect(quote.input).toMatchObject({ esgScore: 68.9, esgScoreSource: 'oracle' });
    // (100 - 68.9) / 2 = 15.55 bps of 10,000 USD.
    expect(quote.fees.esg).toMatchObject({ bps: 15.55, usd: 15.55, score: 68.9 });
    expect(quote.oracleContext).toMatchObject({ esgScoreSource: 'oracle', stability: readings.stability });
    expect(quote.esgImpact.railScores).toEqual(readings.esg);
  });

  it("a given esgScore wins over the oracle's", () => {
    expect(service(() => readings).issueQuote({ amountUsd: 100, esgScore: 90 }).input).toMatchObject({ esgScore: 90, esgScoreSource: 'request' });
  });

  it('before any oracle run the default 50 stays, named schema-default, and the readings are null', () => {
    const quote = service().issueQuote({ amountUsd: 100 });
    expect(quote.input).toMatchObject({ esgScore: 50, esgScoreSource: 'schema-default' });
    expect(quote.oracleContext.stability).toBeNull();
    expect(quote.esgImpact.railScores).toBeNull();
  });

  it('the ESG quote takes the same default', () => {
    expect(service(() => readings).esgQuote({ amountUsd: 1000 }).input).toEqual({ amountUsd: 1000, esgScore: 68.9, esgScoreSource: 'oracle' });
    expect(service().esgQuote({ amountUsd: 1000 }).input).toEqual({ amountUsd: 1000, esgScore: 50, esgScoreSource: 'schema-default' });
  });

  it("a quote issued on the oracle's score verifies before the ledger holds it", async () => {
    const fees = service(() => readings);
    const { quoteId } = fees.issueQuote({ amountUsd: 2000, hasFx: true });
    const verification = await fees.verifyQuoteForTerms({ quoteId, amountUsd: 2000, hasFx: true });
    expect(verification).toMatchObject({ valid: true, termsSource: 'oracle', terms: { esgScore: 68.9 } });
    // One issued on the default still verifies while the oracle has a score.
    const { quoteId: early } = service().issueQuote({ amountUsd: 2000, hasFx: true });
    expect(await fees.verifyQuoteForTerms({ quoteId: early, amountUsd: 2000, hasFx: true })).toMatchObject({ valid: true, termsSource: 'defaults' });
  });

  it('verify-fees keeps its documented default of 50', async () => {
    const verification = await service(() => readings).verifyFees({ amountUsd: 1000 });
    // 85 + 0 + 25 + 1 = 111 bps.
    expect(verification.offChain).toMatchObject({ totalBps: 111 });
  });
});

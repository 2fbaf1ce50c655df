import DataLoader from 'dataloader';
import { inArray } from 'drizzle-orm';
import { feeQuotes } from '../../drizzle/schema.js';
import type { Database } from '../../platform/db.js';
import { InfrastructureError } from '../../platform/errors.js';
import type { Quote } from './domain/index.js';

function toRow(quote: Quote): typeof feeQuotes.$inferInsert {
  return {
    quoteId: quote.quoteId,
    issuedAt: new Date(quote.oracleContext.issuedAt),
    expiresAt: new Date(quote.oracleContext.expiresAt),
    amountUsd: String(quote.input.amountUsd),
    hasFx: quote.input.hasFx,
    esgScore: String(quote.input.esgScore),
    monthlyVolumeUsd: String(quote.input.monthlyVolumeUsd),
    volumeTier: quote.volumeTier,
    totalBps: String(quote.fees.total.bps),
    totalUsd: String(quote.fees.total.usd),
    netUsd: String(quote.settlement.netUsd),
    body: quote,
  };
}

export interface FeeStore {
  /** Resolves once the quote is committed; concurrent calls share one multi-row INSERT. */
  recordQuote(quote: Quote): Promise<void>;
  findQuotes(quoteIds: readonly string[]): Promise<Map<string, Quote>>;
}

/**
 * Quotes are written with group commit: while one INSERT is in flight, the quotes issued meanwhile
 * gather into the next one, which is sent as soon as the first commits. Each caller's response
 * waits for its own commit, so nothing is answered before it is stored, and a burst of N quotes
 * costs a few round trips instead of N. An idle store writes at once (no timer, no added delay).
 */
export function createFeeStore(db: Database): FeeStore {
  let previousWrite: Promise<unknown> = Promise.resolve();
  const writer = new DataLoader<Quote, void>(
    async (quotes) => {
      const write = db.insert(feeQuotes).values(quotes.map(toRow)).onConflictDoNothing({ target: feeQuotes.quoteId });
      previousWrite = write.then(
        () => undefined,
        () => undefined,
      );
      try {
        await write;
      } catch (error) {
        throw new InfrastructureError(`insert into fee_quotes (${quotes.length} rows)`, error);
      }
      return quotes.map(() => undefined);
    },
    {
      cache: false,
      maxBatchSize: 500,
      batchScheduleFn: (dispatch) => {
        void previousWrite.then(() => setImmediate(dispatch));
      },
    },
  );
  return {
    recordQuote: (quote) => writer.load(quote),
    async findQuotes(quoteIds) {
      if (quoteIds.length === 0) return new Map();
      try {
        const rows = await db.select({ quoteId: feeQuotes.quoteId, body: feeQuotes.body }).from(feeQuotes).where(inArray(feeQuotes.quoteId, [...quoteIds]));
        return new Map(rows.map((row) => [row.quoteId, row.body as Quote]));
      } catch (error) {
        throw new InfrastructureError(`select from fee_quotes (${quoteIds.length} ids)`, error);
      }
    },
  };
}

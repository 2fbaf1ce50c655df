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
 * Quotes are written with group commit: every quote issued in the same tick joins one INSERT,
 * and each caller's response waits for that commit. Nothing is answered before it is stored,
 * and a burst of quotes costs one round trip instead of one each.
 */
export function createFeeStore(db: Database): FeeStore {
  const writer = new DataLoader<Quote, void>(
    async (quotes) => {
      try {
        await db.insert(feeQuotes).values(quotes.map(toRow)).onConflictDoNothing({ target: feeQuotes.quoteId });
      } catch (error) {
        throw new InfrastructureError(`insert into fee_quotes (${quotes.length} rows)`, error);
      }
      return quotes.map(() => undefined);
    },
    { cache: false, maxBatchSize: 500 },
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

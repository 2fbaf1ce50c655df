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

export interface FeeStoreOptions {
  /** Longest any store call waits; after it the call rejects with InfrastructureError. Default 5000 ms. */
  timeoutMs?: number;
  /**
   * Told after every quote write whether it committed, with the InfrastructureError when not
   * (never the driver's error: that one's message holds the SQL and its parameters). The platform
   * feeds it to Health.reportOutcome, so /health says "writes failing" while they do.
   */
  onWriteOutcome?(ok: boolean, error?: unknown): void;
}

export const DEFAULT_STORE_TIMEOUT_MS = 5000;

/**
 * Settles like `work`, or rejects with an InfrastructureError naming `operation` once `timeoutMs`
 * has passed. Every failure is wrapped: the message names the operation only, the driver's error
 * (with its SQL text and parameters) is kept as `cause` for the log, which withholds that text.
 */
function boundedCall<T>(work: Promise<T>, timeoutMs: number, operation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new InfrastructureError(`${operation} (no answer within ${timeoutMs} ms)`, new Error(`timed out after ${timeoutMs} ms`))),
      timeoutMs,
    );
  });
  const wrapped = work.catch((error: unknown) => {
    throw error instanceof InfrastructureError ? error : new InfrastructureError(operation, error);
  });
  return Promise.race([wrapped, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Quotes are written with group commit: while one INSERT is in flight, the quotes issued meanwhile
 * gather into the next one, which is sent as soon as the first settles. Each caller's response
 * waits for its own commit, so nothing is answered before it is stored, and a burst of N quotes
 * costs a few round trips instead of N. An idle store writes at once (no timer, no added delay).
 *
 * 1. The INSERT is executed exactly once (`execute()`, one promise kept): a drizzle query builder
 *    is a thenable that runs its query again on every `then`, so awaiting the builder twice
 *    would send the INSERT twice.
 * 2. Every wait is bounded by `timeoutMs`: a write that never answers fails its callers after the
 *    timeout, and the next batch waits for it no longer than that, so one stuck write cannot
 *    hold up every later request.
 */
export function createFeeStore(db: Database, options: FeeStoreOptions = {}): FeeStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const reportWrite = (ok: boolean, error?: unknown) => {
    try {
      options.onWriteOutcome?.(ok, error);
    } catch {
      // A failing observer must not fail the write it observes.
    }
  };
  /** Settles (never rejects) when the write in flight has committed, failed or timed out. */
  let previousWrite: Promise<void> = Promise.resolve();
  const writer = new DataLoader<Quote, void>(
    async (quotes) => {
      const operation = `insert into fee_quotes (${quotes.length} rows)`;
      const insert = db.insert(feeQuotes).values(quotes.map(toRow)).onConflictDoNothing({ target: feeQuotes.quoteId }).execute();
      const write = boundedCall(insert, timeoutMs, operation);
      previousWrite = write.then(
        () => undefined,
        () => undefined,
      );
      try {
        await write;
      } catch (error) {
        reportWrite(false, error);
        throw error;
      }
      reportWrite(true);
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
    recordQuote: (quote) => boundedCall(writer.load(quote), timeoutMs, 'insert into fee_quotes'),
    async findQuotes(quoteIds) {
      if (quoteIds.length === 0) return new Map();
      const select = db
        .select({ quoteId: feeQuotes.quoteId, body: feeQuotes.body })
        .from(feeQuotes)
        .where(inArray(feeQuotes.quoteId, [...quoteIds]))
        .execute();
      const rows = await boundedCall(select, timeoutMs, `select from fee_quotes (${quoteIds.length} ids)`);
      return new Map(rows.map((row) => [row.quoteId, row.body as Quote]));
    },
  };
}

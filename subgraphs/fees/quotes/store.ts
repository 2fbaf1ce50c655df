import { inArray, sql } from 'drizzle-orm';
import { feeQuotes } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { Quote } from './domain/index.js';

/**
 * One INSERT whose only parameter is the batch as a JSON array: the columns are read from each
 * quote's body by the database. A batch of hundreds of quotes is then one short statement with one
 * parameter, instead of twelve bound parameters a row for the driver to build and encode.
 */
function insertQuotesStatement(quotes: readonly Quote[]) {
  const { quoteId, issuedAt, expiresAt, amountUsd, hasFx, esgScore, monthlyVolumeUsd, volumeTier, totalBps, totalUsd, netUsd, body } = feeQuotes;
  const columns = [quoteId, issuedAt, expiresAt, amountUsd, hasFx, esgScore, monthlyVolumeUsd, volumeTier, totalBps, totalUsd, netUsd, body];
  return sql`insert into ${feeQuotes} (${sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  )})
  select q->>'quoteId', (q->'oracleContext'->>'issuedAt')::timestamptz, (q->'oracleContext'->>'expiresAt')::timestamptz,
    (q->'input'->>'amountUsd')::numeric, (q->'input'->>'hasFx')::boolean, (q->'input'->>'esgScore')::numeric,
    (q->'input'->>'monthlyVolumeUsd')::numeric, q->>'volumeTier', (q->'fees'->'total'->>'bps')::numeric,
    (q->'fees'->'total'->>'usd')::numeric, (q->'settlement'->>'netUsd')::numeric, q
  from jsonb_array_elements(${JSON.stringify(quotes)}::jsonb) as q
  on conflict (${sql.identifier(quoteId.name)}) do nothing`;
}

/** A row of fee_quotes: the issued quote's figures as columns, and its body as returned to the caller. */
type FeeQuoteRow = typeof feeQuotes.$inferSelect;

/** The quote a row holds: its body, written from a Quote by insertQuotes. */
const quoteOf = (row: Pick<FeeQuoteRow, 'body'>): Quote => row.body as Quote;

export interface FeeStore {
  /** One multi-row INSERT of issued quotes (ids already on file are skipped); bounded by the timeout. */
  insertQuotes(quotes: readonly Quote[]): Promise<void>;
  findQuotes(quoteIds: readonly string[]): Promise<Map<string, Quote>>;
}

export interface FeeStoreOptions {
  /** Longest any store call waits; after it the call rejects with InfrastructureError. Default 5000 ms. */
  timeoutMs?: number;
}

export const DEFAULT_STORE_TIMEOUT_MS = 5000;

/**
 * The quote ledger's table. Issued quotes reach it through a write-behind queue (fees/index.ts,
 * platform/write-behind.ts), never on a request's path; see decision 0001 for what that risks.
 * Every call is bounded by `timeoutMs`, so a stuck database fails a batch instead of holding it.
 */
export function createFeeStore(db: Database, options: FeeStoreOptions = {}): FeeStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  return {
    async insertQuotes(quotes) {
      if (quotes.length === 0) return;
      await boundedCall(db.execute(insertQuotesStatement(quotes)), timeoutMs, `insert into fee_quotes (${quotes.length} rows)`);
    },
    async findQuotes(quoteIds) {
      if (quoteIds.length === 0) return new Map();
      const select = db
        .select({ quoteId: feeQuotes.quoteId, body: feeQuotes.body })
        .from(feeQuotes)
        .where(inArray(feeQuotes.quoteId, [...quoteIds]))
        .execute();
      const rows = await boundedCall(select, timeoutMs, `select from fee_quotes (${quoteIds.length} ids)`);
      return new Map(rows.map((row) => [row.quoteId, quoteOf(row)]));
    },
  };
}

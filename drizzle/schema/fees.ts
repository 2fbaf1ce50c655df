// The fees subgraph's tables: issued quotes and the oracle runs (subgraphs/fees).
import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, json, jsonb, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------------------------------------
// fees subgraph
// ---------------------------------------------------------------------------------------------

/** Every quote the stability oracle issued: the audit trail behind a quoteId seen on-chain. */
export const feeQuotes = pgTable(
  'fee_quotes',
  {
    quoteId: text('quote_id').primaryKey(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    amountUsd: numeric('amount_usd', { precision: 20, scale: 6 }).notNull(),
    hasFx: boolean('has_fx').notNull(),
    esgScore: numeric('esg_score').notNull(),
    monthlyVolumeUsd: numeric('monthly_volume_usd').notNull(),
    volumeTier: text('volume_tier').notNull(),
    totalBps: numeric('total_bps').notNull(),
    totalUsd: numeric('total_usd', { precision: 20, scale: 6 }).notNull(),
    netUsd: numeric('net_usd', { precision: 20, scale: 6 }).notNull(),
    /** The quote exactly as it was returned to the caller. */
    body: jsonb('body').notNull(),
  },
  (table) => [index('fee_quotes_issued_at_idx').on(table.issuedAt)],
);

/**
 * One row per scheduled run of an oracle (stability, esg): the (oracle, slot) key is the lease, so
 * of several replicas sharing the database one alone claims an interval (decision 0035). A run is
 * RUNNING until it ends SUCCESS (with its output) or FAILED (with its error); a failed run never
 * replaces the last good one, readers pick the latest SUCCESS.
 */
export const oracleRuns = pgTable(
  'oracle_runs',
  {
    oracle: text('oracle').notNull(),
    /** Start of the interval the run belongs to: now floored to updateFrequencySeconds. */
    slot: timestamp('slot', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status').notNull(),
    /** hostname:pid of the process that claimed the slot. */
    runner: text('runner').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /** stability: stabilityScore; esg: scores.average. */
    score: doublePrecision('score'),
    /** stability: the band (stable, caution, unstable); esg: the fee tier. */
    overall: text('overall'),
    // json, not jsonb: the output is served as recorded, its key order kept (jsonb reorders keys).
    output: json('output'),
    error: text('error'),
  },
  (table) => [
    primaryKey({ columns: [table.oracle, table.slot] }),
    index('oracle_runs_latest_success_idx').on(table.oracle, table.slot).where(sql`status = 'SUCCESS'`),
    check('oracle_runs_status_check', sql`${table.status} in ('RUNNING', 'SUCCESS', 'FAILED')`),
  ],
);

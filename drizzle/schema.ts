import { boolean, index, jsonb, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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

// ---------------------------------------------------------------------------------------------
// platform/access: x402 payments
// ---------------------------------------------------------------------------------------------

/**
 * Every x402 payment authorization the rail accepted, claimed before it is settled: the primary key
 * (payer, nonce) makes a second use of one authorization fail, also when two requests carrying it
 * arrive at once on two processes. `transaction` is set once the transfer is on chain.
 */
export const x402Payments = pgTable(
  'x402_payments',
  {
    payer: text('payer').notNull(),
    nonce: text('nonce').notNull(),
    resource: text('resource').notNull(),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull(),
    transaction: text('transaction'),
  },
  (table) => [primaryKey({ columns: [table.payer, table.nonce] })],
);

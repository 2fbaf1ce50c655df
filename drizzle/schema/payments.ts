// The payments subgraph's tables (subgraphs/payments): payments, their uses of mandates and quotes,
// the agents' held settlements and funds, the callback outbox.
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { SETTLEMENT_AGENT_INSTITUTION } from './platform.js';

// ---------------------------------------------------------------------------------------------
// payments: payments and their idempotency (spec §2-§4; decision 0025)
// ---------------------------------------------------------------------------------------------

/**
 * One row per payment, claimed before anything is sent: tmsReference is unique within the
 * institution that owns the payment (decision 0050), so of two
 * identical requests arriving at once (one process or several) exactly one inserts and runs the
 * payment; the other reads the row. `requestSha256` is the SHA-256 of the request's RFC 8785
 * canonical JSON: the same tmsReference with another body is refused (409). `result` is the
 * PaymentResult as answered (PENDING while in progress); status, settledAt and txHash repeat its
 * fields for queries.
 */
export const payments = pgTable(
  'payments',
  {
    railPaymentId: text('rail_payment_id').primaryKey(),
    /**
     * The institution that owns the payment (decision 0050). A row written without one is the
     * settlement agent's (only its own code writes rows that way); the store always names it.
     */
    institutionId: text('institution_id')
      .notNull()
      .$default(() => SETTLEMENT_AGENT_INSTITUTION),
    /** The caller's reference, unique within its institution (payments_tms_reference_institution; its first column also serves the admin's lookups by reference alone). */
    tmsReference: text('tms_reference').notNull(),
    requestSha256: text('request_sha256').notNull(),
    request: jsonb('request').notNull(),
    status: text('status').$type<'SETTLED' | 'PENDING' | 'BLOCKED' | 'FAILED'>().notNull(),
    result: jsonb('result').notNull(),
    /** The fee quote the payment settled under (srq-...), issued for it or given with it (issue 10 item 9). */
    quoteId: text('quote_id'),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    txHash: text('tx_hash'),
    /** The settlement agent (X-Agent-Id) that asked for it (POST /agent/settle), null for other payments. */
    agentId: text('agent_id'),
    /**
     * USD value of a settlement agent's settlement as it was checked: summed for the agent's daily
     * cap, and for the funds it spends (its owner's, or the AP2 issuer's: decision 0049).
     */
    agentAmountUsd: numeric('agent_amount_usd', { precision: 38, scale: 18 }),
    /**
     * Whose funds paid a settlement under an AP2 mandate alone (no X-Agent-Id): the mandate's
     * trusted issuer (its `iss`, decision 0049 §9). Null for other payments (an agent's settlement
     * is paid by its owner: agent_id names it).
     */
    fundingIssuer: text('funding_issuer'),
    /**
     * What the payment had reached when its settlement was about to be sent (quote, VoP, AML, rate),
     * written just before the send: a payment left PENDING by a process that stopped is recovered
     * from it and the chain (decision 0039). Null until then.
     */
    settling: jsonb('settling'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    check('payments_status', sql`${table.status} in ('SETTLED', 'PENDING', 'BLOCKED', 'FAILED')`),
    // The idempotency key: a tmsReference names one payment of its institution (decision 0050).
    uniqueIndex('payments_tms_reference_institution').on(table.tmsReference, table.institutionId),
    // The payments in progress, oldest first, for the recovery of those a stopped process left.
    index('payments_pending').on(table.updatedAt).where(sql`${table.status} = 'PENDING'`),
    index('payments_agent_day').on(table.agentId, table.submittedAt).where(sql`${table.agentId} is not null`),
    index('payments_funding_issuer').on(table.fundingIssuer).where(sql`${table.fundingIssuer} is not null`),
    // An institution's newest payments (Query.institutionPayments, decision 0083), a page without a scan.
    index('payments_institution_recent').on(table.institutionId, table.submittedAt, table.railPaymentId),
    // A wallet's and a legal entity's payments in the graph (Wallet.payments, LegalEntity.payments), by either party.
    index('payments_creditor_wallet').on(sql`lower(${table.request} -> 'creditor' ->> 'walletAddress')`, table.submittedAt),
    index('payments_debtor_wallet').on(sql`lower(${table.request} -> 'debtor' ->> 'walletAddress')`, table.submittedAt),
    index('payments_creditor_lei').on(sql`(${table.request} -> 'creditor' ->> 'lei')`, table.submittedAt),
    index('payments_debtor_lei').on(sql`(${table.request} -> 'debtor' ->> 'lei')`, table.submittedAt),
  ],
);

/**
 * AP2 payment mandates used by POST /agent/settle (decision 0023 §12): `reference` is the base64url
 * SHA-256 of the mandate as presented; the primary key lets a mandate settle once, on any replica.
 */
export const ap2MandateUses = pgTable('ap2_mandate_uses', {
  reference: text('reference').primaryKey(),
  issuer: text('issuer').notNull(),
  /**
   * What the mandate was used for: the railPaymentId of its settlement (one whose claim found the
   * agent's daily cap taken never became a payment: its settlement was held instead), or the holdId
   * (hld_...) of a settlement the agent's mandate held (decision 0047).
   */
  railPaymentId: text('rail_payment_id').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Fee quotes given with a payment (quoteId, issue 10 item 9), each used by one payment: the primary
 * key refuses a second payment under a quote at its claim, on any replica (decision 0046).
 */
export const paymentQuoteUses = pgTable('payment_quote_uses', {
  quoteId: text('quote_id').primaryKey(),
  railPaymentId: text('rail_payment_id').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Settlements of POST /agent/settle held by the agent's mandate (decision 0047): kept for an operator
 * to release (the settlement is then sent as payment `rail_payment_id`, tmsReference AGT-HLD-<hold_id>)
 * or dismiss. `rail_payment_id` is set when a release starts, before anything is sent (the id it
 * proposes): from then on the hold can no longer be dismissed. At RELEASED it is the payment's id.
 */
export const agentHeldSettlements = pgTable(
  'agent_held_settlements',
  {
    holdId: text('hold_id').primaryKey(),
    agentId: text('agent_id').notNull(),
    /** The settlement request as given: amount (decimal text), sourceCurrency, destinationCurrency, recipientAddress. */
    amount: text('amount').notNull(),
    sourceCurrency: text('source_currency').notNull(),
    destinationCurrency: text('destination_currency').notNull(),
    recipientAddress: text('recipient_address').notNull(),
    /** Its USD value as the mandate was checked. */
    amountUsd: numeric('amount_usd', { precision: 38, scale: 18 }).notNull(),
    /** Every violated rule, [{rule, message}]. */
    violations: jsonb('violations').notNull(),
    status: text('status').$type<'HELD' | 'RELEASED' | 'DISMISSED'>().notNull(),
    railPaymentId: text('rail_payment_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    check('agent_held_settlements_status', sql`${table.status} in ('HELD', 'RELEASED', 'DISMISSED')`),
    index('agent_held_settlements_agent').on(table.agentId, table.createdAt),
  ],
);

/**
 * Wallets bound to an agent by its owner (decision 0049), each proven by the wallet's own signature:
 * the token transfers from such a wallet to the rail's treasury are the agent's deposits. A wallet
 * funds one agent.
 */
export const agentFundingWallets = pgTable(
  'agent_funding_wallets',
  {
    /** Lower-case 0x address. */
    walletAddress: text('wallet_address').primaryKey(),
    agentId: text('agent_id').notNull(),
    boundAt: timestamp('bound_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('agent_funding_wallets_agent').on(table.agentId)],
);

/**
 * Deposits credited to an agent's funds, or to a trusted AP2 issuer's (decision 0049 §2, §9): one
 * Transfer log of the rail's token to its treasury from a bound (agent) or configured (issuer)
 * wallet, verified on the rail's chain; the (tx_hash, log_index) key credits a transfer once, to
 * one funder, on any replica. Exactly one of agent_id and issuer names the funder.
 */
export const agentDeposits = pgTable(
  'agent_deposits',
  {
    /** Lower-case 0x transaction hash. */
    txHash: text('tx_hash').notNull(),
    /** The transfer's position in its transaction receipt's logs (stable across a reorg), not the log's position in the block. */
    logIndex: integer('log_index').notNull(),
    agentId: text('agent_id'),
    /** The trusted AP2 issuer (AP2_TRUSTED_ISSUERS) whose funding wallet made the transfer. */
    issuer: text('issuer'),
    fromWallet: text('from_wallet').notNull(),
    /** USDC (1 token unit = 1 USD), decimal with the token's 6 decimals. */
    amountUsd: numeric('amount_usd', { precision: 38, scale: 6 }).notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    creditedAt: timestamp('credited_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.txHash, table.logIndex] }),
    index('agent_deposits_agent').on(table.agentId),
    index('agent_deposits_issuer').on(table.issuer).where(sql`${table.issuer} is not null`),
    check('agent_deposits_one_funder', sql`(${table.agentId} is null) <> (${table.issuer} is null)`),
  ],
);

// ---------------------------------------------------------------------------------------------
// payments: callback outbox (spec §6; docs/webhooks.md)
// ---------------------------------------------------------------------------------------------

/**
 * The transactional outbox of payment callbacks: a row is written in the same transaction as the
 * payment's final result, so a committed result always has its callback, and a worker delivers it
 * later (subgraphs/payments/callback-worker.ts). `body` is the exact JSON text sent, so the
 * signature always covers the same bytes. A worker takes a due row with FOR UPDATE SKIP LOCKED and
 * a lease (claimedBy, claimedUntil) and records the attempt only while it still holds the lease.
 * One callback per payment (its single final result): railPaymentId is unique.
 */
export const paymentCallbacks = pgTable(
  'payment_callbacks',
  {
    id: text('id').primaryKey(),
    railPaymentId: text('rail_payment_id').notNull().unique('payment_callbacks_rail_payment_id'),
    url: text('url').notNull(),
    body: text('body').notNull(),
    /** Attempts made so far (0 before the first). */
    attempt: integer('attempt').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    state: text('state').$type<'PENDING' | 'DELIVERED' | 'FAILED'>().notNull().default('PENDING'),
    /** HTTP status of the last answer, null when none came (network error, timeout, refused target). */
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    claimedBy: text('claimed_by'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('payment_callbacks_due').on(table.nextAttemptAt).where(sql`${table.state} = 'PENDING'`),
    check('payment_callbacks_attempt_range', sql`${table.attempt} >= 0 and ${table.attempt} <= 4`),
    check('payment_callbacks_state', sql`${table.state} in ('PENDING', 'DELIVERED', 'FAILED')`),
  ],
);

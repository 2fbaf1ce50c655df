// The platform's own tables (platform/access, platform/chain, platform/idempotency.ts): x402 payments,
// the settling accounts' nonces, institutions, API keys, rate-limit windows, idempotency keys.
import { sql } from 'drizzle-orm';
import { bigint, check, integer, json, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
    /** CLAIMED (verified, work running), SETTLING (transfer under way), SETTLED, or FAILED (kept: the authorization is spent for us). */
    state: text('state').$type<'CLAIMED' | 'SETTLING' | 'SETTLED' | 'FAILED'>().notNull().default('CLAIMED'),
    transaction: text('transaction'),
    /**
     * The authorization's validBefore (EIP-3009, Unix seconds): after it the transfer can never be
     * mined, which lets the reconciler fail a SETTLING claim the chain never took (decision 0087).
     * Null on claims made before migration 0028.
     */
    validBefore: numeric('valid_before', { precision: 78, scale: 0 }),
  },
  (table) => [primaryKey({ columns: [table.payer, table.nonce] })],
);

// ---------------------------------------------------------------------------------------------
// platform/chain: the send queue shared by every process on PostgreSQL
// ---------------------------------------------------------------------------------------------

/**
 * The next nonce of each account the rail sends from, per chain (decision 0087): read and written
 * only by the sender holding the account's turn (an advisory lock on chainId and account). Null:
 * the last turn failed or its outcome is unknown, so the next reads the chain (blockTag pending).
 */
export const chainNonces = pgTable(
  'chain_nonces',
  {
    chainId: integer('chain_id').notNull(),
    /** Lower-case 0x address. */
    account: text('account').notNull(),
    nextNonce: bigint('next_nonce', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.chainId, table.account] })],
);

// ---------------------------------------------------------------------------------------------
// platform/access: API keys and their rate-limit windows
// ---------------------------------------------------------------------------------------------

/** The institution owning the settlement agent's own settlements (AGT-, AP2- references; decision 0050). */
export const SETTLEMENT_AGENT_INSTITUTION = 'settlement-agent';
/** The institution migration 0023 gave the bearer keys and payments that existed before tenancy (decision 0050). */
export const LEGACY_INSTITUTION = 'legacy';

/**
 * Institutions (decision 0050): each owns its payments, and its bearer keys (one or more) see and
 * retry only those. `id` is `inst_` and a random token, or one of the two made by migration 0023
 * (SETTLEMENT_AGENT_INSTITUTION, LEGACY_INSTITUTION); `name` is the operator's, for people.
 */
export const institutions = pgTable('institutions', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Keys callers present (X-API-Key, or Authorization: Bearer for institutions). Only the SHA-256 of
 * a key is stored: keys are 256-bit random tokens, so a fast hash is enough and a leaked table
 * reveals no key. A revoked key stays, with the time of its revocation. A bearer key belongs to
 * exactly one institution; an API key (paid routes) to none.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<'api' | 'bearer'>().notNull(),
    keyHash: text('key_hash').notNull().unique(),
    label: text('label').notNull(),
    requestsPerMinute: integer('requests_per_minute').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** institutions.id (checked by createApiKeys: the project keeps no foreign keys). */
    institutionId: text('institution_id'),
  },
  (table) => [check('api_keys_institution', sql`(${table.kind} = 'bearer') = (${table.institutionId} is not null)`)],
);

/** Requests counted per key and per minute, shared by every replica on the database. */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    keyId: text('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    requests: integer('requests').notNull(),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.windowStart] })],
);

/**
 * Idempotency-Key of the agents' money and mandate routes (platform/idempotency.ts, decision 0048):
 * one row per scope (the route and the agent) and key; the first request inserts it RUNNING, its
 * answer is kept (DONE), a retry with the same body reads it, another body is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** Hex SHA-256 of the request's canonical JSON. */
    requestSha256: text('request_sha256').notNull(),
    state: text('state').$type<'RUNNING' | 'DONE'>().notNull(),
    /** The HTTP status and body answered (null while RUNNING). */
    statusCode: integer('status_code'),
    // json, not jsonb: the answer comes back exactly as it was written.
    answer: json('answer'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] }), check('idempotency_keys_state', sql`${table.state} in ('RUNNING', 'DONE')`)],
);

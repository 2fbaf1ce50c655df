// The compliance subgraph's tables (subgraphs/compliance): the wallet registry, know-your-agent,
// ownership chains, ESG and PEP caches, AML screening, streaming sessions.
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------------------------------------
// compliance: the wallet registry, its audit trail, and verification-of-payee checks
// ---------------------------------------------------------------------------------------------

/**
 * Wallets registered to a legal entity. SELF_DECLARED carries a name only; REGISTRY_VERIFIED an
 * LEI found in the LEI registry. A deactivated registration stays, marked inactive.
 */
export const complianceWallets = pgTable('compliance_wallets', {
  walletAddress: text('wallet_address').primaryKey(),
  legalName: text('legal_name').notNull(),
  country: text('country'),
  aliases: jsonb('aliases').$type<string[]>().notNull(),
  lei: text('lei'),
  leiStatus: text('lei_status'),
  registrationType: text('registration_type').$type<'SELF_DECLARED' | 'REGISTRY_VERIFIED'>().notNull(),
  registeredAt: timestamp('registered_at', { withTimezone: true, mode: 'date' }).notNull(),
  active: boolean('active').notNull(),
  deactivatedAt: timestamp('deactivated_at', { withTimezone: true, mode: 'date' }),
}, (table) => [index('compliance_wallets_lei').on(table.lei)]);

/** Every registration, change and deactivation, as it was: kept when the registration is deactivated. */
export const complianceWalletAudit = pgTable(
  'compliance_wallet_audit',
  {
    id: text('id').primaryKey(),
    walletAddress: text('wallet_address').notNull(),
    action: text('action').$type<'REGISTERED' | 'UPDATED' | 'DEACTIVATED'>().notNull(),
    record: jsonb('record').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('compliance_wallet_audit_wallet').on(table.walletAddress, table.at)],
);

/** Verification-of-payee checks, for GET /vop/history/:wallet (the last 50). */
export const vopChecks = pgTable(
  'vop_checks',
  {
    requestId: text('request_id').primaryKey(),
    walletAddress: text('wallet_address').notNull(),
    submittedName: text('submitted_name').notNull(),
    submittedLei: text('submitted_lei'),
    result: text('result').notNull(),
    score: numeric('score', { mode: 'number' }),
    resolvedBy: text('resolved_by').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('vop_checks_wallet_checked').on(table.walletAddress, table.checkedAt)],
);

// ---------------------------------------------------------------------------------------------
// compliance: know-your-agent
// ---------------------------------------------------------------------------------------------

/**
 * AI agents registered for KYA (Document 2 §2 "Agent (KYA)"): the tier derived at registration,
 * the owner evidence it was derived from, and the status. A revoked agent stays, with the time of
 * its revocation. ownerEmail and ownerLei are kept for the operator and answered to nobody.
 */
export const agents = pgTable(
  'agents',
  {
    agentId: text('agent_id').primaryKey(),
    name: text('name').notNull(),
    framework: text('framework'),
    ownerEntity: text('owner_entity'),
    ownerEmail: text('owner_email'),
    ownerLei: text('owner_lei'),
    protocols: jsonb('protocols').$type<string[]>().notNull(),
    /** The agent's own P-256 public key (JWK), published in its DID document; null when service-anchored. */
    publicKey: jsonb('public_key').$type<{ kty: 'EC'; crv: 'P-256'; x: string; y: string }>(),
    discoverable: boolean('discoverable').notNull(),
    kyaLevel: text('kya_level').$type<'ANONYMOUS' | 'REGISTERED' | 'VERIFIED'>().notNull(),
    kyaScore: integer('kya_score').notNull(),
    status: text('status').$type<'ACTIVE' | 'REVOKED'>().notNull(),
    /** USD; null is "no platform cap" (VERIFIED). */
    tierCaps: jsonb('tier_caps').$type<{ maxNotionalUsd: number | null; dailyCapUsd: number | null }>().notNull(),
    leiVerified: boolean('lei_verified').notNull(),
    leiEntityName: text('lei_entity_name'),
    registeredAt: timestamp('registered_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /**
     * Hex SHA-256 of the agent key issued to the owner at registration (shown once; decision 0048):
     * its proof for the mandate, the revocation and settlements. Null for agents registered before.
     */
    agentKeySha256: text('agent_key_sha256'),
  },
  (table) => [
    // GET /agents/directory lists active discoverable agents only, by registration, optionally of one owner.
    index('agents_directory').on(table.registeredAt, table.agentId).where(sql`${table.discoverable} and ${table.status} = 'ACTIVE'`),
    index('agents_directory_owner').on(sql`lower(${table.ownerEntity})`, table.registeredAt, table.agentId).where(sql`${table.discoverable} and ${table.status} = 'ACTIVE'`),
  ],
);

/** An agent's spend mandate (one per agent, created or updated by POST /agent/mandate); caps in USD, null = no cap. */
export const agentMandates = pgTable('agent_mandates', {
  mandateId: text('mandate_id').primaryKey(),
  // No foreign key: a reference would name the schema ("public"), and DATABASE_SCHEMA may be another.
  agentId: text('agent_id').notNull().unique('agent_mandates_agent'),
  maxNotionalUsd: numeric('max_notional_usd', { precision: 20, scale: 2, mode: 'number' }),
  dailyCapUsd: numeric('daily_cap_usd', { precision: 20, scale: 2, mode: 'number' }),
  /** LEIs of the counterparties the agent may pay; empty = any. */
  counterpartyWhitelist: jsonb('counterparty_whitelist').$type<string[]>().notNull(),
  /** `<SRC>|<DST>` pairs the agent may settle; empty = any. */
  currencyPairs: jsonb('currency_pairs').$type<string[]>().notNull(),
  esgFloor: numeric('esg_floor', { precision: 5, scale: 2, mode: 'number' }),
  ap2Compatible: boolean('ap2_compatible').notNull(),
  /** Whether a requested cap was lowered to the tier's limit. */
  clamped: boolean('clamped').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// compliance: ownership chains (POST /compliance/ubo-chain)
// ---------------------------------------------------------------------------------------------

/**
 * Ownership-chain results kept 24 hours (Document 2 §8), one per (lei, deep). `dataVersion` names
 * the LEI and SDN snapshots the result was computed from: a row of other snapshots is stale at once.
 */
export const uboChainCache = pgTable(
  'ubo_chain_cache',
  {
    lei: text('lei').notNull(),
    deep: boolean('deep').notNull(),
    dataVersion: text('data_version').notNull(),
    result: jsonb('result').notNull(),
    cachedAt: timestamp('cached_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.lei, table.deep] })],
);

// ---------------------------------------------------------------------------------------------
// compliance: entity ESG scores and PEP screens (GET /esg/score/:lei, POST /compliance/pep-screen)
// ---------------------------------------------------------------------------------------------

/**
 * Entity ESG scores kept 7 days (Document 2 §8), one per (lei, inputsKey): `inputsKey` is `registry`
 * when the LEI snapshot holds the entity (the caller's name, country and leiStatus are then not
 * used), else the declared inputs. `dataVersion` names the snapshots and parameters the score was
 * computed from: a row of other versions is stale at once.
 */
export const entityEsgScores = pgTable(
  'entity_esg_scores',
  {
    lei: text('lei').notNull(),
    inputsKey: text('inputs_key').notNull(),
    dataVersion: text('data_version').notNull(),
    result: jsonb('result').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.lei, table.inputsKey] })],
);

/** PEP screens kept 6 hours (Document 2 §8), keyed by the normalised (name, country, position). */
export const pepScreenCache = pgTable('pep_screen_cache', {
  screenKey: text('screen_key').primaryKey(),
  dataVersion: text('data_version').notNull(),
  result: jsonb('result').notNull(),
  cachedAt: timestamp('cached_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// compliance: AML screening (POST /aml/screen, GET /aml/profile/:wallet, GET /aml/events/:wallet)
// ---------------------------------------------------------------------------------------------

/**
 * One behavioural profile per wallet (docs/aml-model.md): rolling statistics of the USD amounts of
 * its counted transactions (Welford: count, mean, sum of squared deviations), written only over the
 * screen count it was computed from (or under its row lock), so concurrent screens of one wallet
 * never lose an update (decision 0042).
 * BLOCKed screens are not counted as transactions; they count in screenCount and blockedCount.
 */
export const amlProfiles = pgTable('aml_profiles', {
  /** The wallet as looked up: EVM and bech32 addresses in lower case, others as given (addressKey). */
  walletKey: text('wallet_key').primaryKey(),
  txCount: integer('tx_count').notNull(),
  amountMeanUsd: doublePrecision('amount_mean_usd').notNull(),
  /** Welford's M2: the sum of squared deviations from the mean; variance = m2 / (n - 1). */
  amountM2: doublePrecision('amount_m2').notNull(),
  volumeTotalUsd: doublePrecision('volume_total_usd').notNull(),
  amountMaxUsd: doublePrecision('amount_max_usd').notNull(),
  counterpartyCount: integer('counterparty_count').notNull(),
  screenCount: integer('screen_count').notNull(),
  blockedCount: integer('blocked_count').notNull(),
  /** Exponentially weighted mean of the screens' risk scores; null before the first screen. */
  riskScore: doublePrecision('risk_score'),
  firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
  lastScreenedAt: timestamp('last_screened_at', { withTimezone: true, mode: 'date' }),
});

/** The counterparties a wallet has transacted with (counted transactions only): "new counterparty" and the count. */
export const amlCounterparties = pgTable(
  'aml_counterparties',
  {
    walletKey: text('wallet_key').notNull(),
    counterpartyKey: text('counterparty_key').notNull(),
    txCount: integer('tx_count').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.walletKey, table.counterpartyKey] })],
);

/**
 * Every AML screen, once per (paymentId, wallet): the idempotency key (a second screen of the same
 * payment and wallet answers the stored result and counts nothing). Levels WARNING and above are
 * the wallet's events (GET /aml/events/:wallet, the last 50).
 */
export const amlScreenings = pgTable(
  'aml_screenings',
  {
    paymentId: text('payment_id').notNull(),
    walletKey: text('wallet_key').notNull(),
    /** Digest of what was screened (counterparty, amount, currency, direction ...): a reused paymentId with other terms is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** The wallet's screen number (1, 2, ...): the profile's screen count + 1, unique, so two screens can never be written from the same profile. */
    sequence: integer('sequence').notNull(),
    direction: text('direction').$type<'SEND' | 'RECEIVE'>().notNull(),
    amountUsd: doublePrecision('amount_usd').notNull(),
    /** Within the structuring band just under the reporting threshold (docs/aml-model.md). */
    nearThreshold: boolean('near_threshold').notNull(),
    riskScore: integer('risk_score').notNull(),
    action: text('action').$type<'PROCEED' | 'FLAG' | 'BLOCK'>().notNull(),
    level: text('level').$type<'INFO' | 'WARNING' | 'ALERT' | 'CRITICAL'>().notNull(),
    /** The screening result as answered. */
    result: jsonb('result').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.paymentId, table.walletKey] }),
    uniqueIndex('aml_screenings_wallet_sequence').on(table.walletKey, table.sequence),
    index('aml_screenings_wallet_checked').on(table.walletKey, table.checkedAt),
    index('aml_screenings_events').on(table.walletKey, table.sequence).where(sql`${table.level} <> 'INFO'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// compliance: streaming micropayment sessions (POST /stream/open, decision 0019)
// ---------------------------------------------------------------------------------------------

/**
 * A prepaid credit bucket opened by one settled x402 payment: (payer, paymentNonce) is unique, so
 * one authorization opens one session at most. Amounts are token base units (6 decimals). Ticks
 * take `units x unitPrice` off `balance` in one conditional UPDATE (balance >= cost), so the balance
 * is never negative, whatever the concurrency. Only the SHA-256 of the session's bearer token is kept.
 */
export const streamSessions = pgTable(
  'stream_sessions',
  {
    sessionId: text('session_id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique('stream_sessions_token_hash'),
    payer: text('payer').notNull(),
    paymentNonce: text('payment_nonce').notNull(),
    transaction: text('transaction').notNull(),
    unitType: text('unit_type').$type<'second' | 'token' | 'call' | 'byte'>().notNull(),
    unitPrice: bigint('unit_price', { mode: 'bigint' }).notNull(),
    funded: bigint('funded', { mode: 'bigint' }).notNull(),
    balance: bigint('balance', { mode: 'bigint' }).notNull(),
    unitsUsed: bigint('units_used', { mode: 'bigint' }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastTickAt: timestamp('last_tick_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('stream_sessions_payment').on(table.payer, table.paymentNonce),
    // The conditional UPDATE keeps it so; the constraint makes any other writer fail rather than overdraw.
    check('stream_sessions_balance_not_negative', sql`${table.balance} >= 0 and ${table.balance} <= ${table.funded}`),
  ],
);

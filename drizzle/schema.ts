import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, doublePrecision, index, integer, json, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
  },
  (table) => [primaryKey({ columns: [table.payer, table.nonce] })],
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

// ---------------------------------------------------------------------------------------------
// intelligence: paid reports
// ---------------------------------------------------------------------------------------------

/**
 * Each report as generated, kept for the report cache window (60 minutes): every paid call inside
 * the window, on any replica, gets this same report. One row per report and parameters.
 */
export const intelligenceReports = pgTable('intelligence_reports', {
  cacheKey: text('cache_key').primaryKey(),
  /** json, not jsonb: the report comes back exactly as it was written, its keys in their order. */
  report: json('report').notNull(),
  generatedAt: timestamp('generated_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

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

// ---------------------------------------------------------------------------------------------
// compliance: reference data imported from the shipped snapshots (subgraphs/compliance/data,
// reference-import.ts; decision 0021). Screening reads the in-memory indexes; these tables are the
// auditable, queryable copy. Each dataset is replaced whole in one transaction when its digest changes.
// ---------------------------------------------------------------------------------------------

/** One row per imported dataset (the keys of data/sources.json): which version is loaded, from where, under which licence. */
export const referenceDatasets = pgTable('reference_datasets', {
  /** ofacSdn, pepUsFederal, pepHeadsOfState, pepMeps, lei, fatf. */
  dataset: text('dataset').primaryKey(),
  source: text('source').notNull(),
  url: text('url').notNull(),
  /** The publisher's as-of date as sources.json states it (YYYY-MM-DD, or "mid-2026"). */
  asOf: text('as_of').notNull(),
  licence: text('licence').notNull(),
  /** Primary records loaded: SDN entries, PEP records, LEI records, FATF list entries. */
  records: integer('records').notNull(),
  /** SHA-256 over the files' digests, the dataset's sources.json entry and the import format: the idempotency key. */
  sha256: text('sha256').notNull(),
  /** SHA-256 of each shipped file the dataset was read from, by path under data/. */
  files: jsonb('files').$type<Record<string, string>>().notNull(),
  loadedAt: timestamp('loaded_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** OFAC SDN entries (sdn.csv, remarks joined with their sdn_comments.csv continuation). */
export const sdnEntries = pgTable('sdn_entries', {
  entNum: integer('ent_num').primaryKey(),
  name: text('name').notNull(),
  type: text('type').$type<'individual' | 'entity' | 'vessel' | 'aircraft'>().notNull(),
  programs: text('programs').array().notNull(),
  title: text('title'),
  remarks: text('remarks'),
});

/** OFAC aliases (alt.csv). */
export const sdnAliases = pgTable(
  'sdn_aliases',
  {
    entNum: integer('ent_num').notNull(),
    altNum: integer('alt_num').notNull(),
    type: text('type').$type<'aka' | 'fka' | 'nka'>().notNull(),
    name: text('name').notNull(),
    remarks: text('remarks'),
  },
  (table) => [primaryKey({ columns: [table.entNum, table.altNum] })],
);

/** OFAC addresses (add.csv), without the all-`-0-` placeholder rows. */
export const sdnAddresses = pgTable(
  'sdn_addresses',
  {
    entNum: integer('ent_num').notNull(),
    addNum: integer('add_num').notNull(),
    address: text('address'),
    cityStateZip: text('city_state_zip'),
    country: text('country'),
  },
  (table) => [primaryKey({ columns: [table.entNum, table.addNum] })],
);

/** Digital-currency addresses named in the SDN remarks (digital_currency_addresses.csv). */
export const sdnDigitalCurrencyAddresses = pgTable(
  'sdn_digital_currency_addresses',
  {
    entNum: integer('ent_num').notNull(),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
  },
  (table) => [primaryKey({ columns: [table.entNum, table.currency, table.address] }), index('sdn_digital_currency_addresses_address').on(table.address)],
);

/** PEP records of the three PEP datasets; `seq` is the record's position in its dataset (Wikidata ids repeat for a person with two terms). */
export const pepRecords = pgTable(
  'pep_records',
  {
    dataset: text('dataset').notNull(),
    seq: integer('seq').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    otherNames: text('other_names').array().notNull(),
    position: text('position').notNull(),
    /** ISO 3166-1 alpha-2; null when the source's country has none. */
    country: text('country'),
    countryName: text('country_name').notNull(),
    current: boolean('current').notNull(),
    source: text('source').notNull(),
  },
  (table) => [primaryKey({ columns: [table.dataset, table.seq] }), index('pep_records_id').on(table.id)],
);

/** GLEIF Level 1 records with their Level 2 parents (lei_records.json). */
export const leiRecords = pgTable(
  'lei_records',
  {
    lei: text('lei').primaryKey(),
    legalName: text('legal_name').notNull(),
    otherNames: jsonb('other_names').$type<Array<{ name: string; type: string }>>().notNull(),
    /** ACTIVE, or the registration or entity status that says why not (data/reference.ts leiStatus). */
    status: text('status').notNull(),
    entityStatus: text('entity_status').notNull(),
    registrationStatus: text('registration_status').notNull(),
    jurisdiction: text('jurisdiction'),
    country: text('country'),
    directParentLei: text('direct_parent_lei'),
    ultimateParentLei: text('ultimate_parent_lei'),
    directParentLink: text('direct_parent_link').$type<'REPORTED' | 'REPORTING_EXCEPTION'>(),
    ultimateParentLink: text('ultimate_parent_link').$type<'REPORTED' | 'REPORTING_EXCEPTION'>(),
    directParentException: text('direct_parent_exception'),
    ultimateParentException: text('ultimate_parent_exception'),
    asOf: date('as_of', { mode: 'string' }).notNull(),
  },
  (table) => [index('lei_records_direct_parent').on(table.directParentLei), index('lei_records_ultimate_parent').on(table.ultimateParentLei)],
);

/** GLEIF Level 2 relationship records (child is consolidated by, or a branch of, parent). */
export const leiRelationships = pgTable(
  'lei_relationships',
  {
    childLei: text('child_lei').notNull(),
    parentLei: text('parent_lei').notNull(),
    type: text('type').$type<'IS_DIRECTLY_CONSOLIDATED_BY' | 'IS_ULTIMATELY_CONSOLIDATED_BY' | 'IS_INTERNATIONAL_BRANCH_OF'>().notNull(),
    status: text('status').notNull(),
  },
  (table) => [primaryKey({ columns: [table.childLei, table.parentLei, table.type] }), index('lei_relationships_parent').on(table.parentLei)],
);

/** The FATF lists of each plenary shipped (the current one and the earlier ones). */
export const fatfJurisdictions = pgTable(
  'fatf_jurisdictions',
  {
    statementDate: date('statement_date', { mode: 'string' }).notNull(),
    list: text('list').$type<'blacklist' | 'greylist'>().notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    plenary: text('plenary').notNull(),
    /** Black list only: the FATF's call (countermeasures, enhanced due diligence ...). */
    call: text('call'),
    /** Of the current plenary's lists. */
    current: boolean('current').notNull(),
  },
  (table) => [primaryKey({ columns: [table.statementDate, table.list, table.code] })],
);

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

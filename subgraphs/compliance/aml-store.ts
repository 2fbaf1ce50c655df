import { and, desc, eq, getTableColumns, gt, ne, sql, type Placeholder, type Query, type SQL, type WithSubquery } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { amlCounterparties, amlProfiles, amlScreenings } from '../../drizzle/schema.js';
import type { Database } from '../../platform/db.js';
import { boundedCall } from '../../platform/timeout.js';
import { EMPTY_AML_PROFILE, type AmlProfileStats } from './domain/aml.js';

const STORE_TIMEOUT_MS = 5000;

export type AmlScreeningRow = typeof amlScreenings.$inferSelect;
type ProfileRow = typeof amlProfiles.$inferSelect;

/** What a screen is decided on, read under the wallet profile's row lock. */
export interface AmlLockedState {
  profile: AmlProfileStats;
  newCounterparty: boolean;
  recentScreens: number;
  recentNearThreshold: number;
  /** The number this screen takes among the wallet's screens. */
  sequence: number;
}

/** What the decision writes: the profile after the screen, the screen's row, and whether the counterparty is counted. */
export interface AmlScreenWrite {
  profile: AmlProfileStats;
  screening: Omit<AmlScreeningRow, 'walletKey' | 'paymentId' | 'sequence'>;
  countCounterparty: boolean;
}

export interface AmlScreenKey {
  walletKey: string;
  paymentId: string;
  counterpartyKey: string;
  /** Screens since this time count for velocity. */
  velocitySince: Date;
  /** Structuring-band screens since this time count for the pattern. */
  structuringSince: Date;
}

export type AmlScreenOutcome = { kind: 'SCREENED'; row: AmlScreeningRow } | { kind: 'REPLAYED'; row: AmlScreeningRow };

const statsOf = (row: ProfileRow): AmlProfileStats => ({
  txCount: row.txCount,
  amountMeanUsd: row.amountMeanUsd,
  amountM2: row.amountM2,
  volumeTotalUsd: row.volumeTotalUsd,
  amountMaxUsd: row.amountMaxUsd,
  counterpartyCount: row.counterpartyCount,
  screenCount: row.screenCount,
  blockedCount: row.blockedCount,
  riskScore: row.riskScore,
  firstSeenAt: row.firstSeenAt,
  lastSeenAt: row.lastSeenAt,
  lastScreenedAt: row.lastScreenedAt,
});

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** The read under the lock: the stored screen's columns (all null when none), the window counts, the counterparty's count (null when new). */
type LockedRead = { [K in keyof AmlScreeningRow]: AmlScreeningRow[K] | null } & { recentScreens: number; recentNearThreshold: number; counterpartyTxCount: number | null };

/**
 * A statement of the screen's transaction, built once per store and run on each screen's transaction:
 * 1. drizzle's `.prepare(name)` binds a query to the session it was built on: prepared on `db`, it
 *    would run on the pool, outside the transaction and its lock (drizzle-orm issue 613);
 * 2. built on `tx` instead, its SQL is built again on every screen, about 0.2 ms of CPU a statement;
 * 3. so the SQL text and its parameters (placeholders) are built here once, and the transaction's
 *    session prepares that text under the statement's name, as `.prepare(name)` does (postgres.js
 *    keeps one server-side statement per connection; PGlite takes no name).
 * `selection` is what the statement answers, the same object the builder was given, so the columns
 * come in the order built and are mapped as drizzle maps them.
 */
function transactionStatement<Row = unknown>(name: string, statement: { toSQL(): Query }, selection?: Record<string, PgColumn | SQL | SQL.Aliased>) {
  const query = statement.toSQL();
  const fields = selection && Object.entries(selection).map(([key, field]) => ({ path: [key], field }));
  return (tx: Transaction, values: Record<string, unknown>): Promise<Row[]> =>
    tx._.session.prepareQuery<{ execute: Row[]; all: unknown; values: unknown }>(query, fields, name, true).execute(values);
}

const placeholder = (name: string) => sql.placeholder(name);
/**
 * A placeholder drizzle passes as it is, with no column encoder: in `sql`, in an update's `set` (its
 * type takes no placeholder), and wherever the value may be null (the column encoder of a
 * placeholder is called on null too: a null timestamp would throw, a null jsonb become JSON null).
 * `placeholder` itself is encoded by its column in insert values only.
 */
const raw = (name: string) => sql`${sql.placeholder(name)}`;
/** A timestamp as the column's encoder sends it. */
const iso = (date: Date | null) => (date === null ? null : date.toISOString());
/** The profile's columns but the wallet key: what a screen writes. */
const PROFILE_KEYS = Object.keys(EMPTY_AML_PROFILE) as (keyof AmlProfileStats)[];

/** The screen's statements, built once per store (see transactionStatement). */
function screenStatements(db: Database) {
  const profileColumns = getTableColumns(amlProfiles);
  const screeningColumns = getTableColumns(amlScreenings);
  const walletKey = placeholder('walletKey');

  const windows = db
    .select({
      recentScreens: sql<number>`(count(*) filter (where ${amlScreenings.checkedAt} > ${raw('velocitySince')}::timestamptz))::int`.mapWith(Number).as('recent_screens'),
      recentNearThreshold: sql<number>`(count(*) filter (where ${amlScreenings.nearThreshold} and ${amlScreenings.checkedAt} > ${raw('structuringSince')}::timestamptz))::int`.mapWith(Number).as('recent_near_threshold'),
    })
    .from(amlScreenings)
    .where(and(eq(amlScreenings.walletKey, walletKey), gt(amlScreenings.checkedAt, raw('windowSince'))))
    .as('windows');
  const lockedRead = { ...screeningColumns, recentScreens: windows.recentScreens, recentNearThreshold: windows.recentNearThreshold, counterpartyTxCount: amlCounterparties.txCount };

  // The writes: two data-modifying WITH queries before the screen's insert. PostgreSQL runs each
  // exactly once, whether or not the insert reads them; they touch other rows, so their order is free.
  const profileUpdate = db
    .$with('profile_update')
    .as(db.update(amlProfiles).set(Object.fromEntries(PROFILE_KEYS.map((key) => [key, raw(`profile.${key}`)]))).where(eq(amlProfiles.walletKey, walletKey)));
  const counterpartyCount = db.$with('counterparty_count').as(
    db
      .insert(amlCounterparties)
      .values({ walletKey, counterpartyKey: placeholder('counterpartyKey'), txCount: 1, firstSeenAt: placeholder('checkedAt'), lastSeenAt: placeholder('checkedAt') })
      .onConflictDoUpdate({ target: [amlCounterparties.walletKey, amlCounterparties.counterpartyKey], set: { txCount: sql`${amlCounterparties.txCount} + 1`, lastSeenAt: sql`excluded.${sql.identifier(amlCounterparties.lastSeenAt.name)}` } }),
  );
  const insertScreening = (...writes: WithSubquery[]) =>
    db
      .with(...writes)
      .insert(amlScreenings)
      .values(Object.fromEntries(Object.keys(screeningColumns).map((key) => [key, placeholder(key)])) as { [K in keyof AmlScreeningRow]: Placeholder })
      .returning(screeningColumns);

  return {
    createProfile: transactionStatement('aml_screen_create_profile', db.insert(amlProfiles).values({ ...EMPTY_AML_PROFILE, walletKey }).onConflictDoNothing()),
    lockProfile: transactionStatement<ProfileRow>('aml_screen_lock_profile', db.select(profileColumns).from(amlProfiles).where(eq(amlProfiles.walletKey, walletKey)).for('update'), profileColumns),
    /**
     * What the screen reads under the lock, in one statement: the screen already stored for this
     * payment (null columns when none), the window counts (an aggregate: always one row) and the
     * counterparty's row (null when new). It must be a statement of its own after the lock: a
     * statement reads the rows committed when it starts, and the lock may be waited for.
     */
    readLocked: transactionStatement<LockedRead>(
      'aml_screen_read_locked',
      db
        .select(lockedRead)
        .from(windows)
        .leftJoin(amlScreenings, and(eq(amlScreenings.paymentId, placeholder('paymentId')), eq(amlScreenings.walletKey, walletKey)))
        .leftJoin(amlCounterparties, and(eq(amlCounterparties.walletKey, walletKey), eq(amlCounterparties.counterpartyKey, placeholder('counterpartyKey')))),
      lockedRead,
    ),
    /** The screen's writes in one statement: the profile, the screen (answered), and the counterparty when counted. */
    write: transactionStatement<AmlScreeningRow>('aml_screen_write', insertScreening(profileUpdate), screeningColumns),
    writeCountingCounterparty: transactionStatement<AmlScreeningRow>('aml_screen_write_counting_counterparty', insertScreening(profileUpdate, counterpartyCount), screeningColumns),
  };
}

/** The AML tables (aml_profiles, aml_counterparties, aml_screenings); every call bounded in time. */
export function createAmlStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);
  const statements = screenStatements(db);

  return {
    /**
     * One screen of one wallet, atomically, in one transaction:
     * 1. the wallet's profile row is created if missing, then locked (SELECT ... FOR UPDATE), so
     *    every screen of the wallet runs after the one before it has committed;
     * 2. a screen of the same (paymentId, wallet) already stored is answered as it is (REPLAYED),
     *    and nothing is counted again;
     * 3. the window counts and the counterparty are read under the lock (in the same statement as
     *    the stored screen), `decide` (pure) computes the result and the profile after it, and the
     *    profile, counterparty and screen are written (one statement).
     * Its statements are built once (screenStatements): a screen builds no SQL, and makes six round
     * trips (BEGIN, create, lock, read, write, COMMIT; a replayed screen has no write).
     */
    async screen(key: AmlScreenKey, decide: (state: AmlLockedState) => AmlScreenWrite): Promise<AmlScreenOutcome> {
      const work = db.transaction(async (tx): Promise<AmlScreenOutcome> => {
        const walletKey = key.walletKey;
        await statements.createProfile(tx, { walletKey });
        const [locked] = await statements.lockProfile(tx, { walletKey });
        const windowSince = key.velocitySince < key.structuringSince ? key.velocitySince : key.structuringSince;
        const [read] = await statements.readLocked(tx, {
          walletKey, paymentId: key.paymentId, counterpartyKey: key.counterpartyKey,
          velocitySince: iso(key.velocitySince), structuringSince: iso(key.structuringSince), windowSince: iso(windowSince),
        });
        const { recentScreens, recentNearThreshold, counterpartyTxCount, ...stored } = read!;
        if (stored.paymentId !== null) return { kind: 'REPLAYED', row: stored as AmlScreeningRow };
        const profile = statsOf(locked!);
        const sequence = profile.screenCount + 1;
        const write = decide({ profile, newCounterparty: counterpartyTxCount === null, recentScreens, recentNearThreshold, sequence });
        const profileValues = Object.fromEntries(PROFILE_KEYS.map((name) => {
          const value = write.profile[name];
          return [`profile.${name}`, value instanceof Date ? value.toISOString() : value];
        }));
        const statement = write.countCounterparty ? statements.writeCountingCounterparty : statements.write;
        const [row] = await statement(tx, { ...profileValues, ...write.screening, walletKey, paymentId: key.paymentId, sequence, counterpartyKey: key.counterpartyKey });
        return { kind: 'SCREENED', row: row! };
      });
      return bounded(work, 'AML screen (aml_profiles, aml_screenings)');
    },

    /** Replaces the stored result of a screen (the synthesiser's wording of its reasoning). */
    async replaceResult(paymentId: string, walletKey: string, result: unknown): Promise<void> {
      const work = db.update(amlScreenings).set({ result }).where(and(eq(amlScreenings.paymentId, paymentId), eq(amlScreenings.walletKey, walletKey))).execute();
      await bounded(work, 'update aml_screenings result');
    },

    /** The wallet's profile; the empty (UNKNOWN) profile when it was never screened. */
    async profile(walletKey: string): Promise<AmlProfileStats> {
      const [row] = await bounded(db.select().from(amlProfiles).where(eq(amlProfiles.walletKey, walletKey)).execute(), 'select from aml_profiles');
      return row ? statsOf(row) : EMPTY_AML_PROFILE;
    },

    /** The wallet's last `limit` screens of level WARNING and above, newest first. */
    async events(walletKey: string, limit: number): Promise<AmlScreeningRow[]> {
      const query = db
        .select()
        .from(amlScreenings)
        .where(and(eq(amlScreenings.walletKey, walletKey), ne(amlScreenings.level, 'INFO')))
        .orderBy(desc(amlScreenings.sequence))
        .limit(limit)
        .execute();
      return bounded(query, 'select from aml_screenings (events)');
    },
  };
}

export type AmlStore = ReturnType<typeof createAmlStore>;

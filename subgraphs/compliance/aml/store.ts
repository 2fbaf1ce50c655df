import { and, Column, desc, eq, getTableColumns, gt, is, ne, type Placeholder, type Query, SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { amlCounterparties, amlProfiles, amlScreenings } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { InfrastructureError } from '../../../platform/errors.js';
import { boundedCall } from '../../../platform/timeout.js';
import { type AmlProfileStats, EMPTY_AML_PROFILE } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;
/** A screen queued behind another of its wallet starts only with at least this much of its caller's STORE_TIMEOUT_MS left. */
const QUEUED_START_MARGIN_MS = 500;

export type AmlScreeningRow = typeof amlScreenings.$inferSelect;
type ProfileRow = typeof amlProfiles.$inferSelect;

/** What a screen is decided on: the wallet's profile and its screens so far, as one statement read them. */
export interface AmlScreenState {
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
/** A try of a screen: its outcome, or OVERTAKEN when another screen of the wallet was written after its read. */
type AmlScreenTry = AmlScreenOutcome | { kind: 'OVERTAKEN'; cause?: unknown };

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

/** The database or one of its transactions: what a statement runs on. */
type Runner = Pick<Database, '_'>;
type Nullable<Row> = { [K in keyof Row]: Row[K] | null };
/** A screen's read: the stored screen of the payment and the profile (every column null when none), the window counts, the counterparty's count (null when new). */
type ScreenRead = { stored: Nullable<AmlScreeningRow>; profile: Nullable<ProfileRow>; recentScreens: number; recentNearThreshold: number; counterpartyTxCount: number | null };

type Field = PgColumn | SQL | SQL.Aliased;
type Selection = Record<string, Field | Record<string, Field>>;
const isField = (value: Field | Record<string, Field>): value is Field => is(value, Column) || is(value, SQL) || is(value, SQL.Aliased);
/** The selection's fields in the order drizzle selects them, each with its path in the answered row. */
const fieldsOf = (selection: Selection) =>
  Object.entries(selection).flatMap(([key, field]) => (isField(field) ? [{ path: [key], field }] : Object.entries(field).map(([inner, column]) => ({ path: [key, inner], field: column }))));

/**
 * A statement of the screen, built once per store and run on the database or on a transaction:
 * 1. drizzle's `.prepare(name)` binds a query to the session it was built on: prepared on `db`, it
 *    would run on the pool, outside the transaction and its lock (drizzle-orm issue 613);
 * 2. built on `tx` instead, its SQL is built again on every screen, about 0.2 ms of CPU a statement;
 * 3. so the SQL text and its parameters (placeholders) are built here once, and the session it runs
 *    on prepares that text under the statement's name, as `.prepare(name)` does (postgres.js keeps
 *    one server-side statement per connection; PGlite takes no name).
 * `selection` is what the statement answers, the same object the builder was given (one level of
 * nesting at most), so the columns come in the order built and are mapped as drizzle maps them.
 */
function builtStatement<Row = unknown>(name: string, statement: { toSQL(): Query }, selection?: Selection) {
  const query = statement.toSQL();
  const fields = selection && fieldsOf(selection);
  return (runner: Runner, values: Record<string, unknown>): Promise<Row[]> =>
    runner._.session.prepareQuery<{ execute: Row[]; all: unknown; values: unknown }>(query, fields, name, true).execute(values);
}

const placeholder = (name: string) => sql.placeholder(name);
/**
 * A placeholder drizzle passes as it is, with no column encoder: in `sql`, in an update's `set` (its
 * type takes no placeholder), and wherever the value may be null (the column encoder of a
 * placeholder is called on null too: a null timestamp would throw, a null jsonb become JSON null).
 * `placeholder` itself is encoded by its column in insert values only. Values for `raw` are encoded
 * beforehand (`encoded`).
 */
const raw = (name: string) => sql`${sql.placeholder(name)}`;
/**
 * A `raw` placeholder selected as its column: cast to the column's type (in a select list, a
 * parameter's type is not inferred from where the value goes) and named as it.
 */
const typed = <C extends PgColumn>(name: string, column: C) => sql<C['_']['data']>`${raw(name)}::${sql.raw(column.getSQLType())}`.as(column.name);
/** A timestamp as the column's encoder sends it. */
const iso = (date: Date) => date.toISOString();
const PROFILE_COLUMNS = getTableColumns(amlProfiles);
const SCREENING_COLUMNS = getTableColumns(amlScreenings);
/** The profile's columns but the wallet key: what a screen writes. */
const PROFILE_KEYS = Object.keys(EMPTY_AML_PROFILE) as (keyof AmlProfileStats)[];
/** The screen's columns but the wallet key (the write takes it from the profile's row). */
const SCREENING_KEYS = (Object.keys(SCREENING_COLUMNS) as (keyof AmlScreeningRow)[]).filter((key) => key !== 'walletKey');
/** The values of `keys` as their columns' encoders send them (null stays null), for `raw` placeholders named prefix + key. */
const encoded = <Row>(columns: Record<keyof Row, PgColumn>, row: Row, keys: readonly (keyof Row & string)[], prefix = '') =>
  Object.fromEntries(keys.map((key) => [`${prefix}${key}`, row[key] === null ? null : columns[key].mapToDriverValue(row[key])]));

/** The screen's statements, built once per store (see builtStatement). */
function screenStatements(db: Database) {
  const walletKey = placeholder('walletKey');

  const windows = db
    .select({
      recentScreens: sql<number>`(count(*) filter (where ${amlScreenings.checkedAt} > ${raw('velocitySince')}::timestamptz))::int`.mapWith(Number).as('recent_screens'),
      recentNearThreshold: sql<number>`(count(*) filter (where ${amlScreenings.nearThreshold} and ${amlScreenings.checkedAt} > ${raw('structuringSince')}::timestamptz))::int`
        .mapWith(Number)
        .as('recent_near_threshold'),
    })
    .from(amlScreenings)
    .where(and(eq(amlScreenings.walletKey, walletKey), gt(amlScreenings.checkedAt, raw('windowSince'))))
    .as('windows');
  const read = {
    stored: SCREENING_COLUMNS,
    profile: PROFILE_COLUMNS,
    recentScreens: windows.recentScreens,
    recentNearThreshold: windows.recentNearThreshold,
    counterpartyTxCount: amlCounterparties.txCount,
  };

  // The writes, one statement. The profile is written only if its screen_count is still the one
  // read: every screen raises it, so a row back proves no screen of the wallet was written since
  // the read (and the row stays locked to the end of the statement). The counterparty and the
  // screen are selected from that row: none back, nothing written.
  const profileWrite = db.$with('profile_write').as(
    db
      .insert(amlProfiles)
      .values({ walletKey, ...Object.fromEntries(PROFILE_KEYS.map((key) => [key, raw(`profile.${key}`)])) } as { [K in keyof ProfileRow]: SQL | Placeholder })
      .onConflictDoUpdate({
        target: amlProfiles.walletKey,
        set: Object.fromEntries(PROFILE_KEYS.map((key) => [key, sql`excluded.${sql.identifier(PROFILE_COLUMNS[key].name)}`])),
        setWhere: eq(amlProfiles.screenCount, raw('readScreenCount')),
      })
      .returning({ walletKey: amlProfiles.walletKey }),
  );
  const counterpartyCount = db.$with('counterparty_count').as(
    db
      .insert(amlCounterparties)
      .select(
        db
          .select({
            walletKey: profileWrite.walletKey,
            counterpartyKey: typed('counterpartyKey', amlCounterparties.counterpartyKey),
            txCount: sql<number>`1`.as(amlCounterparties.txCount.name),
            firstSeenAt: typed('checkedAt', amlCounterparties.firstSeenAt),
            lastSeenAt: typed('checkedAt', amlCounterparties.lastSeenAt),
          })
          .from(profileWrite),
      )
      .onConflictDoUpdate({
        target: [amlCounterparties.walletKey, amlCounterparties.counterpartyKey],
        set: { txCount: sql`${amlCounterparties.txCount} + 1`, lastSeenAt: sql`excluded.${sql.identifier(amlCounterparties.lastSeenAt.name)}` },
      }),
  );
  const screening = Object.fromEntries(Object.entries(SCREENING_COLUMNS).map(([key, column]) => [key, key === 'walletKey' ? profileWrite.walletKey : typed(key, column)]));
  // The cast: the selection is built from the table's columns, in their order, as insert ... select wants.
  const insertScreening = (...writes: WithSubquery[]) =>
    db
      .with(...writes)
      .insert(amlScreenings)
      .select(db.select(screening as { [K in keyof AmlScreeningRow]: SQL.Aliased<AmlScreeningRow[K]> }).from(profileWrite))
      .returning(SCREENING_COLUMNS);

  return {
    /**
     * What a screen reads, in one statement: the screen already stored for this payment, the
     * profile (null columns when none), the window counts (an aggregate: always one row) and the
     * counterparty's row (null when new). One statement sees one moment: what it reads agrees.
     */
    read: builtStatement<ScreenRead>(
      'aml_screen_read',
      db
        .select(read)
        .from(windows)
        .leftJoin(amlScreenings, and(eq(amlScreenings.paymentId, placeholder('paymentId')), eq(amlScreenings.walletKey, walletKey)))
        .leftJoin(amlCounterparties, and(eq(amlCounterparties.walletKey, walletKey), eq(amlCounterparties.counterpartyKey, placeholder('counterpartyKey'))))
        .leftJoin(amlProfiles, eq(amlProfiles.walletKey, walletKey)),
      read,
    ),
    /** The screen's writes: the profile, the screen (answered), and the counterparty when counted; no row when overtaken. */
    write: builtStatement<AmlScreeningRow>('aml_screen_write', insertScreening(profileWrite), SCREENING_COLUMNS),
    writeCountingCounterparty: builtStatement<AmlScreeningRow>('aml_screen_write_counting_counterparty', insertScreening(profileWrite, counterpartyCount), SCREENING_COLUMNS),
    // An overtaken screen's lock: the profile row, created first if missing.
    createProfile: builtStatement(
      'aml_screen_create_profile',
      db
        .insert(amlProfiles)
        .values({ ...EMPTY_AML_PROFILE, walletKey })
        .onConflictDoNothing(),
    ),
    lockProfile: builtStatement('aml_screen_lock_profile', db.select({ walletKey: amlProfiles.walletKey }).from(amlProfiles).where(eq(amlProfiles.walletKey, walletKey)).for('update')),
  };
}

const readValues = (key: AmlScreenKey) => ({
  walletKey: key.walletKey,
  paymentId: key.paymentId,
  counterpartyKey: key.counterpartyKey,
  velocitySince: iso(key.velocitySince),
  structuringSince: iso(key.structuringSince),
  windowSince: iso(key.velocitySince < key.structuringSince ? key.velocitySince : key.structuringSince),
});

/** The write's values. The store counts the screens: screen_count is the sequence, whatever `decide` wrote. */
const writeValues = (key: AmlScreenKey, state: AmlScreenState, write: AmlScreenWrite) => ({
  ...encoded(PROFILE_COLUMNS, { ...write.profile, screenCount: state.sequence }, PROFILE_KEYS, 'profile.'),
  ...encoded(SCREENING_COLUMNS, { ...write.screening, walletKey: key.walletKey, paymentId: key.paymentId, sequence: state.sequence }, SCREENING_KEYS),
  walletKey: key.walletKey,
  counterpartyKey: key.counterpartyKey,
  readScreenCount: state.profile.screenCount,
});

/** PostgreSQL's unique_violation, wherever drizzle and the driver put it in the chain of causes. */
function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

const settled = () => undefined;

/**
 * Runs the work given for one key after the work given before it for that key has settled; other
 * keys do not wait. Why the screens of a wallet queue in the process:
 * 1. screens of one wallet that run together overtake one another, and each overtaken screen costs
 *    eight round trips (its two, then the locked retry's six): a busy wallet would cost more than
 *    with the lock alone (decision 0042);
 * 2. queued, each reads what the one before it wrote, and this process never overtakes itself;
 * 3. nothing depends on it for correctness: other processes still overtake, and the database
 *    decides (the conditional write, the locked retry). A queued screen holds no connection.
 */
function keyedQueue() {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const before = tails.get(key);
    const running = before ? before.then(work) : work();
    const tail = running.then(settled, settled);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return running;
  };
}

const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);

/** What the screen's functions run on: the database, the screen's statements, and the wallets' queue. */
interface ScreenRunner {
  db: Database;
  statements: ReturnType<typeof screenStatements>;
  inWalletOrder: ReturnType<typeof keyedQueue>;
}

/** Read, decide, write: OVERTAKEN when the write finds that another screen of the wallet was written after the read. */
async function tryScreen(store: ScreenRunner, runner: Runner, key: AmlScreenKey, decide: (state: AmlScreenState) => AmlScreenWrite): Promise<AmlScreenTry> {
  const [read] = await store.statements.read(runner, readValues(key));
  const { stored, profile: row, recentScreens, recentNearThreshold, counterpartyTxCount } = read!;
  if (stored.paymentId !== null) return { kind: 'REPLAYED', row: stored as AmlScreeningRow };
  const profile = row.walletKey === null ? EMPTY_AML_PROFILE : statsOf(row as ProfileRow);
  const state = { profile, newCounterparty: counterpartyTxCount === null, recentScreens, recentNearThreshold, sequence: profile.screenCount + 1 };
  const write = decide(state);
  const statement = write.countCounterparty ? store.statements.writeCountingCounterparty : store.statements.write;
  try {
    const [written] = await statement(runner, writeValues(key, state, write));
    return written ? { kind: 'SCREENED', row: written } : { kind: 'OVERTAKEN' };
  } catch (error) {
    // Another screen's row took this one's key or sequence: it was written after the read.
    if (isUniqueViolation(error)) return { kind: 'OVERTAKEN', cause: error };
    throw error;
  }
}

/** The screen again, after the profile's row lock: no other screen of the wallet can be written in between. */
function screenUnderLock(store: ScreenRunner, key: AmlScreenKey, decide: (state: AmlScreenState) => AmlScreenWrite): Promise<AmlScreenOutcome> {
  return store.db.transaction(async (tx) => {
    await store.statements.createProfile(tx, { walletKey: key.walletKey });
    await store.statements.lockProfile(tx, { walletKey: key.walletKey });
    const outcome = await tryScreen(store, tx, key, decide);
    if (outcome.kind === 'OVERTAKEN') throw new Error('an AML screen was overtaken under its profile lock', { cause: outcome.cause });
    return outcome;
  });
}

/**
 * One screen of one wallet, counted once, as if the wallet's screens ran one after another:
 * 1. one statement reads the screen already stored for (paymentId, wallet), the profile, the
 *    window counts and the counterparty; a stored screen is answered as it is (REPLAYED);
 * 2. `decide` (pure) computes the result and the profile after it, for sequence screenCount + 1;
 * 3. one statement writes the profile, the counterparty when counted and the screen, only if the
 *    profile's screen_count is still the one read (optimistic: no transaction, no lock held
 *    between statements): two round trips, one for a replay;
 * 4. overtaken (another screen of the wallet was written in between), the screen runs once more
 *    under the profile's row lock (BEGIN, create, lock, read, write, COMMIT), where nothing can
 *    overtake it: `decide` may be called twice, and a screen never fails for contention.
 * Screens of one wallet queue in this process (keyedQueue), so only other processes overtake.
 * Why, and what was measured: decision 0042.
 */
function screen(store: ScreenRunner, key: AmlScreenKey, decide: (state: AmlScreenState) => AmlScreenWrite): Promise<AmlScreenOutcome> {
  const operation = 'AML screen (aml_profiles, aml_screenings)';
  // Bounded inside the queue as well as for the caller: a screen stuck on a dead connection
  // releases the next one after STORE_TIMEOUT_MS, and a queued screen whose caller has (nearly)
  // had its answer, the timeout, is not started, so it is not counted for a refused payment.
  const deadline = Date.now() + STORE_TIMEOUT_MS;
  const queued = store.inWalletOrder(key.walletKey, () => {
    if (deadline - Date.now() < QUEUED_START_MARGIN_MS) return Promise.reject(new InfrastructureError(`${operation} (its turn did not come in time)`, new Error('timed out in the queue')));
    const work = (async () => {
      const first = await tryScreen(store, store.db, key, decide);
      return first.kind === 'OVERTAKEN' ? screenUnderLock(store, key, decide) : first;
    })();
    return bounded(work, operation);
  });
  return bounded(queued, operation);
}

/** The AML tables (aml_profiles, aml_counterparties, aml_screenings); every call bounded in time. */
export function createAmlStore(db: Database) {
  const store: ScreenRunner = { db, statements: screenStatements(db), inWalletOrder: keyedQueue() };

  return {
    /** One screen of one wallet, counted once (see `screen` above). */
    screen: (key: AmlScreenKey, decide: (state: AmlScreenState) => AmlScreenWrite): Promise<AmlScreenOutcome> => screen(store, key, decide),

    /** Replaces the stored result of a screen (the synthesiser's wording of its reasoning). */
    async replaceResult(paymentId: string, walletKey: string, result: unknown): Promise<void> {
      const work = db
        .update(amlScreenings)
        .set({ result })
        .where(and(eq(amlScreenings.paymentId, paymentId), eq(amlScreenings.walletKey, walletKey)))
        .execute();
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

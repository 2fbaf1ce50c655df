import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
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

/** The AML tables (aml_profiles, aml_counterparties, aml_screenings); every call bounded in time. */
export function createAmlStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);

  return {
    /**
     * One screen of one wallet, atomically, in one transaction:
     * 1. the wallet's profile row is created if missing, then locked (SELECT ... FOR UPDATE), so
     *    every screen of the wallet runs after the one before it has committed;
     * 2. a screen of the same (paymentId, wallet) already stored is answered as it is (REPLAYED),
     *    and nothing is counted again;
     * 3. the window counts and the counterparty are read under the lock, `decide` (pure) computes
     *    the result and the profile after it, and the profile, counterparty and screen are written.
     */
    async screen(key: AmlScreenKey, decide: (state: AmlLockedState) => AmlScreenWrite): Promise<AmlScreenOutcome> {
      const work = db.transaction(async (tx): Promise<AmlScreenOutcome> => {
        await tx.insert(amlProfiles).values({ walletKey: key.walletKey, ...EMPTY_AML_PROFILE }).onConflictDoNothing();
        const [locked] = await tx.select().from(amlProfiles).where(eq(amlProfiles.walletKey, key.walletKey)).for('update');
        const [stored] = await tx.select().from(amlScreenings).where(and(eq(amlScreenings.paymentId, key.paymentId), eq(amlScreenings.walletKey, key.walletKey)));
        if (stored) return { kind: 'REPLAYED', row: stored };
        const [windows] = await tx
          .select({
            recentScreens: sql<number>`count(*) filter (where ${amlScreenings.checkedAt} > ${key.velocitySince.toISOString()}::timestamptz)`.mapWith(Number),
            recentNearThreshold: sql<number>`count(*) filter (where ${amlScreenings.nearThreshold} and ${amlScreenings.checkedAt} > ${key.structuringSince.toISOString()}::timestamptz)`.mapWith(Number),
          })
          .from(amlScreenings)
          .where(and(eq(amlScreenings.walletKey, key.walletKey), gt(amlScreenings.checkedAt, key.velocitySince < key.structuringSince ? key.velocitySince : key.structuringSince)));
        const [known] = await tx
          .select({ txCount: amlCounterparties.txCount })
          .from(amlCounterparties)
          .where(and(eq(amlCounterparties.walletKey, key.walletKey), eq(amlCounterparties.counterpartyKey, key.counterpartyKey)));
        const profile = statsOf(locked!);
        const sequence = profile.screenCount + 1;
        const write = decide({ profile, newCounterparty: !known, recentScreens: windows?.recentScreens ?? 0, recentNearThreshold: windows?.recentNearThreshold ?? 0, sequence });
        await tx.update(amlProfiles).set(write.profile).where(eq(amlProfiles.walletKey, key.walletKey));
        if (write.countCounterparty) {
          const now = write.screening.checkedAt;
          await tx
            .insert(amlCounterparties)
            .values({ walletKey: key.walletKey, counterpartyKey: key.counterpartyKey, txCount: 1, firstSeenAt: now, lastSeenAt: now })
            .onConflictDoUpdate({ target: [amlCounterparties.walletKey, amlCounterparties.counterpartyKey], set: { txCount: sql`${amlCounterparties.txCount} + 1`, lastSeenAt: now } });
        }
        const [row] = await tx.insert(amlScreenings).values({ ...write.screening, walletKey: key.walletKey, paymentId: key.paymentId, sequence }).returning();
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

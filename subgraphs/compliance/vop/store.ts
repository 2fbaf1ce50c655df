import { and, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import { complianceWalletAudit, complianceWallets, vopChecks } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { VopResult } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;
/** Document 2 §8: GET /vop/history/:wallet answers the last 50 checks. */
export const VOP_HISTORY_LENGTH = 50;

/** A wallet's registration as compliance_wallets holds it. */
export type WalletRegistration = typeof complianceWallets.$inferSelect;
export type RegistrationType = WalletRegistration['registrationType'];

type VopCheckRow = typeof vopChecks.$inferSelect;
/** A VoP check as vop_checks holds it; its result column holds the VoP results recordCheck writes. */
export type VopCheckRecord = Omit<VopCheckRow, 'result'> & { result: VopResult };

/** Addresses are kept lower-case, so a checksummed and a plain form are one wallet. */
const key = (walletAddress: string) => walletAddress.toLowerCase();

const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);

/** The two statements of every VoP check (every payment makes one), built once (prepared) rather than on each call. */
function preparedStatements(db: Database) {
  return {
    activeRegistration: db
      .select()
      .from(complianceWallets)
      .where(and(eq(complianceWallets.walletAddress, sql.placeholder('walletAddress')), eq(complianceWallets.active, true)))
      .prepare('compliance_active_registration'),
    recordCheck: db
      .insert(vopChecks)
      .values({
        requestId: sql.placeholder('requestId'),
        walletAddress: sql.placeholder('walletAddress'),
        submittedName: sql.placeholder('submittedName'),
        submittedLei: sql.placeholder('submittedLei'),
        result: sql.placeholder('result'),
        // Passed as it is: the column's encoder (String) would make a null score the text 'null'.
        score: sql`${sql.placeholder('score')}`,
        resolvedBy: sql.placeholder('resolvedBy'),
        checkedAt: sql.placeholder('checkedAt'),
      })
      .prepare('compliance_record_vop_check'),
  };
}

/** Registers or re-registers a wallet and writes the audit record, in one transaction. */
async function register(
  db: Database,
  ids: { token(bytes: number): string },
  registration: Omit<WalletRegistration, 'active' | 'deactivatedAt'>,
  now: Date,
): Promise<{ registration: WalletRegistration; created: boolean }> {
  const row: WalletRegistration = { ...registration, walletAddress: key(registration.walletAddress), active: true, deactivatedAt: null };
  const work = db.transaction(async (tx) => {
    const [existing] = await tx.select({ walletAddress: complianceWallets.walletAddress }).from(complianceWallets).where(eq(complianceWallets.walletAddress, row.walletAddress)).for('update');
    await tx
      .insert(complianceWallets)
      .values(row)
      .onConflictDoUpdate({ target: complianceWallets.walletAddress, set: { ...row } });
    await tx.insert(complianceWalletAudit).values({ id: `aud_${ids.token(12)}`, walletAddress: row.walletAddress, action: existing ? 'UPDATED' : 'REGISTERED', record: row, at: now });
    return !existing;
  });
  const created = await bounded(work, 'register wallet');
  return { registration: row, created };
}

/** Marks the registration inactive (the row and its audit trail stay); false when none was active. */
async function deactivate(db: Database, ids: { token(bytes: number): string }, walletAddress: string, now: Date): Promise<boolean> {
  const work = db.transaction(async (tx) => {
    const rows = await tx
      .update(complianceWallets)
      .set({ active: false, deactivatedAt: now })
      .where(and(eq(complianceWallets.walletAddress, key(walletAddress)), eq(complianceWallets.active, true)))
      .returning();
    const [row] = rows;
    if (!row) return false;
    await tx.insert(complianceWalletAudit).values({ id: `aud_${ids.token(12)}`, walletAddress: row.walletAddress, action: 'DEACTIVATED', record: row, at: now });
    return true;
  });
  return bounded(work, 'deactivate wallet');
}

/** A stored check with its result as recorded: recordCheck writes only VoP results to the column. */
const checkRecord = (row: VopCheckRow): VopCheckRecord => ({ ...row, result: row.result as VopResult });

/** The last 50 checks of each wallet, newest first: one query per batch of wallets, ranked in the database. */
async function history(db: Database, walletAddresses: readonly string[]): Promise<Map<string, VopCheckRecord[]>> {
  const keys = [...new Set(walletAddresses.map(key))];
  const byWallet = new Map<string, VopCheckRecord[]>(keys.map((wallet) => [wallet, []]));
  if (keys.length === 0) return byWallet;
  const ranked = db
    .select({
      ...getTableColumns(vopChecks),
      rank: sql<number>`row_number() over (partition by ${vopChecks.walletAddress} order by ${vopChecks.checkedAt} desc, ${vopChecks.requestId} desc)`.as('rank'),
    })
    .from(vopChecks)
    .where(inArray(vopChecks.walletAddress, keys))
    .as('ranked');
  const query = db.select().from(ranked).where(lte(ranked.rank, VOP_HISTORY_LENGTH)).orderBy(ranked.walletAddress, ranked.rank).execute();
  for (const { rank: _rank, ...row } of await bounded(query, 'select from vop_checks')) {
    byWallet.get(row.walletAddress)?.push(checkRecord(row));
  }
  return byWallet;
}

/** The compliance subgraph's wallet registry and VoP checks (compliance_wallets, its audit, vop_checks); every call bounded in time. */
export function createComplianceStore(db: Database, ids: { token(bytes: number): string }) {
  const statements = preparedStatements(db);
  return {
    async activeRegistration(walletAddress: string): Promise<WalletRegistration | undefined> {
      const [row] = await bounded(statements.activeRegistration.execute({ walletAddress: key(walletAddress) }), 'select from compliance_wallets');
      return row;
    },

    /** The active registrations of these wallets, by lower-case address (one query per batch). */
    async activeRegistrations(walletAddresses: readonly string[]): Promise<Map<string, WalletRegistration>> {
      const keys = [...new Set(walletAddresses.map(key))];
      if (keys.length === 0) return new Map();
      const query = db
        .select()
        .from(complianceWallets)
        .where(and(inArray(complianceWallets.walletAddress, keys), eq(complianceWallets.active, true)))
        .execute();
      const rows = await bounded(query, 'select from compliance_wallets');
      return new Map(rows.map((row) => [row.walletAddress, row]));
    },

    /** Active registrations under any of these LEIs, for GET /lei/:lei and the graph (one query per batch). */
    async walletsByLei(leis: readonly string[]): Promise<WalletRegistration[]> {
      if (leis.length === 0) return [];
      const query = db
        .select()
        .from(complianceWallets)
        .where(and(inArray(complianceWallets.lei, [...leis]), eq(complianceWallets.active, true)))
        .orderBy(complianceWallets.walletAddress)
        .execute();
      return bounded(query, 'select from compliance_wallets by lei');
    },

    register: (registration: Omit<WalletRegistration, 'active' | 'deactivatedAt'>, now: Date) => register(db, ids, registration, now),
    deactivate: (walletAddress: string, now: Date) => deactivate(db, ids, walletAddress, now),

    async auditTrail(walletAddress: string) {
      const query = db
        .select()
        .from(complianceWalletAudit)
        .where(eq(complianceWalletAudit.walletAddress, key(walletAddress)))
        .orderBy(complianceWalletAudit.at)
        .execute();
      return bounded(query, 'select from compliance_wallet_audit');
    },

    async recordCheck(check: VopCheckRecord): Promise<void> {
      const score = check.score === null ? null : String(check.score);
      await bounded(statements.recordCheck.execute({ ...check, walletAddress: key(check.walletAddress), score }), 'insert into vop_checks');
    },

    /**
     * Many checks in one INSERT (the write-behind log's batch, decision 0096). A batch retried after
     * its first attempt was written but not acknowledged (the bound ran out, the answer was lost)
     * skips the rows already on file: otherwise every retry, and every check queued behind it,
     * would fail on the key for good.
     */
    async recordChecks(checks: readonly VopCheckRecord[]): Promise<void> {
      if (checks.length === 0) return;
      const rows = checks.map((check) => ({ ...check, walletAddress: key(check.walletAddress) }));
      await bounded(db.insert(vopChecks).values(rows).onConflictDoNothing({ target: vopChecks.requestId }).execute(), 'insert into vop_checks');
    },

    history: (walletAddresses: readonly string[]) => history(db, walletAddresses),
  };
}

export type ComplianceStore = ReturnType<typeof createComplianceStore>;

import { and, desc, eq, gte, inArray, isNull, notExists, type SQL, sql } from 'drizzle-orm';
import { agentHeldSettlements, ap2MandateUses, payments } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';
import type { PaymentStatus } from '../domain/index.js';
import type { RuleViolation } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;
/** Statuses that count towards an agent's daily cap: settled, or still under way (it may settle). */
const COUNTED: PaymentStatus[] = ['SETTLED', 'PENDING'];

/**
 * An AP2 mandate's use as it is recorded, its time aside: `reference` is VerifiedAp2Mandate.reference
 * (base64url SHA-256 of the mandate as presented), `railPaymentId` the settlement or hold it authorised.
 */
export type MandateUse = Omit<typeof ap2MandateUses.$inferInsert, 'usedAt'>;

export type HoldRow = typeof agentHeldSettlements.$inferSelect;
export type HoldStatus = HoldRow['status'];

/** A settlement held by its agent's mandate, as it is recorded (decision 0047). */
export interface NewHold {
  holdId: string;
  agentId: string;
  /** The settlement request as given; amount as decimal text. */
  request: { amount: string; sourceCurrency: string; destinationCurrency: string; recipientAddress: string };
  amountUsd: string;
  violations: RuleViolation[];
}

export interface HoldFilter {
  agentId?: string;
  status?: HoldStatus;
}

/**
 * The settlement agent's records (decisions 0027, 0047); every call bounded in time.
 * 1. settledSinceUsd: the USD an agent settled (or has under way) since a moment, from payments.
 * 2. recordMandateUse: an AP2 mandate's reference is inserted once (its primary key decides, on any
 *    replica); false when it was already used.
 * 3. Held settlements: each decision is one UPDATE conditioned on the hold's state, so of two
 *    operators (or replicas) deciding at once, one decides and the other reads the outcome.
 */
export function createAgentSettlementStore(db: Database, options: { timeoutMs?: number } = {}) {
  const store: StoreContext = { db, timeoutMs: options.timeoutMs ?? STORE_TIMEOUT_MS };
  return {
    settledSinceUsd: (agentId: string, since: Date) => settledSinceUsd(store, agentId, since),
    mandateUsed: (reference: string) => mandateUsed(store, reference),
    recordMandateUse: (use: MandateUse, now: Date) => recordMandateUse(store, use, now),
    recordHold: (hold: NewHold, now: Date) => recordHold(store, hold, now),
    findHold: (holdId: string) => findHold(store, holdId),
    listHolds: (filter: HoldFilter, limit: number) => listHolds(store, filter, limit),
    startRelease: (holdId: string, railPaymentId: string) => startRelease(store, holdId, railPaymentId),
    abandonRelease: (holdId: string, railPaymentId: string, tmsReference: string) => abandonRelease(store, holdId, railPaymentId, tmsReference),
    finishRelease: (holdId: string, railPaymentId: string, now: Date) => finishRelease(store, holdId, railPaymentId, now),
    dismissHold: (holdId: string, now: Date) => dismissHold(store, holdId, now),
  };
}

/** What the store's functions are given: the database and the bound of every call. */
interface StoreContext {
  db: Database;
  timeoutMs: number;
}

async function settledSinceUsd(store: StoreContext, agentId: string, since: Date): Promise<string> {
  const [row] = await boundedCall(
    store.db
      .select({ total: sql<string | null>`sum(${payments.agentAmountUsd})` })
      .from(payments)
      .where(and(eq(payments.agentId, agentId), gte(payments.submittedAt, since), inArray(payments.status, COUNTED)))
      .execute(),
    store.timeoutMs,
    "sum of an agent's settlements",
  );
  return row?.total == null ? '0' : String(row.total);
}

/** Whether the mandate authorised a settlement already (a read; recordMandateUse decides under a race). */
async function mandateUsed(store: StoreContext, reference: string): Promise<boolean> {
  const rows = await boundedCall(
    store.db.select({ reference: ap2MandateUses.reference }).from(ap2MandateUses).where(eq(ap2MandateUses.reference, reference)).execute(),
    store.timeoutMs,
    'select from ap2_mandate_uses',
  );
  return rows.length === 1;
}

async function recordMandateUse(store: StoreContext, use: MandateUse, now: Date): Promise<boolean> {
  const inserted = await boundedCall(
    store.db
      .insert(ap2MandateUses)
      .values({ ...use, usedAt: now })
      .onConflictDoNothing({ target: ap2MandateUses.reference })
      .returning({ reference: ap2MandateUses.reference })
      .execute(),
    store.timeoutMs,
    'insert into ap2_mandate_uses',
  );
  return inserted.length === 1;
}

async function recordHold(store: StoreContext, hold: NewHold, now: Date): Promise<void> {
  const { request } = hold;
  const values = { holdId: hold.holdId, agentId: hold.agentId, ...request, amountUsd: hold.amountUsd, violations: hold.violations, status: 'HELD' as const, createdAt: now };
  await boundedCall(store.db.insert(agentHeldSettlements).values(values).execute(), store.timeoutMs, 'insert into agent_held_settlements');
}

async function findHold(store: StoreContext, holdId: string): Promise<HoldRow | undefined> {
  const [row] = await boundedCall(store.db.select().from(agentHeldSettlements).where(eq(agentHeldSettlements.holdId, holdId)).execute(), store.timeoutMs, 'select a held settlement');
  return row;
}

/** Most recent first. */
async function listHolds(store: StoreContext, filter: HoldFilter, limit: number): Promise<HoldRow[]> {
  const conditions: SQL[] = [];
  if (filter.agentId !== undefined) conditions.push(eq(agentHeldSettlements.agentId, filter.agentId));
  if (filter.status !== undefined) conditions.push(eq(agentHeldSettlements.status, filter.status));
  const query = store.db
    .select()
    .from(agentHeldSettlements)
    .where(and(...conditions))
    .orderBy(desc(agentHeldSettlements.createdAt), desc(agentHeldSettlements.holdId))
    .limit(limit);
  return boundedCall(query.execute(), store.timeoutMs, 'select held settlements');
}

/**
 * A release starts: the hold, still HELD, records the railPaymentId its release proposes (an
 * earlier start's is kept), so it can no longer be dismissed; the payment's own id replaces it
 * at RELEASED (a concurrent release may have claimed the payment). False when not HELD.
 */
async function startRelease(store: StoreContext, holdId: string, railPaymentId: string): Promise<boolean> {
  const [row] = await boundedCall(
    store.db
      .update(agentHeldSettlements)
      .set({ railPaymentId: sql`coalesce(${agentHeldSettlements.railPaymentId}, ${railPaymentId})` })
      .where(and(eq(agentHeldSettlements.holdId, holdId), eq(agentHeldSettlements.status, 'HELD')))
      .returning({ holdId: agentHeldSettlements.holdId })
      .execute(),
    store.timeoutMs,
    'update agent_held_settlements (release started)',
  );
  return row !== undefined;
}

/**
 * Undoes startRelease when that release failed before its payment was claimed (no payment under
 * `tmsReference`): the hold may be dismissed again. A release of another process keeps its mark.
 */
async function abandonRelease(store: StoreContext, holdId: string, railPaymentId: string, tmsReference: string): Promise<boolean> {
  const undone = await boundedCall(
    store.db
      .update(agentHeldSettlements)
      .set({ railPaymentId: null })
      .where(
        and(
          eq(agentHeldSettlements.holdId, holdId),
          eq(agentHeldSettlements.status, 'HELD'),
          eq(agentHeldSettlements.railPaymentId, railPaymentId),
          notExists(
            store.db
              .select({ one: sql`1` })
              .from(payments)
              .where(eq(payments.tmsReference, tmsReference)),
          ),
        ),
      )
      .returning({ holdId: agentHeldSettlements.holdId })
      .execute(),
    store.timeoutMs,
    'update agent_held_settlements (release abandoned)',
  );
  return undone.length === 1;
}

/** HELD -> RELEASED with the payment that settled it; false when another release already did it. */
async function finishRelease(store: StoreContext, holdId: string, railPaymentId: string, now: Date): Promise<boolean> {
  const done = await boundedCall(
    store.db
      .update(agentHeldSettlements)
      .set({ status: 'RELEASED', railPaymentId, decidedAt: now })
      .where(and(eq(agentHeldSettlements.holdId, holdId), eq(agentHeldSettlements.status, 'HELD')))
      .returning({ holdId: agentHeldSettlements.holdId })
      .execute(),
    store.timeoutMs,
    'update agent_held_settlements (released)',
  );
  return done.length === 1;
}

/** HELD -> DISMISSED unless a release has started: the dismissed hold, or undefined when not done. */
async function dismissHold(store: StoreContext, holdId: string, now: Date): Promise<HoldRow | undefined> {
  const [dismissed] = await boundedCall(
    store.db
      .update(agentHeldSettlements)
      .set({ status: 'DISMISSED', decidedAt: now })
      .where(and(eq(agentHeldSettlements.holdId, holdId), eq(agentHeldSettlements.status, 'HELD'), isNull(agentHeldSettlements.railPaymentId)))
      .returning()
      .execute(),
    store.timeoutMs,
    'update agent_held_settlements (dismissed)',
  );
  return dismissed;
}

export type AgentSettlementStore = ReturnType<typeof createAgentSettlementStore>;

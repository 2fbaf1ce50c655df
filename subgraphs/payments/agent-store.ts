import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { ap2MandateUses, payments } from '../../drizzle/schema.js';
import type { Database } from '../../platform/db.js';
import { boundedCall } from '../../platform/timeout.js';
import type { PaymentStatus } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;
/** Statuses that count towards an agent's daily cap: settled, or still under way (it may settle). */
const COUNTED: PaymentStatus[] = ['SETTLED', 'PENDING'];

export interface MandateUse {
  /** VerifiedAp2Mandate.reference: base64url SHA-256 of the mandate as presented. */
  reference: string;
  issuer: string;
  railPaymentId: string;
}

/**
 * The settlement agent's records (decision 0027); every call bounded in time.
 * 1. settledSinceUsd: the USD an agent settled (or has under way) since a moment, from payments.
 * 2. recordMandateUse: an AP2 mandate's reference is inserted once (its primary key decides, on any
 *    replica); false when it was already used.
 */
export function createAgentSettlementStore(db: Database, options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  return {
    async settledSinceUsd(agentId: string, since: Date): Promise<string> {
      const [row] = await boundedCall(
        db
          .select({ total: sql<string | null>`sum(${payments.agentAmountUsd})` })
          .from(payments)
          .where(and(eq(payments.agentId, agentId), gte(payments.submittedAt, since), inArray(payments.status, COUNTED)))
          .execute(),
        timeoutMs,
        'sum of an agent\'s settlements',
      );
      return row?.total == null ? '0' : String(row.total);
    },

    async recordMandateUse(use: MandateUse, now: Date): Promise<boolean> {
      const inserted = await boundedCall(
        db.insert(ap2MandateUses).values({ ...use, usedAt: now }).onConflictDoNothing({ target: ap2MandateUses.reference }).returning({ reference: ap2MandateUses.reference }).execute(),
        timeoutMs,
        'insert into ap2_mandate_uses',
      );
      return inserted.length === 1;
    },
  };
}

export type AgentSettlementStore = ReturnType<typeof createAgentSettlementStore>;

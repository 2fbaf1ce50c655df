import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { intelligenceReports } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';

const STORE_TIMEOUT_MS = 5000;

/** An answer as kept: the JSON value, when it was generated and until when it is served. */
export interface KeptAnswer {
  value: unknown;
  generatedAt: Date;
  expiresAt: Date;
}

/**
 * The answers of the intelligence service (paid reports and signals), kept in PostgreSQL for their
 * cache window so that every replica on one database serves the one answer generated first.
 */
export interface AnswerStore {
  /** The answer kept under `cacheKey` and still fresh at `now`, if any. */
  fresh(cacheKey: string, now: Date): Promise<KeptAnswer | undefined>;
  /**
   * Keeps `value` until `expiresAt` unless a fresh answer is already kept (another request or
   * replica generated it first): returns whichever answer is kept, so every caller in the window
   * gets the same one.
   */
  keep(cacheKey: string, value: unknown, now: Date, expiresAt: Date): Promise<KeptAnswer>;
}

export function createAnswerStore(db: Database): AnswerStore {
  async function fresh(cacheKey: string, now: Date): Promise<KeptAnswer | undefined> {
    const select = db
      .select({ value: intelligenceReports.report, generatedAt: intelligenceReports.generatedAt, expiresAt: intelligenceReports.expiresAt })
      .from(intelligenceReports)
      .where(and(eq(intelligenceReports.cacheKey, cacheKey), gt(intelligenceReports.expiresAt, now)))
      .execute();
    const [row] = await boundedCall(select, STORE_TIMEOUT_MS, 'select from intelligence_reports');
    return row;
  }
  return {
    fresh,
    async keep(cacheKey, value, now, expiresAt) {
      const upsert = db
        .insert(intelligenceReports)
        .values({ cacheKey, report: value, generatedAt: now, expiresAt })
        .onConflictDoUpdate({
          target: intelligenceReports.cacheKey,
          set: { report: sql`excluded.report`, generatedAt: sql`excluded.generated_at`, expiresAt: sql`excluded.expires_at` },
          // Only an expired answer is replaced: a fresh one stays for the rest of its window.
          setWhere: lte(intelligenceReports.expiresAt, now),
        })
        .returning({ cacheKey: intelligenceReports.cacheKey })
        .execute();
      const written = await boundedCall(upsert, STORE_TIMEOUT_MS, 'upsert into intelligence_reports');
      if (written.length === 1) return { value, generatedAt: now, expiresAt };
      return (await fresh(cacheKey, now)) ?? { value, generatedAt: now, expiresAt };
    },
  };
}

import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { intelligenceReports } from '../../drizzle/schema.js';
import type { Database } from '../../platform/db.js';
import { boundedCall } from '../../platform/timeout.js';
import type { Report } from './domain/index.js';

const STORE_TIMEOUT_MS = 5000;

export interface ReportStore {
  /** The report cached under `cacheKey` and still fresh at `now`, with its expiry, if any. */
  fresh(cacheKey: string, now: Date): Promise<KeptReport | undefined>;
  /**
   * Keeps `report` until `expiresAt` unless a fresh one is already kept (another request or
   * replica generated it first): returns whichever report is kept, so every caller in the
   * window gets the same one.
   */
  keep(cacheKey: string, report: Report, now: Date, expiresAt: Date): Promise<KeptReport>;
}

export interface KeptReport {
  report: Report;
  expiresAt: Date;
}

export function createReportStore(db: Database): ReportStore {
  async function fresh(cacheKey: string, now: Date): Promise<KeptReport | undefined> {
    const select = db
      .select({ report: intelligenceReports.report, expiresAt: intelligenceReports.expiresAt })
      .from(intelligenceReports)
      .where(and(eq(intelligenceReports.cacheKey, cacheKey), gt(intelligenceReports.expiresAt, now)))
      .execute();
    const [row] = await boundedCall(select, STORE_TIMEOUT_MS, 'select from intelligence_reports');
    return row ? { report: row.report as Report, expiresAt: row.expiresAt } : undefined;
  }
  return {
    fresh,
    async keep(cacheKey, report, now, expiresAt) {
      const upsert = db
        .insert(intelligenceReports)
        .values({ cacheKey, report, generatedAt: now, expiresAt })
        .onConflictDoUpdate({
          target: intelligenceReports.cacheKey,
          set: { report: sql`excluded.report`, generatedAt: sql`excluded.generated_at`, expiresAt: sql`excluded.expires_at` },
          // Only an expired report is replaced: a fresh one stays for the rest of its window.
          setWhere: lte(intelligenceReports.expiresAt, now),
        })
        .returning({ cacheKey: intelligenceReports.cacheKey })
        .execute();
      const written = await boundedCall(upsert, STORE_TIMEOUT_MS, 'upsert into intelligence_reports');
      if (written.length === 1) return { report, expiresAt };
      return (await fresh(cacheKey, now)) ?? { report, expiresAt };
    },
  };
}

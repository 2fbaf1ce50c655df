// The intelligence subgraph's table: its paid reports (subgraphs/intelligence).
import { json, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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

// The intelligence subgraph's ledger of calls: what the predictive models said and how each call
// resolved (subgraphs/intelligence/predictive, decision 0075). Both tables are insert-only: a
// trigger of the migration refuses UPDATE and DELETE of their rows.
import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, json, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * One call per model, subject and period, as issued: the probability of its stated outcome, its
 * evidence and its machine-checkable resolution rule (in `call`). Never updated: the resolution is
 * a row of its own in intelligence_ledger_resolutions.
 */
export const intelligenceLedgerCalls = pgTable(
  'intelligence_ledger_calls',
  {
    /** `model:subject:period`: the same on every replica, so two sweeps name the same call. */
    id: text('id').primaryKey(),
    model: text('model').notNull(),
    subject: text('subject').notNull(),
    period: text('period').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    resolvesAt: timestamp('resolves_at', { withTimezone: true, mode: 'date' }).notNull(),
    statement: text('statement').notNull(),
    probability: doublePrecision('probability').notNull(),
    /** json, not jsonb: the evidence and rule come back as written, keys in their order. */
    call: json('call').notNull(),
  },
  (table) => [
    unique('intelligence_ledger_calls_once_per_period').on(table.model, table.subject, table.period),
    index('intelligence_ledger_calls_resolves_at_idx').on(table.resolvesAt),
    check('intelligence_ledger_calls_probability_check', sql`${table.probability} >= 0 and ${table.probability} <= 1`),
  ],
);

/**
 * How a call resolved once its horizon passed: RESOLVED with the outcome and the value observed on
 * the dataset as it stood at the horizon, or VOID when no new observation ever came. One per call.
 */
export const intelligenceLedgerResolutions = pgTable(
  'intelligence_ledger_resolutions',
  {
    /** The call's id (no foreign key: the house's migrations name no schema, and a resolution is only written for a call read from the table). */
    callId: text('call_id').primaryKey(),
    status: text('status').notNull(),
    /** Null exactly when VOID. */
    outcome: boolean('outcome'),
    observed: json('observed').notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    check('intelligence_ledger_resolutions_status_check', sql`${table.status} in ('RESOLVED', 'VOID')`),
    check('intelligence_ledger_resolutions_outcome_check', sql`(${table.status} = 'VOID') = (${table.outcome} is null)`),
  ],
);

// The reference-data tables (drizzle/schema.ts, compliance banner; decision 0021): which version of
// each shipped dataset is loaded, and the dataset's records in queryable form. A dataset is replaced
// whole, rows and reference_datasets row, in one transaction under a transaction-scoped advisory
// lock, so readers never see half a dataset and two processes starting at once import it once.

import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { fatfJurisdictions, leiRecords, leiRelationships, pepRecords, referenceDatasets, sdnAddresses, sdnAliases, sdnDigitalCurrencyAddresses, sdnEntries } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';

const STORE_TIMEOUT_MS = 5000;
/**
 * One dataset's replacement: the lock wait (another process importing the same dataset) and some
 * 50,000 rows on PGlite. Also the server-side statement_timeout inside that transaction.
 */
export const REPLACE_TIMEOUT_MS = 120_000;
/** Rows per INSERT statement (the widest table has 15 columns: 15,000 parameters, under PostgreSQL's 65,535). */
export const INSERT_BATCH_ROWS = 1000;

export type ReferenceDatasetRow = typeof referenceDatasets.$inferSelect;

/** A dataset's rows, table by table; `kind` says which tables the dataset owns. */
export type ReferenceRows =
  | {
      kind: 'sdn';
      entries: (typeof sdnEntries.$inferInsert)[];
      aliases: (typeof sdnAliases.$inferInsert)[];
      addresses: (typeof sdnAddresses.$inferInsert)[];
      digitalCurrencyAddresses: (typeof sdnDigitalCurrencyAddresses.$inferInsert)[];
    }
  | { kind: 'pep'; records: (typeof pepRecords.$inferInsert)[] }
  | { kind: 'lei'; records: (typeof leiRecords.$inferInsert)[]; relationships: (typeof leiRelationships.$inferInsert)[] }
  | { kind: 'fatf'; jurisdictions: (typeof fatfJurisdictions.$inferInsert)[] };

/** What replaces a dataset: its reference_datasets row and its records. */
export interface DatasetReplacement {
  dataset: Omit<ReferenceDatasetRow, 'loadedAt'>;
  rows: ReferenceRows;
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Inserts `rows` INSERT_BATCH_ROWS at a time, each batch one statement with one parameter: the
 * rows as a JSON array expanded by jsonb_to_recordset into the table's columns and types. About
 * three times quicker on PGlite than a VALUES list binding one parameter per cell.
 */
async function insertBatched<T extends PgTable>(tx: Transaction, table: T, rows: readonly T['$inferInsert'][]): Promise<void> {
  const columns = Object.entries(getTableColumns(table));
  const names = sql.raw(columns.map(([, column]) => quoted(column.name)).join(', '));
  const definition = sql.raw(columns.map(([, column]) => `${quoted(column.name)} ${column.getSQLType()}`).join(', '));
  for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
    const batch = rows.slice(start, start + INSERT_BATCH_ROWS).map((row) => {
      const values: Record<string, unknown> = row;
      return Object.fromEntries(columns.map(([key, column]) => [column.name, values[key] ?? null]));
    });
    await tx.execute(sql`insert into ${table} (${names}) select ${names} from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as rows(${definition})`);
  }
}

/** Deletes what the dataset owns and inserts its new rows (inside the caller's transaction). */
async function replaceRows(tx: Transaction, dataset: string, rows: ReferenceRows): Promise<void> {
  switch (rows.kind) {
    case 'sdn':
      for (const table of [sdnDigitalCurrencyAddresses, sdnAddresses, sdnAliases, sdnEntries]) await tx.delete(table);
      await insertBatched(tx, sdnEntries, rows.entries);
      await insertBatched(tx, sdnAliases, rows.aliases);
      await insertBatched(tx, sdnAddresses, rows.addresses);
      await insertBatched(tx, sdnDigitalCurrencyAddresses, rows.digitalCurrencyAddresses);
      return;
    case 'pep':
      await tx.delete(pepRecords).where(eq(pepRecords.dataset, dataset));
      await insertBatched(tx, pepRecords, rows.records);
      return;
    case 'lei':
      await tx.delete(leiRelationships);
      await tx.delete(leiRecords);
      await insertBatched(tx, leiRecords, rows.records);
      await insertBatched(tx, leiRelationships, rows.relationships);
      return;
    case 'fatf':
      await tx.delete(fatfJurisdictions);
      await insertBatched(tx, fatfJurisdictions, rows.jurisdictions);
      return;
  }
}

export function createReferenceStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string, timeoutMs = STORE_TIMEOUT_MS) => boundedCall(work, timeoutMs, operation);

  return {
    /** The sha256 of every loaded dataset: one SELECT, all a start costs when nothing changed. */
    async loadedDigests(): Promise<Map<string, string>> {
      const query = db.select({ dataset: referenceDatasets.dataset, sha256: referenceDatasets.sha256 }).from(referenceDatasets).execute();
      const rows = await bounded(query, 'select from reference_datasets');
      return new Map(rows.map((row) => [row.dataset, row.sha256]));
    },

    /**
     * Replaces the dataset in one transaction unless, once the dataset's advisory lock is held, the
     * loaded sha256 already equals the replacement's (another process imported it meanwhile).
     * True when this call wrote the dataset.
     */
    async replaceDataset(replacement: DatasetReplacement, loadedAt: Date): Promise<boolean> {
      const { dataset, rows } = replacement;
      const work = db.transaction(async (tx) => {
        // The lock wait and the bulk insert may outlast the session's default statement_timeout.
        await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${REPLACE_TIMEOUT_MS}`));
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`compliance.reference-data.${dataset.dataset}`}, 0))`);
        const [current] = await tx.select({ sha256: referenceDatasets.sha256 }).from(referenceDatasets).where(eq(referenceDatasets.dataset, dataset.dataset));
        if (current?.sha256 === dataset.sha256) return false;
        await replaceRows(tx, dataset.dataset, rows);
        const row: ReferenceDatasetRow = { ...dataset, loadedAt };
        await tx.insert(referenceDatasets).values(row).onConflictDoUpdate({ target: referenceDatasets.dataset, set: row });
        return true;
      });
      return bounded(work, `import reference dataset ${dataset.dataset}`, REPLACE_TIMEOUT_MS);
    },

    /** Every loaded dataset, by name: GET /compliance/reference-data. */
    async datasets(): Promise<ReferenceDatasetRow[]> {
      const query = db.select().from(referenceDatasets).orderBy(asc(referenceDatasets.dataset)).execute();
      return bounded(query, 'select from reference_datasets');
    },
  };
}

export type ReferenceStore = ReturnType<typeof createReferenceStore>;

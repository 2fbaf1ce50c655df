import type { DatasetDigest } from './import.js';
import type { ReferenceDataResult } from './responses.js';
import type { ReferenceStore } from './store.js';

export interface ReferenceDataServiceDeps {
  store: Pick<ReferenceStore, 'datasets'>;
  /** The digests of the files this process screens with (reference/import.ts shippedReferenceDigests). */
  digests: () => readonly DatasetDigest[];
}

/** What the database holds of the reference data, for the operator: which list version screened a payment. */
export function createReferenceDataService(deps: ReferenceDataServiceDeps) {
  return {
    async datasets(): Promise<ReferenceDataResult> {
      const inUse = new Map<string, string>(deps.digests().map((digest) => [digest.dataset, digest.sha256]));
      const rows = await deps.store.datasets();
      return {
        datasets: rows.map((row) => ({
          dataset: row.dataset,
          source: row.source,
          url: row.url,
          asOf: row.asOf,
          licence: row.licence,
          records: row.records,
          sha256: row.sha256,
          files: row.files,
          loadedAt: row.loadedAt.toISOString(),
          inUse: inUse.get(row.dataset) === row.sha256,
        })),
      };
    },
  };
}

export type ReferenceDataService = ReturnType<typeof createReferenceDataService>;

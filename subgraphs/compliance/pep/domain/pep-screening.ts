// PEP screening: the same matcher as sanctions screening (NameIndex) over the names of PEP records.

import { NameIndex, PEP_MATCH_THRESHOLD, type PepRecord, type ScreenStatistics } from '../../domain/index.js';

export interface PepMatch {
  record: PepRecord;
  matchedName: string;
  /** nameSimilarity in [0, 1]; at or above the threshold of the screen. */
  score: number;
}

export interface PepScreenOptions {
  /** Defaults to PEP_MATCH_THRESHOLD (0.60). */
  threshold?: number;
  limit?: number;
  /** ISO 3166-1 alpha-2: only records of this country (Document 2: country narrows the results). */
  country?: string;
  /** Only records in office at their source's as-of date. */
  currentOnly?: boolean;
}

export interface PepIndex {
  readonly size: { records: number; names: number };
  screen(name: string, options?: PepScreenOptions): { matches: PepMatch[]; statistics: ScreenStatistics };
  /** The score a screen of `query` gives the name `listed` (NameIndex.similarity). */
  similarity(query: string, listed: string): number;
}

/** Builds the name index over every record's name and other names. */
export function buildPepIndex(records: readonly PepRecord[]): PepIndex {
  const index = new NameIndex<PepRecord, 'name' | 'other'>(
    records.map((record) => ({
      record,
      names: [{ name: record.name, kind: 'name' as const }, ...record.otherNames.map((name) => ({ name, kind: 'other' as const }))],
    })),
  );
  return {
    size: { records: index.size.records, names: index.size.names },
    similarity: (query, listed) => index.similarity(query, listed),
    screen(name, options = {}) {
      const country = options.country?.toUpperCase();
      const filter =
        country !== undefined || options.currentOnly ? (record: PepRecord) => (country === undefined || record.country === country) && (!options.currentOnly || record.current) : undefined;
      const { matches, statistics } = index.screen(name, {
        threshold: options.threshold ?? PEP_MATCH_THRESHOLD,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(filter ? { filter } : {}),
      });
      return { matches: matches.map((m) => ({ record: m.record, matchedName: m.matchedName, score: m.score })), statistics };
    },
  };
}

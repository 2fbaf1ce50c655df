// The shipped price series (data/series): sources.json and each CSV it lists, read through the feed
// layer's parse and map (platform/sources/series-csv), so the snapshot's prices are the published
// files' values and nothing typed by hand.

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type DatedObservation, mapSeriesCsv, parseSeriesCsv } from '../../../platform/sources/index.js';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

/** One file's provenance, in the schema of the intelligence subgraph's sources.json files. */
export const seriesSourceSchema = z.strictObject({
  file: z.string().regex(/^[a-z0-9_]+\.csv$/),
  seriesId: z.string().min(1),
  title: z.string().min(1),
  units: z.string().min(1),
  frequency: z.enum(['daily', 'monthly']),
  publisher: z.string().min(1),
  url: z.url(),
  licence: z.string().min(1),
  first: isoDate,
  /** The last observation's date. */
  asOf: isoDate,
  rows: z.number().int().positive(),
  copiedFrom: z.strictObject({ repository: z.string().min(1), path: z.string().min(1), commit: z.string().regex(/^[0-9a-f]{40}$/), commitDate: isoDate }),
  notes: z.string().optional(),
  trimmed: z.string().optional(),
});

export const seriesSourcesFileSchema = z.strictObject({ description: z.string().min(1), series: z.record(z.string(), seriesSourceSchema) });

export type SeriesSource = z.infer<typeof seriesSourceSchema>;

/** A shipped series: where it came from and its published values, ascending. */
export interface ShippedSeries {
  source: SeriesSource;
  observations: readonly DatedObservation[];
}

const seriesFolder = new URL('./series/', import.meta.url);

/**
 * Every series sources.json lists, by key. Throws when sources.json is malformed, a file breaks the
 * series format, or a file's first date, last date or row count differs from what sources.json says.
 */
export function loadShippedSeries(): ReadonlyMap<string, ShippedSeries> {
  const manifest = seriesSourcesFileSchema.parse(JSON.parse(readFileSync(new URL('sources.json', seriesFolder), 'utf8')));
  return new Map(Object.entries(manifest.series).map(([key, source]) => [key, readSeries(source)] as const));
}

function readSeries(source: SeriesSource): ShippedSeries {
  const rows = parseSeriesCsv(readFileSync(new URL(source.file, seriesFolder), 'utf8'), source.file);
  const found = { first: rows[0]?.date, asOf: rows.at(-1)?.date, rows: rows.length };
  const listed = { first: source.first, asOf: source.asOf, rows: source.rows };
  if (JSON.stringify(found) !== JSON.stringify(listed)) {
    throw new Error(`data/series/${source.file} holds ${JSON.stringify(found)} but sources.json lists ${JSON.stringify(listed)}`);
  }
  return { source, observations: mapSeriesCsv(rows) };
}

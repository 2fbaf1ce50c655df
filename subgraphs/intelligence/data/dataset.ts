import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { Frequency, Series, SeriesSet } from '../domain/index.js';

/**
 * Every shipped input series: each folder under data/ that holds a sources.json lists its CSV files
 * (date,value ascending; `layout: long` for date,key,value) with publisher, URL, licence, as-of and
 * the public repository commit it was copied from. A file without an entry is never read.
 */
export const seriesSourceSchema = z.object({
  file: z.string(),
  seriesId: z.string(),
  title: z.string().min(1),
  units: z.string().min(1),
  frequency: z.string(),
  publisher: z.string().min(1),
  url: z.url(),
  licence: z.string().min(1),
  first: z.string(),
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  rows: z.number().int(),
  copiedFrom: z.object({ repository: z.string(), path: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/), commitDate: z.string() }),
  layout: z.literal('long').optional(),
  notes: z.string().optional(),
  trimmed: z.string().optional(),
});

export const sourcesFileSchema = z.object({ description: z.string(), series: z.record(z.string(), seriesSourceSchema) });

export type SeriesSourceEntry = z.infer<typeof seriesSourceSchema>;

const dataFolder = new URL('./', import.meta.url);

function frequencyOf(text: string): Frequency {
  const known: Frequency[] = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'];
  const found = known.find((frequency) => text.startsWith(frequency));
  if (!found) throw new Error(`unknown frequency ${text}`);
  return found;
}

/** The folders under data/ that ship series, with their parsed sources.json. */
export function sourceManifests(): Array<{ folder: URL; entries: Record<string, SeriesSourceEntry> }> {
  return readdirSync(dataFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const folder = new URL(`${entry.name}/`, dataFolder);
      if (!readdirSync(folder).includes('sources.json')) return [];
      return [{ folder, entries: sourcesFileSchema.parse(JSON.parse(readFileSync(new URL('sources.json', folder), 'utf8'))).series }];
    });
}

function seriesOf(id: string, entry: SeriesSourceEntry, observations: Array<{ date: string; value: number }>): Series {
  const last = observations.at(-1);
  return {
    id,
    title: entry.title,
    units: entry.units,
    frequency: frequencyOf(entry.frequency),
    publisher: entry.publisher,
    url: entry.url,
    licence: entry.licence,
    asOf: last?.date ?? entry.asOf,
    live: false,
    observations,
  };
}

function readSeries(folder: URL, id: string, entry: SeriesSourceEntry): Series[] {
  const rows = parse(readFileSync(new URL(entry.file, folder), 'utf8'), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  const observation = (row: Record<string, string>) => ({ date: row.date!.slice(0, 10), value: Number(row.value) });
  if (entry.layout !== 'long')
    return [
      seriesOf(
        id,
        entry,
        rows.map(observation).filter((row) => Number.isFinite(row.value)),
      ),
    ];
  const keyColumn = Object.keys(rows[0] ?? {}).find((column) => column !== 'date' && column !== 'value')!;
  const byKey = Map.groupBy(rows, (row) => row[keyColumn]!);
  return [...byKey].map(([key, keyed]) =>
    seriesOf(
      `${id}:${key}`,
      { ...entry, title: `${entry.title} (${key})` },
      keyed.map(observation).filter((row) => Number.isFinite(row.value)),
    ),
  );
}

let snapshot: SeriesSet | undefined;

/** Every shipped series by id, parsed once per process. */
export function snapshotSeries(): SeriesSet {
  snapshot ??= new Map(
    sourceManifests().flatMap(({ folder, entries }) => Object.entries(entries).flatMap(([id, entry]) => readSeries(folder, id, entry).map((series) => [series.id, series] as const))),
  );
  return snapshot;
}

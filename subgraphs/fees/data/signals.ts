import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { SeriesFrequency, SignalSeries } from '../domain/index.js';
import type { StabilityParameters } from '../stability/domain/index.js';
import stabilityParametersJson from './stability-parameters.json' with { type: 'json' };

const sourcesSchema = z.object({
  series: z.record(z.string(), z.object({ series_id: z.string(), title: z.string(), frequency: z.string(), publisher: z.string(), url: z.string(), last: z.string(), licence: z.string() })),
});

const folder = new URL('./signals/', import.meta.url);
const sources = sourcesSchema.parse(JSON.parse(readFileSync(new URL('sources.json', folder), 'utf8'))).series;

function frequencyOf(text: string): SeriesFrequency {
  const known: SeriesFrequency[] = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'];
  const found = known.find((frequency) => text.startsWith(frequency));
  if (!found) throw new Error(`unknown frequency ${text}`);
  return found;
}

function readSeries(id: string): SignalSeries {
  const source = sources[id]!;
  const rows = parse(readFileSync(new URL(`${id}.csv`, folder), 'utf8'), { columns: true, skip_empty_lines: true }) as Array<{ date: string; value: string }>;
  return {
    id,
    title: source.title,
    frequency: frequencyOf(source.frequency),
    observations: rows.map((row) => ({ date: row.date, value: Number(row.value) })).filter((row) => Number.isFinite(row.value)),
    source: source.publisher,
    url: source.url,
  };
}

let snapshot: Record<string, SignalSeries> | undefined;

/** The shipped snapshot of every signal series (data/signals, sources.json), parsed once. */
export function signalSnapshot(): Record<string, SignalSeries> {
  snapshot ??= Object.fromEntries(Object.keys(sources).map((id) => [id, readSeries(id)]));
  return snapshot;
}

/** The newest observation date of the shipped snapshot. */
export function snapshotAsOf(): string {
  return Object.values(sources).reduce((latest, source) => (source.last > latest ? source.last : latest), '');
}

/** The stability pipeline's parameters (stability-parameters.json). */
export const stabilityParameters: StabilityParameters = stabilityParametersJson;

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CURRENCY_CODE, type FxObservation, latestObservation, parseFxSeries } from '../domain/index.js';

/**
 * The daily FX series shipped in data/fx/ (decision 0026): Federal Reserve H.10 noon buying rates,
 * units of the currency per 1 USD, rows from 2026-01-01 of the shared series snapshot
 * (/work/shared/data/series/PROVENANCE.md); sources.json gives each one's source, URL, as-of date
 * and licence. Read and parsed once, on first use; a malformed file throws.
 */

const provenanceSchema = z.object({
  file: z.string().regex(/^[A-Z]{3}\.csv$/),
  seriesId: z.string(),
  title: z.string(),
  units: z.string(),
  source: z.string(),
  url: z.string().url(),
  copiedFrom: z.string(),
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  lastObservation: z.string(),
  licence: z.string(),
});
const sourcesSchema = z.object({
  description: z.string(),
  direction: z.literal('units of currency per 1 USD'),
  extractedFrom: z.string(),
  currencies: z.record(z.string().regex(CURRENCY_CODE), provenanceSchema),
});

export type FxProvenance = z.infer<typeof provenanceSchema>;

export interface FxSeries {
  currency: string;
  provenance: FxProvenance;
  /** Ascending. */
  observations: FxObservation[];
  latest: FxObservation;
}

const read = (path: string): string => readFileSync(new URL(`./fx/${path}`, import.meta.url), 'utf8');

let loaded: ReadonlyMap<string, FxSeries> | undefined;

/** Every shipped series by currency code. */
export function fxSeries(): ReadonlyMap<string, FxSeries> {
  if (loaded) return loaded;
  const sources = sourcesSchema.parse(JSON.parse(read('sources.json')));
  const series = new Map<string, FxSeries>();
  for (const [currency, provenance] of Object.entries(sources.currencies)) {
    const observations = parseFxSeries(read(provenance.file), provenance.file);
    const latest = latestObservation(observations);
    if (latest.date !== provenance.lastObservation) throw new Error(`fx/${provenance.file}: the last row is ${latest.date}, sources.json says ${provenance.lastObservation}`);
    series.set(currency, { currency, provenance, observations, latest });
  }
  loaded = series;
  return series;
}

import { z } from 'zod';
import encoreJson from '../data/planetary/reference/encore-dependency-ratings.json' with { type: 'json' };
import tippingJson from '../data/planetary/reference/tipping-points.json' with { type: 'json' };
import type { SeriesSource } from '../domain/index.js';
import type { DependencyTable, TippingPointTable } from './domain/index.js';

/**
 * The planetary family's reference tables (data/planetary/reference/): published tables that are
 * not time series. Each carries its source block, and enters an answer's inputs as a source with
 * the table's as-of date, so the envelope shows where its figures come from like any series.
 */
const sourceSchema = z.object({
  title: z.string().min(1),
  publisher: z.string().min(1),
  url: z.url(),
  licence: z.string().min(1),
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

const tippingSchema = z.object({
  source: sourceSchema,
  elements: z.array(z.object({ id: z.string(), name: z.string(), centralC: z.number(), minC: z.number(), maxC: z.number() })).length(9),
});

const encoreSchema = z.object({
  source: sourceSchema,
  processes: z.array(z.object({ isicCode: z.string(), isicClass: z.string(), ratings: z.record(z.string(), z.string()) })).min(1),
});

function tableSource(id: string, units: string, source: z.infer<typeof sourceSchema>): SeriesSource {
  return { id, title: source.title, units, frequency: 'annual', publisher: source.publisher, url: source.url, licence: source.licence, asOf: source.asOf, live: false };
}

export function tippingPointTable(): TippingPointTable {
  const table = tippingSchema.parse(tippingJson);
  return { elements: table.elements, source: tableSource('armstrong_mckay_2022_tipping_points', 'degrees C above 1850-1900', table.source) };
}

export function dependencyTable(): DependencyTable {
  const table = encoreSchema.parse(encoreJson);
  return { processes: table.processes, source: tableSource('encore_dependency_ratings', 'materiality rating VH/H/M/L/VL, N/A, ND', table.source) };
}

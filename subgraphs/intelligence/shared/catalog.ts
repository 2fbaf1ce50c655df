import { parseUnits } from 'viem';
import { z } from 'zod';
import type { Offer } from '../../../platform/access/admission.js';
import catalogJson from '../data/catalog.json' with { type: 'json' };

const USDC_DECIMALS = 6;

const catalogSchema = z.object({
  description: z.string(),
  endpoints: z.record(
    z.string(),
    z.object({
      method: z.enum(['GET', 'POST']),
      path: z.string().startsWith('/'),
      priceUsd: z.string().regex(/^\d+\.\d{2}$/),
      cacheSeconds: z.number().int().positive().nullable(),
      category: z.string(),
    }),
  ),
});

/** The endpoint table of Document 3 §4 (data/catalog.json): what each path costs and how long its answer is cached. */
export const SIGNAL_CATALOG = catalogSchema.parse(catalogJson).endpoints;

export type SignalId = string;

export interface CatalogEntry {
  id: SignalId;
  method: 'GET' | 'POST';
  path: string;
  priceUsd: string;
  /** Null: every call computes afresh. */
  cacheMs: number | null;
  category: string;
  offer: Offer;
}

export function catalogEntry(id: SignalId, description: string): CatalogEntry {
  const entry = SIGNAL_CATALOG[id];
  if (!entry) throw new Error(`no catalog entry for intelligence endpoint ${id}`);
  return {
    id,
    method: entry.method,
    path: entry.path,
    priceUsd: entry.priceUsd,
    cacheMs: entry.cacheSeconds === null ? null : entry.cacheSeconds * 1000,
    category: entry.category,
    offer: { price: { amount: parseUnits(entry.priceUsd, USDC_DECIMALS), description } },
  };
}

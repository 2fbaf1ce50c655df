// The unit prices of streaming sessions (stream-prices.json): our own list prices in token base
// units, validated once. A malformed file throws from the loader.

import { z } from 'zod';
import { readDataFile } from './files.js';

/** The units a session can be metered in (Document 2 §2, the discovery entry of POST /stream/open). */
export const STREAM_UNIT_TYPES = ['second', 'token', 'call', 'byte'] as const;
export type StreamUnitType = (typeof STREAM_UNIT_TYPES)[number];

const baseUnits = z
  .string()
  .regex(/^[1-9][0-9]{0,11}$/, 'must be a positive whole number of base units (at most 12 digits)')
  .transform((value) => BigInt(value));
const unitPrice = z.strictObject({ unitPrice: baseUnits, note: z.string().min(1) });

export const streamPricesSchema = z.strictObject({
  version: z.string().min(1),
  documentation: z.string().min(1),
  decimals: z.literal(6),
  currency: z.literal('USDC'),
  unitPrices: z.strictObject(Object.fromEntries(STREAM_UNIT_TYPES.map((unitType) => [unitType, unitPrice])) as Record<StreamUnitType, typeof unitPrice>),
});

export interface StreamPrices {
  version: string;
  /** Base units per unit, by unit type. */
  unitPrices: Record<StreamUnitType, bigint>;
}

/** Validates a price document (the shipped one, or a test's). */
export function parseStreamPrices(document: unknown): StreamPrices {
  const parsed = streamPricesSchema.parse(document);
  const unitPrices = Object.fromEntries(STREAM_UNIT_TYPES.map((unitType) => [unitType, parsed.unitPrices[unitType].unitPrice])) as Record<StreamUnitType, bigint>;
  return { version: parsed.version, unitPrices };
}

let shipped: StreamPrices | undefined;

/** The shipped stream-prices.json, read and validated on first use. */
export function streamPrices(): StreamPrices {
  shipped ??= parseStreamPrices(JSON.parse(readDataFile('stream-prices.json')));
  return shipped;
}

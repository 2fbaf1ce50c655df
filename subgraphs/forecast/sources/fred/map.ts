// Pure: FRED observations into the contract's price points.

import type { PricePoint } from '../../domain/types.js';
import type { FredObservation } from './parse.js';

const NUMBER = /^-?\d+(\.\d+)?$/;

/** Dated prices in date order; "." (missing) and any other non-number are left out. */
export function mapPricePoints(observations: readonly FredObservation[]): PricePoint[] {
  return observations
    .filter((o) => NUMBER.test(o.value))
    .map((o) => ({ date: o.date, price: Number(o.value) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

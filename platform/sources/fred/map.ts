// Pure: FRED observations into a dated series.

import type { DatedObservation } from '../types.js';
import type { FredObservation } from './parse.js';

const NUMBER = /^-?\d+(\.\d+)?$/;

/** Dated values in date order; "." (missing) and any other non-number are left out. */
export function mapFredObservations(observations: readonly FredObservation[]): DatedObservation[] {
  return observations
    .filter((o) => NUMBER.test(o.value))
    .map((o) => ({ date: o.date, value: Number(o.value) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

// The forecast's benchmark prices from FRED: the window asked for, and FRED's dated values as price points.

import { addMonths, type FredObservation, isoDay, mapFredObservations } from '../../../platform/sources/index.js';
import type { PricePoint } from '../domain/index.js';

/** Months of history asked for: enough for the outlook's trend and volatility windows. */
export const PRICE_HISTORY_MONTHS = 24;

/** The first day (YYYY-MM-DD) of the price history asked for at `now`. */
export function priceHistoryStart(now: Date): string {
  return isoDay(addMonths(now, -PRICE_HISTORY_MONTHS));
}

/** Dated prices in date order; "." (missing) and any other non-number are left out. */
export function mapPricePoints(observations: readonly FredObservation[]): PricePoint[] {
  return mapFredObservations(observations).map(({ date, value }) => ({ date, price: value }));
}

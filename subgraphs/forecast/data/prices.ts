// A commodity's monthly benchmark prices from its shipped series, as commodities.json priceSeries says.

import { monthlyAverages } from '../../../platform/sources/index.js';
import type { PricePoint, Provenance } from '../domain/index.js';
import type { ShippedSeries } from './series.js';

/** How a benchmark's monthly prices are taken from its series. */
export interface PriceSeriesSpec {
  /** Key of data/series/sources.json. */
  seriesId: string;
  /** "monthly": the published monthly averages; "monthly-average-of-daily": each complete month's mean of the daily prices. */
  method: 'monthly' | 'monthly-average-of-daily';
  /** First month used (YYYY-MM-01). */
  from: string;
  /** Factor from the series' unit to the benchmark's unit. */
  toBenchmarkUnit: number;
}

/** Averages of daily prices are kept to this many decimals (the published monthly series have two or three). */
const PRICE_DECIMALS = 4;

export function benchmarkPrices(spec: PriceSeriesSpec, series: ShippedSeries): { prices: PricePoint[]; provenance: Provenance } {
  const monthly = spec.method === 'monthly' ? series.observations : monthlyAverages(series.observations);
  const prices = monthly.filter((o) => o.date >= spec.from).map((o) => ({ date: o.date, price: round(o.value * spec.toBenchmarkUnit) }));
  return { prices, provenance: provenanceOf(spec, series, prices) };
}

function provenanceOf(spec: PriceSeriesSpec, { source }: ShippedSeries, prices: readonly PricePoint[]): Provenance {
  const first = prices[0]?.date.slice(0, 7) ?? '';
  const last = prices.at(-1)?.date ?? spec.from;
  const taken = spec.method === 'monthly' ? 'monthly values as published' : 'the mean of each complete calendar month of the daily prices';
  return {
    source: source.publisher,
    url: source.url,
    asOf: endOfMonth(last),
    derivation:
      `${source.title} (${source.seriesId}, ${source.units}): ${taken}, ${first}..${last.slice(0, 7)}` +
      `${spec.toBenchmarkUnit === 1 ? '' : `, times ${spec.toBenchmarkUnit} into the benchmark unit`}. ` +
      `File data/series/${source.file}, copied from ${source.copiedFrom.repository} ${source.copiedFrom.path} @ ${source.copiedFrom.commit}; licence: ${source.licence}.`,
  };
}

/** The last day (YYYY-MM-DD) of the month a YYYY-MM-DD date falls in. */
export function endOfMonth(date: string): string {
  const [year, month] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 0, month ?? 0, 0)).toISOString().slice(0, 10);
}

function round(value: number): number {
  const scale = 10 ** PRICE_DECIMALS;
  return Math.round(value * scale) / scale;
}

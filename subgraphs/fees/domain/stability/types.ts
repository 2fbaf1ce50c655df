/** The signals the feeds deliver (sources/) and the stability pipeline reads (docs/stability-model.md). */

export interface Observation {
  /** YYYY-MM-DD. */
  date: string;
  value: number;
}

export type SeriesFrequency = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'annual';

export interface SignalSeries {
  id: string;
  title: string;
  frequency: SeriesFrequency;
  /** Ascending. */
  observations: Observation[];
  source: string;
  url: string;
}

/** A feed as the run saw it: snapshot (shipped), or live with its fallback. */
export interface FeedState {
  feed: string;
  mode: 'live' | 'snapshot';
  status: 'ok' | 'fallback' | 'unavailable';
  reason?: string;
  asOf?: string | null;
}

/** Prices of the settlement basket's stablecoins (USD); only live feeds have them. */
export type StablecoinPrices = Partial<Record<string, number>>;

export interface SignalSet {
  series: Partial<Record<string, SignalSeries>>;
  stablecoinPrices: StablecoinPrices | null;
  feeds: FeedState[];
}

import {
  type DatedObservation,
  type FeedOptions,
  fetchDefillamaStablecoins,
  fetchFredObservations,
  mapFredObservations,
  mapStablecoinQuotes,
  parseDefillamaStablecoins,
  parseFredObservations,
  SourceUnavailableError,
} from '../../../platform/sources/index.js';
import { signalSnapshot, snapshotAsOf } from '../data/signals.js';
import type { FeedState, SignalSeries, SignalSet, StablecoinPrices } from '../domain/index.js';

/**
 * The stability signal feeds (decision 0030): the shipped snapshot by default; with `live`, FRED series
 * observations (needs a FRED key) and DefiLlama's stablecoin circulating supply and prices, through the
 * feed layer (platform/sources). Every live feed is bounded by `timeoutMs`; one that fails falls back to
 * the snapshot and says so in its FeedState. Never throws.
 */
export interface SignalFeedOptions {
  live: boolean;
  fredApiKey?: string | undefined;
  baseUrls: { fred: string; defillama: string };
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The snapshot series that FRED publishes under the same id (gold and the stablecoins come from elsewhere). */
export const FRED_SERIES = ['T10Y2Y', 'T10Y3M', 'T10YIE', 'DFII10', 'WALCL', 'DTWEXBGS', 'STLFSI4', 'NFCI', 'CPIAUCSL', 'GFDEGDQ188S'] as const;
/** FRED's H.10 ids of the five cross-check pairs, and whether FRED quotes them as USD per unit (inverted to units per USD). */
const FRED_FX: Record<string, { id: string; inverted: boolean }> = {
  EUR: { id: 'DEXUSEU', inverted: true },
  JPY: { id: 'DEXJPUS', inverted: false },
  CHF: { id: 'DEXSZUS', inverted: false },
  GBP: { id: 'DEXUSUK', inverted: true },
  CNY: { id: 'DEXCHUS', inverted: false },
};
const STABLECOINS: Record<string, string> = { USDT: 'USDT', USDC: 'USDC', DAI: 'DAI' };

type LiveFeedOptions = FeedOptions & { baseUrls: SignalFeedOptions['baseUrls'] };

function feedOptions(options: SignalFeedOptions): LiveFeedOptions {
  return { timeoutMs: options.timeoutMs, fetch: options.fetch ?? globalThis.fetch, baseUrls: options.baseUrls };
}

/** Why a feed fell back, as its FeedState says it: "timed out", "HTTP 500 from host/path", or the underlying error. */
function reasonOf(error: unknown): string {
  return describeFailure(error).slice(0, 160);
}

function describeFailure(error: unknown): string {
  if (error instanceof SourceUnavailableError) {
    if (error.kind === 'timeout') return 'timed out';
    if (error.kind === 'http-status' || !(error.cause instanceof Error)) return error.detail;
    return describeFailure(error.cause);
  }
  if (error instanceof Error) return error.name === 'TimeoutError' ? 'timed out' : error.message;
  return String(error);
}

async function fredSeries(id: string, apiKey: string, options: LiveFeedOptions, start: string): Promise<DatedObservation[]> {
  return mapFredObservations(parseFredObservations(await fetchFredObservations(options, apiKey, id, start)).observations);
}

function withObservations(series: SignalSeries, observations: DatedObservation[]): SignalSeries {
  return observations.length === 0 ? series : { ...series, observations };
}

async function loadFred(snapshot: Record<string, SignalSeries>, options: SignalFeedOptions, now: Date): Promise<{ series: Record<string, SignalSeries>; feed: FeedState }> {
  const apiKey = options.fredApiKey;
  if (!apiKey) return { series: snapshot, feed: { feed: 'FRED', mode: 'live', status: 'fallback', reason: 'FRED_API_KEY is not set: the shipped snapshot is used', asOf: snapshotAsOf() } };
  const start = `${now.getUTCFullYear() - 3}-01-01`;
  const feeds = feedOptions(options);
  try {
    const ids = [...FRED_SERIES, ...Object.keys(FRED_FX)];
    const fetched = await Promise.all(
      ids.map(async (id) => {
        const fx = FRED_FX[id];
        const observations = await fredSeries(fx?.id ?? id, apiKey, feeds, start);
        return [id, fx?.inverted ? observations.map((row) => ({ date: row.date, value: 1 / row.value })) : observations] as const;
      }),
    );
    const series = { ...snapshot };
    for (const [id, observations] of fetched) series[id] = withObservations(snapshot[id]!, observations);
    const asOf =
      fetched
        .flatMap(([, observations]) => observations.slice(-1).map((row) => row.date))
        .sort()
        .at(-1) ?? null;
    return { series, feed: { feed: 'FRED', mode: 'live', status: 'ok', asOf } };
  } catch (error) {
    return { series: snapshot, feed: { feed: 'FRED', mode: 'live', status: 'fallback', reason: reasonOf(error), asOf: snapshotAsOf() } };
  }
}

async function loadStablecoins(snapshot: Record<string, SignalSeries>, options: SignalFeedOptions, now: Date) {
  try {
    const assets = parseDefillamaStablecoins(await fetchDefillamaStablecoins(feedOptions(options)));
    const quotes = mapStablecoinQuotes(assets, Object.values(STABLECOINS));
    const day = now.toISOString().slice(0, 10);
    const series = { ...snapshot };
    const prices: StablecoinPrices = {};
    for (const [id, symbol] of Object.entries(STABLECOINS)) {
      const { price, circulatingUsd } = quotes[symbol] ?? {};
      if (circulatingUsd !== undefined) series[id] = { ...snapshot[id]!, observations: [...snapshot[id]!.observations.filter((row) => row.date < day), { date: day, value: circulatingUsd }] };
      if (price !== undefined) prices[id] = price;
    }
    return { series, prices, feed: { feed: 'DefiLlama stablecoins', mode: 'live', status: 'ok', asOf: day } satisfies FeedState };
  } catch (error) {
    return { series: snapshot, prices: null, feed: { feed: 'DefiLlama stablecoins', mode: 'live', status: 'fallback', reason: reasonOf(error), asOf: snapshotAsOf() } satisfies FeedState };
  }
}

export async function loadSignals(options: SignalFeedOptions, now: Date): Promise<SignalSet> {
  const snapshot = signalSnapshot();
  if (!options.live) {
    return { series: snapshot, stablecoinPrices: null, feeds: [{ feed: 'shipped snapshot (data/signals)', mode: 'snapshot', status: 'ok', asOf: snapshotAsOf() }] };
  }
  const [fred, stablecoins] = await Promise.all([loadFred(snapshot, options, now), loadStablecoins(snapshot, options, now)]);
  const series = { ...fred.series };
  for (const id of Object.keys(STABLECOINS)) series[id] = stablecoins.series[id]!;
  return { series, stablecoinPrices: stablecoins.prices, feeds: [fred.feed, stablecoins.feed] };
}

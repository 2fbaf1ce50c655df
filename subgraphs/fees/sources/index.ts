import { z } from 'zod';
import { signalSnapshot, snapshotAsOf } from '../data/signals.js';
import type { FeedState, Observation, SignalSeries, SignalSet, StablecoinPrices } from '../domain/stability/types.js';

/**
 * The stability signal feeds (decision 0030): the shipped snapshot by default; with `live`, FRED series
 * observations (needs a FRED key) and DefiLlama's stablecoin circulating supply and prices. Every live
 * feed is bounded by `timeoutMs`; one that fails falls back to the snapshot and says so in its FeedState.
 * Never throws.
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

const fredObservations = z.object({ observations: z.array(z.object({ date: z.string(), value: z.string() })) });
const defillamaStablecoins = z.object({
  peggedAssets: z.array(z.object({ symbol: z.string(), price: z.number().nullable().optional(), circulating: z.object({ peggedUSD: z.number() }).partial().optional() })),
});

async function getJson(url: URL, options: SignalFeedOptions): Promise<unknown> {
  const response = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(options.timeoutMs), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url.host}${url.pathname}`);
  return response.json();
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? (error.name === 'TimeoutError' ? 'timed out' : error.message) : String(error);
  return message.slice(0, 160);
}

async function fredSeries(id: string, options: SignalFeedOptions, start: string): Promise<Observation[]> {
  const url = new URL(`${options.baseUrls.fred.replace(/\/$/, '')}/series/observations`);
  for (const [name, value] of Object.entries({ series_id: id, api_key: options.fredApiKey ?? '', file_type: 'json', observation_start: start, sort_order: 'asc' })) url.searchParams.set(name, value);
  const body = fredObservations.parse(await getJson(url, options));
  // FRED writes a missing observation as ".".
  return body.observations.flatMap((row) => (row.value === '.' || !Number.isFinite(Number(row.value)) ? [] : [{ date: row.date, value: Number(row.value) }]));
}

function withObservations(series: SignalSeries, observations: Observation[]): SignalSeries {
  return observations.length === 0 ? series : { ...series, observations };
}

async function loadFred(snapshot: Record<string, SignalSeries>, options: SignalFeedOptions, now: Date): Promise<{ series: Record<string, SignalSeries>; feed: FeedState }> {
  if (!options.fredApiKey) return { series: snapshot, feed: { feed: 'FRED', mode: 'live', status: 'fallback', reason: 'FRED_API_KEY is not set: the shipped snapshot is used', asOf: snapshotAsOf() } };
  const start = `${now.getUTCFullYear() - 3}-01-01`;
  try {
    const ids = [...FRED_SERIES, ...Object.keys(FRED_FX)];
    const fetched = await Promise.all(
      ids.map(async (id) => {
        const fx = FRED_FX[id];
        const observations = await fredSeries(fx?.id ?? id, options, start);
        return [id, fx?.inverted ? observations.map((row) => ({ date: row.date, value: 1 / row.value })) : observations] as const;
      }),
    );
    const series = { ...snapshot };
    for (const [id, observations] of fetched) series[id] = withObservations(snapshot[id]!, observations);
    const asOf = fetched.flatMap(([, observations]) => observations.slice(-1).map((row) => row.date)).sort().at(-1) ?? null;
    return { series, feed: { feed: 'FRED', mode: 'live', status: 'ok', asOf } };
  } catch (error) {
    return { series: snapshot, feed: { feed: 'FRED', mode: 'live', status: 'fallback', reason: reasonOf(error), asOf: snapshotAsOf() } };
  }
}

async function loadStablecoins(snapshot: Record<string, SignalSeries>, options: SignalFeedOptions, now: Date) {
  try {
    const url = new URL(`${options.baseUrls.defillama.replace(/\/$/, '')}/stablecoins`);
    url.searchParams.set('includePrices', 'true');
    const body = defillamaStablecoins.parse(await getJson(url, options));
    const day = now.toISOString().slice(0, 10);
    const series = { ...snapshot };
    const prices: StablecoinPrices = {};
    for (const [id, symbol] of Object.entries(STABLECOINS)) {
      const asset = body.peggedAssets.find((candidate) => candidate.symbol === symbol);
      const circulating = asset?.circulating?.peggedUSD;
      if (typeof circulating === 'number') series[id] = { ...snapshot[id]!, observations: [...snapshot[id]!.observations.filter((row) => row.date < day), { date: day, value: circulating }] };
      if (typeof asset?.price === 'number') prices[id] = asset.price;
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

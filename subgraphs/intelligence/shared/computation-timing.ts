import { performance } from 'node:perf_hooks';
import type { AnySignalEndpoint, IntelligenceDataset } from './signal-endpoint.js';

/** What a cache miss of one signal costs: its computation over a dataset, timed. */
export interface SignalComputation {
  id: string;
  runs: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;

/** At least this many runs of each endpoint, however slow it is. */
const MINIMUM_RUNS = 10;

/**
 * Times up to `runs` computations of each endpoint, with its example parameters or none (npm run
 * bench, section 8), stopping early once `budgetMs` is spent (an endpoint of a second would
 * otherwise hold the bench for minutes); an endpoint that needs parameters and has no example is left out.
 */
export async function timeSignalComputations(
  endpoints: readonly AnySignalEndpoint[],
  dataset: IntelligenceDataset,
  now: Date,
  runs: number,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<SignalComputation[]> {
  const timings: SignalComputation[] = [];
  for (const endpoint of endpoints) {
    const parsed = endpoint.params ? endpoint.params.safeParse(endpoint.example ?? {}) : { success: true, data: {} };
    if (!parsed.success) continue;
    const durations: number[] = [];
    const started = performance.now();
    while (durations.length < runs && (durations.length < MINIMUM_RUNS || performance.now() - started < budgetMs)) {
      const run = performance.now();
      await endpoint.compute({ dataset, now, params: parsed.data });
      durations.push(performance.now() - run);
    }
    durations.sort((a, b) => a - b);
    timings.push({ id: endpoint.id, runs: durations.length, p50Ms: percentile(durations, 0.5), p99Ms: percentile(durations, 0.99) });
  }
  return timings;
}

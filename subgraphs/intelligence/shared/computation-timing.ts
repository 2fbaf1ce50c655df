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

/** Times `runs` computations of each endpoint, with its example parameters or none (npm run bench, section 8); an endpoint that needs parameters and has no example is left out. */
export async function timeSignalComputations(endpoints: readonly AnySignalEndpoint[], dataset: IntelligenceDataset, now: Date, runs: number): Promise<SignalComputation[]> {
  const timings: SignalComputation[] = [];
  for (const endpoint of endpoints) {
    const parsed = endpoint.params ? endpoint.params.safeParse(endpoint.example ?? {}) : { success: true, data: {} };
    if (!parsed.success) continue;
    const durations: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      await endpoint.compute({ dataset, now, params: parsed.data });
      durations.push(performance.now() - started);
    }
    durations.sort((a, b) => a - b);
    timings.push({ id: endpoint.id, runs, p50Ms: percentile(durations, 0.5), p99Ms: percentile(durations, 0.99) });
  }
  return timings;
}

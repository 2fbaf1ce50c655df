import type { Random } from './random.js';
import type { MixEntry, Workload } from './workload-context.js';

/** How the load went: requests started and those shed because maxInFlight were still waiting. */
export interface LoadRun {
  startedAt: number;
  endedAt: number;
  started: number;
  /** Epoch milliseconds of each request that was due but not sent. */
  shed: number[];
}

export interface LoadOptions {
  rate: number;
  maxInFlight: number;
  /** Asked before each request is started: true ends the load (the requests in flight are awaited). */
  done: () => boolean;
}

function picker(mix: readonly MixEntry[], random: Random): () => MixEntry {
  const total = mix.reduce((sum, entry) => sum + entry.weight, 0);
  return () => {
    let point = random.next() * total;
    for (const entry of mix) {
      point -= entry.weight;
      if (point < 0) return entry;
    }
    return mix[mix.length - 1]!;
  };
}

/**
 * An open-loop load (decision 0089): request n is due at start + n / rate whatever the answers of
 * the others, so a slow cluster is not rewarded with less load; a request due while maxInFlight
 * are waiting is shed (counted, not sent), which bounds what the soak holds open.
 */
export async function driveLoad(workload: Workload, mix: readonly MixEntry[], options: LoadOptions): Promise<LoadRun> {
  const next = picker(mix, workload.random);
  const inFlight = new Set<Promise<void>>();
  const failures: Error[] = [];
  const run: LoadRun = { startedAt: Date.now(), endedAt: 0, started: 0, shed: [] };
  const intervalMs = 1_000 / options.rate;
  for (let index = 0; !options.done(); index += 1) {
    const due = run.startedAt + index * intervalMs;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const entry = next();
    if (inFlight.size >= options.maxInFlight) {
      run.shed.push(Date.now());
      continue;
    }
    run.started += 1;
    const request: Promise<void> = entry
      .run(workload)
      .catch((error: unknown) => {
        failures.push(new Error(`the soak's own ${entry.name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  run.endedAt = Date.now();
  // A request of the mix never throws for an answer (send() records them all): a throw is the soak's own bug.
  if (failures[0]) throw failures[0];
  return run;
}

import { readChain } from './chain.js';
import type { Check } from './checks.js';
import { SETTLE_WAIT_MS } from './cluster-environment.js';
import { databaseReader } from './database-view.js';
import { driveLoad, type LoadRun } from './driver.js';
import { type FaultEvent, type FaultKind, planFaults, type PlannedFault, processKinds, runFaults } from './faults.js';
import { type LoadFigures, loadFigures } from './figures.js';
import { type Infrastructure, startInfrastructure } from './infrastructure.js';
import type { SoakOptions } from './options.js';
import { seededRandom } from './random.js';
import { startCallbackReceiver } from './receiver.js';
import { reconcile, waitUntilSettled } from './reconcile.js';
import { prepareAccounts, type SoakAccounts } from './setup.js';
import { MIX } from './workload.js';
import type { Observations } from './workload-context.js';

/** A run's outcome: what was done to the cluster, what the clients saw, and what the reconciliation found. */
export interface SoakResult {
  options: SoakOptions;
  startedAt: Date;
  clusterStartSeconds: number;
  processes: number;
  faults: FaultEvent[];
  load: LoadRun;
  figures: LoadFigures;
  settleSeconds: number;
  checks: Check[];
  passed: boolean;
  wallSeconds: number;
}

/** The load stops at the latest this long after its planned end, even if faults are still under way. */
const MAX_OVERRUN_MS = 120_000;
/** Seeds the fault schedule apart from the mix, so a change to the mix leaves the faults as they were. */
const FAULT_SEED_SALT = 0x5eed;

async function loadWithFaults(infrastructure: Infrastructure, observations: Observations, accounts: SoakAccounts, callbackUrl: string, options: SoakOptions, log: (line: string) => void) {
  const { cluster } = infrastructure;
  const loadMs = options.minutes * 60_000;
  const plan: PlannedFault[] = planFaults(cluster, seededRandom(options.seed ^ FAULT_SEED_SALT), loadMs);
  log(`load: ${options.rate} requests/s (at most ${options.maxInFlight} in flight) for ${options.minutes} min; ${plan.length} faults planned`);
  const startedAt = Date.now();
  let faults: FaultEvent[] | undefined;
  const faultRun = runFaults(plan, cluster, { postgres: infrastructure.postgresProxy, redis: infrastructure.redisProxy }, startedAt, log).then((events) => (faults = events));
  const workload = { cluster, accounts, callbackUrl, random: seededRandom(options.seed), seed: options.seed, observations };
  const load = await driveLoad(workload, MIX, {
    rate: options.rate,
    maxInFlight: options.maxInFlight,
    done: () => {
      const elapsed = Date.now() - startedAt;
      return (elapsed >= loadMs && faults !== undefined) || elapsed >= loadMs + MAX_OVERRUN_MS;
    },
  });
  return { load, faults: await faultRun };
}

async function settleAndReconcile(
  infrastructure: Infrastructure,
  observations: Observations,
  accounts: SoakAccounts,
  faults: FaultEvent[],
  deliveries: () => Parameters<typeof reconcile>[0]['deliveries'],
  log: (line: string) => void,
) {
  const reader = databaseReader(infrastructure.databaseUrl, infrastructure.schema);
  try {
    const started = Date.now();
    const database = await waitUntilSettled(reader, accounts.institutionId, SETTLE_WAIT_MS, log);
    const settleSeconds = (Date.now() - started) / 1000;
    const kinds: FaultKind[] = [...processKinds(infrastructure.cluster), 'postgres', 'redis'];
    try {
      const chain = await readChain(infrastructure.cluster);
      const checks = reconcile({ institutionId: accounts.institutionId, ...observations, deliveries: deliveries(), faults, kinds, database, chain, price: accounts.requirements.maxAmountRequired });
      return { checks, settleSeconds };
    } catch (error) {
      // Without the chain nothing of the money can be reconciled: one failed check says why, and the figures are still printed.
      const problem = `reading the chain at ${infrastructure.cluster.rpcUrl} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      return { checks: [{ name: 'the chain can be read after the load', problems: [problem], notes: [] }], settleSeconds };
    }
  } finally {
    await reader.close();
  }
}

/** One soak run (decision 0089): start, load under faults, wait for the reconcilers, reconcile, stop. */
export async function runSoak(options: SoakOptions, log: (line: string) => void): Promise<SoakResult> {
  const startedAt = new Date();
  log(`soak: seed ${options.seed}, ${options.gateways} gateways, ${options.replicas} replicas of each subgraph, ${options.minutes} min at ${options.rate} requests/s`);
  const infrastructure = await startInfrastructure(options, log);
  const { cluster } = infrastructure;
  log(`cluster: ${cluster.processes().length} processes started in ${infrastructure.startSeconds.toFixed(1)} s, listening on ${cluster.url}`);
  const receiver = await startCallbackReceiver(cluster.secrets.webhookSigningKey);
  try {
    const accounts = await prepareAccounts(cluster);
    const observations: Observations = { records: [], payments: [], x402: [], keyCounts: [] };
    const { load, faults } = await loadWithFaults(infrastructure, observations, accounts, receiver.url, options, log);
    const figures = loadFigures(observations.records, load.shed, faults, load.startedAt, load.endedAt);
    log(`load done: ${load.started} requests started, ${load.shed.length} shed, ${faults.length} faults; waiting for the reconcilers (at most ${Math.round(SETTLE_WAIT_MS / 1000)} s)`);
    const { checks, settleSeconds } = await settleAndReconcile(infrastructure, observations, accounts, faults, () => receiver.deliveries(), log);
    const passed = checks.every((check) => check.problems.length === 0);
    const wallSeconds = (Date.now() - startedAt.getTime()) / 1000;
    return { options, startedAt, clusterStartSeconds: infrastructure.startSeconds, processes: cluster.processes().length, faults, load, figures, settleSeconds, checks, passed, wallSeconds };
  } finally {
    await receiver.close();
    await infrastructure.close();
  }
}

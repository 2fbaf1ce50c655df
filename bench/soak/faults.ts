import type { Cluster, ProcessKind } from '../../gateway/cluster/cluster.js';
import type { TcpProxy } from '../../platform/testing/tcp-proxy.js';
import type { Random } from './random.js';

/**
 * The fault schedule (decision 0089): rounds, each every process kind killed once (SIGKILL of one
 * of its processes, chosen at random, restarted after a few seconds) and PostgreSQL and Redis each
 * cut once (their proxy stopped, then started), in a shuffled order, spread evenly over the load.
 * Kills of gateways and subgraph processes may overlap (at most three at once, never two of one
 * kind): a restart takes seconds to tens of seconds, and one at a time would not fit a short run.
 * A chain kill and a cut of PostgreSQL or Redis happen alone: a process starting meanwhile could
 * not reach what it needs to start, and the soak would test the launcher's start, not the rail.
 */
export type Dependency = 'postgres' | 'redis';
export type FaultKind = ProcessKind | Dependency;

export interface PlannedFault {
  /** Milliseconds after the load started. */
  atMs: number;
  kind: FaultKind;
  /** The process killed; undefined for an outage. */
  process?: string;
  downMs: number;
}

export interface FaultEvent extends PlannedFault {
  startedAt: number;
  /** When the process listened again or the proxy accepted again. */
  restoredAt: number;
  error?: string;
}

/** Steady load before the first fault and after the last one's recovery. */
export const QUIET_MS = 5_000;
/** A kill or an outage lasts this long, at random, before the restart. */
const DOWN_MS = { min: 2_000, max: 5_000 };
/** At most one round of faults every this long: a long run has several rounds, a short one one. */
const ROUND_MS = 300_000;
/** Kills under way at once, at most. */
const MAX_CONCURRENT_FAULTS = 3;
/** Faults that happen alone. */
const ALONE: readonly FaultKind[] = ['chain', 'postgres', 'redis'];

/** Every kind the cluster has, from its processes. */
export function processKinds(cluster: Cluster): ProcessKind[] {
  return [...new Set(cluster.processes().map((process) => process.kind))];
}

export function planFaults(cluster: Cluster, random: Random, loadMs: number): PlannedFault[] {
  const processes = cluster.processes();
  const kinds: FaultKind[] = [...processKinds(cluster), 'postgres', 'redis'];
  const rounds = Math.max(1, Math.floor(loadMs / ROUND_MS));
  const count = rounds * kinds.length;
  const spacingMs = Math.max(0, (loadMs - 2 * QUIET_MS) / count);
  const order = Array.from({ length: rounds }, () => random.shuffled(kinds)).flat();
  return order.map((kind, index) => {
    const process = kind === 'postgres' || kind === 'redis' ? undefined : random.pick(processes.filter((one) => one.kind === kind)).name;
    return { atMs: Math.round(QUIET_MS + index * spacingMs), kind, ...(process ? { process } : {}), downMs: random.integer(DOWN_MS.min, DOWN_MS.max) };
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inflict(fault: PlannedFault, cluster: Cluster, proxies: Record<Dependency, TcpProxy>): Promise<void> {
  if (fault.process) {
    await cluster.kill(fault.process);
    await pause(fault.downMs);
    await cluster.restart(fault.process);
    return;
  }
  const proxy = proxies[fault.kind as Dependency];
  await proxy.stop();
  await pause(fault.downMs);
  await proxy.start();
}

async function runOne(fault: PlannedFault, cluster: Cluster, proxies: Record<Dependency, TcpProxy>, log: (line: string) => void): Promise<FaultEvent> {
  const startedAt = Date.now();
  const what = fault.process ? `kill -9 ${fault.process}` : `${fault.kind} connections cut`;
  log(`fault: ${what} for ${(fault.downMs / 1000).toFixed(1)} s`);
  try {
    await inflict(fault, cluster, proxies);
    log(`fault: ${what}: restored after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    return { ...fault, startedAt, restoredAt: Date.now() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`fault: ${what}: restoring failed: ${message}`);
    return { ...fault, startedAt, restoredAt: Date.now(), error: message };
  }
}

/** Whether `fault` may start while `running` last: a free slot, no fault of its kind, and nothing else when either must be alone. */
function mayStart(fault: PlannedFault, running: ReadonlyMap<FaultKind, unknown>): boolean {
  if (running.size === 0) return true;
  if (ALONE.includes(fault.kind) || [...running.keys()].some((kind) => ALONE.includes(kind))) return false;
  return running.size < MAX_CONCURRENT_FAULTS && !running.has(fault.kind);
}

/**
 * Runs the plan in order from `loadStartedAt`: each fault at its time, or as soon as it may start
 * (mayStart), so every planned fault happens, later if need be. Resolves when all were restored.
 */
export async function runFaults(plan: readonly PlannedFault[], cluster: Cluster, proxies: Record<Dependency, TcpProxy>, loadStartedAt: number, log: (line: string) => void): Promise<FaultEvent[]> {
  const events: FaultEvent[] = [];
  const running = new Map<FaultKind, Promise<void>>();
  for (const fault of plan) {
    const wait = loadStartedAt + fault.atMs - Date.now();
    if (wait > 0) await pause(wait);
    while (!mayStart(fault, running)) await Promise.race(running.values());
    running.set(
      fault.kind,
      runOne(fault, cluster, proxies, log).then((event) => {
        events.push(event);
        running.delete(fault.kind);
      }),
    );
  }
  await Promise.all(running.values());
  return events.sort((a, b) => a.startedAt - b.startedAt);
}

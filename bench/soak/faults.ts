import type { Cluster, ProcessKind } from '../../gateway/cluster/cluster.js';
import type { TcpProxy } from '../../platform/testing/tcp-proxy.js';
import type { Random } from './random.js';

/**
 * The fault schedule (decision 0089): rounds, each every process kind killed once (SIGKILL of one
 * of its processes, chosen at random, restarted after a few seconds) and PostgreSQL and Redis each
 * cut once (their proxy stopped, then started), in a shuffled order; one fault at a time.
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
const ROUND_MS = 120_000;

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

/**
 * Runs the plan in order from `loadStartedAt`, one fault at a time: a fault whose time came while
 * the previous one lasted starts right after it, so every planned fault happens, later if need be.
 */
export async function runFaults(plan: readonly PlannedFault[], cluster: Cluster, proxies: Record<Dependency, TcpProxy>, loadStartedAt: number, log: (line: string) => void): Promise<FaultEvent[]> {
  const events: FaultEvent[] = [];
  for (const fault of plan) {
    const wait = loadStartedAt + fault.atMs - Date.now();
    if (wait > 0) await pause(wait);
    const startedAt = Date.now();
    const what = fault.process ? `kill -9 ${fault.process}` : `${fault.kind} connections cut`;
    log(`fault: ${what} for ${(fault.downMs / 1000).toFixed(1)} s`);
    try {
      await inflict(fault, cluster, proxies);
      events.push({ ...fault, startedAt, restoredAt: Date.now() });
      log(`fault: ${what}: restored after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`fault: ${what}: restoring failed: ${message}`);
      events.push({ ...fault, startedAt, restoredAt: Date.now(), error: message });
    }
  }
  return events;
}

import type { FastifyReply } from 'fastify';
import type { ManagedProcess, ProcessKind, ProcessStatus } from './supervisor.js';

const CHECK_TIMEOUT_MS = 2_000;

interface ProcessHealth {
  name: string;
  kind: ProcessKind;
  pid: number | null;
  url: string | null;
  status: ProcessStatus;
  /** Its own /health answered 200. */
  healthy: boolean;
  restarts: number;
  /** Its own /health's parts (database, rail, redis, subgraphs...), when it answered. */
  checks?: unknown;
  down?: string[];
}

async function healthOf(managed: ManagedProcess): Promise<ProcessHealth> {
  const url = managed.url();
  const entry: ProcessHealth = { name: managed.name, kind: managed.kind, pid: managed.pid() ?? null, url: url ?? null, status: managed.status(), healthy: false, restarts: managed.restarts() };
  if (!url) return entry;
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    const body = (await response.json()) as { checks?: unknown; down?: string[] };
    return { ...entry, healthy: response.ok, checks: body.checks, down: body.down ?? [] };
  } catch (error) {
    return { ...entry, down: [`its /health did not answer: ${error instanceof Error ? error.message : String(error)}`.slice(0, 160)] };
  }
}

/**
 * GET /health on the cluster's port (decision 0088) names every process with its own /health:
 * `ok` when all are healthy, `degraded` (still 200: every kind is served) when some are not,
 * `down` (503) when a kind has no healthy process.
 */
export async function clusterHealth(all: readonly ManagedProcess[], reply: FastifyReply): Promise<FastifyReply> {
  const processes = await Promise.all(all.map(healthOf));
  const kinds = [...new Set(processes.map((entry) => entry.kind))];
  const unserved = kinds.filter((kind) => !processes.some((entry) => entry.kind === kind && entry.healthy));
  const status = unserved.length > 0 ? 'down' : processes.every((entry) => entry.healthy) ? 'ok' : 'degraded';
  return reply
    .code(status === 'down' ? 503 : 200)
    .header('cache-control', 'no-store')
    .send({ status, timestamp: new Date().toISOString(), unserved, processes });
}

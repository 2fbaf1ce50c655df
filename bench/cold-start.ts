import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { collectLines, ROOT, serverEnvironment, spawnTracked, stopProcess, tempFolder } from './processes.js';

/** Section 4: a cold `npm start` to its first answer, and the memory of the all-in-one rail under load. */

const POLL_MS = 50;
const COLD_START_LIMIT_MS = 60_000;
/** Issue 27: the first start of a fresh clone to /health 200 in under 5 s, progress printed within 1 s, idle RSS under 400 MB. */
export const COLD_START_TARGET_MS = 5_000;
export const FIRST_PROGRESS_TARGET_MS = 1_000;
export const IDLE_RSS_TARGET_MB = 400;
/** How long the started server is left alone before its idle RSS is read. */
const SETTLE_MS = 2_000;

export interface ColdStart {
  /** From spawn to the first GET /health answered 200; undefined when it never was. */
  ms?: number;
  /** From spawn to its first `starting: ` line. */
  firstProgressMs?: number;
  /** What the process printed as `ready in N s` (counted from its own start), if it did. */
  selfReported?: string;
  /**
   * VmRSS of the server, SETTLE_MS after its first 200, MB: the node process that runs
   * gateway/main.ts (its worker threads included), without tsx's launcher process in front of it.
   */
  idleRssMb?: number;
  problem?: string;
}

/** A port free right now on loopback, so /health can be polled from the moment of spawn. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function healthStatus(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

/**
 * `tsx gateway/main.ts`, as `npm start` runs it (tsx's CLI on this Node): all-in-one, a fresh DATA_DIR (PGlite created and
 * migrated), NODE_ENV unset, no QUOTE_SIGNING_KEY (it generates one). Timed from spawn until its first progress line and
 * until GET /health answers 200, polled every 50 ms; then, left idle SETTLE_MS, its VmRSS. tsx's transform cache is as
 * earlier runs left it (a fresh clone's first start transforms every module; the report says so).
 */
export async function measureColdStart(): Promise<ColdStart> {
  const port = await freePort();
  const env = serverEnvironment({ PORT: String(port), LOG_LEVEL: 'info', DATA_DIR: join(tempFolder('cold-start'), 'data') });
  const started = performance.now();
  const child = spawnTracked(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'gateway/main.ts'], env);
  let firstProgressMs: number | undefined;
  const lines = collectLines(child, (line) => {
    if (firstProgressMs === undefined && line.startsWith('starting: ')) firstProgressMs = performance.now() - started;
  });
  try {
    while (performance.now() - started < COLD_START_LIMIT_MS) {
      if (child.exitCode !== null) return { problem: `exited with ${child.exitCode}: ${lines.slice(-5).join(' / ')}` };
      if ((await healthStatus(port)) === 200) {
        const ms = performance.now() - started;
        const selfReported = lines.find((line) => line.startsWith('ready in'));
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const idleRssMb = child.pid === undefined ? undefined : serverResidentMb(child.pid);
        return { ms, ...(firstProgressMs === undefined ? {} : { firstProgressMs }), ...(selfReported ? { selfReported } : {}), ...(idleRssMb === undefined ? {} : { idleRssMb }) };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return { problem: `no 200 from /health within ${COLD_START_LIMIT_MS / 1000} s` };
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The largest VmRSS among `pid` and its descendants: tsx's CLI (and taskset, when pinned) run the server as a child. */
function serverResidentMb(pid: number): number | undefined {
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) tree.push(...childrenOf(tree[index]!));
  const figures = tree.map(residentMb).filter((mb): mb is number => mb !== undefined);
  return figures.length > 0 ? Math.max(...figures) : undefined;
}

export interface MemoryFigures {
  /** VmRSS right after start, before any load, MB. */
  idleMb: number;
  /** Highest VmRSS sampled while under load, MB. */
  maxMb: number;
  samples: number;
}

function residentMb(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** Samples a process's VmRSS (every 100 ms) while `underLoad` runs. */
export async function sampleResidentMemory<T>(pid: number, underLoad: () => Promise<T>): Promise<{ result: T; memory: MemoryFigures }> {
  const idleMb = residentMb(pid) ?? Number.NaN;
  let maxMb = idleMb;
  let samples = 0;
  const timer = setInterval(() => {
    const mb = residentMb(pid);
    if (mb === undefined) return;
    samples += 1;
    maxMb = Math.max(maxMb, mb);
  }, 100);
  try {
    const result = await underLoad();
    return { result, memory: { idleMb, maxMb, samples } };
  } finally {
    clearInterval(timer);
  }
}

import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bench's child processes: each server is spawned in a process group of its own (so a tsx
 * wrapper and its node go together), pinned to the server core when pinning is on, tracked until
 * it exits, and killed at the end whatever happened (stopAll, or killAllNow from an exit handler).
 */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SERVER_CORE = '0';
const LOAD_CORE = '1';
const START_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 5_000;
const KEPT_LINES = 60;

let serversPinned = false;

/**
 * With taskset and two cores or more: servers on core 0, this process (autocannon, every thread)
 * on core 1. Returns how the run is pinned, for the report.
 */
export function pinLoadGeneratorAndServers(): string {
  const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasTaskset) return 'none (no taskset on this machine)';
  if (availableParallelism() < 2) return 'none (one core available)';
  try {
    execFileSync('taskset', ['-a', '-cp', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
  } catch (error) {
    return `none (taskset -cp ${LOAD_CORE} failed: ${error instanceof Error ? error.message : String(error)})`;
  }
  serversPinned = true;
  return `servers on core ${SERVER_CORE} (taskset -c ${SERVER_CORE}), the load generator (autocannon, in the bench process) on core ${LOAD_CORE}`;
}

const tempFolders: string[] = [];

/** A fresh temporary folder, removed by stopAll. */
export function tempFolder(label: string): string {
  const folder = mkdtempSync(join(tmpdir(), `srg-bench-${label}-`));
  tempFolders.push(folder);
  return folder;
}

/** A signing key of 32 random bytes (64 hex characters), so spawned rails need not generate one. */
export const SIGNING_KEY = randomBytes(32).toString('hex');

/**
 * The environment of a server: nothing inherited but PATH and HOME (no DATABASE_URL, APOLLO_KEY or
 * FORECAST_LIVE of the caller's shell), a free port, quiet logs, a short shutdown grace.
 */
export function serverEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_MS: '2000',
    // BENCH_SERVER_NODE_OPTIONS reaches the servers (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a profile of a run).
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    ...extra,
  };
}

export interface Server {
  name: string;
  /** The process group leader: the server itself, or the tsx wrapper of `spawnCommand`. */
  pid: number;
  port: number;
  /** The last lines the process printed (stdout and stderr). */
  lines: string[];
}

const running = new Map<number, ChildProcess>();

/** Spawns `command args` in its own process group, pinned to the server core when pinning is on. */
export function spawnTracked(command: string, args: readonly string[], env: Record<string, string>): ChildProcess {
  const [file, argv] = serversPinned ? ['taskset', ['-c', SERVER_CORE, command, ...args]] : [command, [...args]];
  const child = spawn(file, argv, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not spawn ${command}`);
  const pid = child.pid;
  running.set(pid, child);
  child.once('exit', () => running.delete(pid));
  return child;
}

/** Keeps the last lines of a child's output; calls `onLine` for each. */
export function collectLines(child: ChildProcess, onLine: (line: string) => void = () => undefined): string[] {
  const lines: string[] = [];
  const read = (chunk: Buffer) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      onLine(line);
    }
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  return lines;
}

const LISTENING = /listening on http:\/\/[^\s:]+:(\d+)/;

/**
 * Runs a TypeScript entry point (`node --import tsx <script> ...args`) as a server and resolves
 * once it prints `listening on http://host:port`; rejects with its output if it exits first.
 */
export function startServer(name: string, script: string, args: readonly string[], env: Record<string, string>): Promise<Server> {
  const child = spawnTracked(process.execPath, ['--import', 'tsx', script, ...args], env);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not listen within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const lines = collectLines(child, (line) => {
      const port = LISTENING.exec(line)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({ name, pid: child.pid!, port: Number(port), lines });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n  ${lines.join('\n  ')}`));
    });
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** SIGTERM to the process group, SIGKILL after a grace period (and to anything left in the group). */
export async function stopProcess(pid: number): Promise<void> {
  const child = running.get(pid);
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalGroup(pid, 'SIGTERM');
    const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
    await Promise.race([exited, grace]);
  }
  signalGroup(pid, 'SIGKILL');
  running.delete(pid);
}

export async function stopServers(servers: ReadonlyArray<Server | undefined>): Promise<void> {
  await Promise.all(servers.filter((server): server is Server => server !== undefined).map((server) => stopProcess(server.pid)));
}

/** Stops every process the bench started and removes its temporary folders. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running.keys()].map((pid) => stopProcess(pid)));
  removeTempFolders();
}

/** Synchronous last resort (process 'exit', a signal): SIGKILL every group still tracked. Quick. */
export function killAllNow(): void {
  for (const pid of running.keys()) signalGroup(pid, 'SIGKILL');
  running.clear();
}

/** Best effort: a process killed a moment ago may still be writing its PGlite files. */
export function removeTempFolders(): void {
  for (const folder of tempFolders.splice(0)) {
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch (error) {
      console.error(`could not remove ${folder}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** `gateway/main.ts [args]` (the rail, a subgraph, or the gateway alone) with a DATA_DIR of its own. */
export function startRail(name: string, args: readonly string[], extra: Record<string, string>): Promise<Server> {
  const dataDir = join(tempFolder(name.replace(/\W+/g, '-')), 'data');
  return startServer(name, 'gateway/main.ts', args, serverEnvironment({ DATA_DIR: dataDir, QUOTE_SIGNING_KEY: SIGNING_KEY, ...extra }));
}

/** A baseline of bench/targets.ts, in production mode like the rail it is compared with. */
export function startTarget(kind: string, args: readonly string[] = [], extra: Record<string, string> = {}): Promise<Server> {
  const dataDir = join(tempFolder(kind), 'data');
  return startServer(kind, 'bench/targets.ts', [kind, ...args], serverEnvironment({ NODE_ENV: 'production', DATA_DIR: dataDir, ...extra }));
}

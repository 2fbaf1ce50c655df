import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SubgraphName } from '../subgraph-names.js';

export type ProcessKind = 'chain' | 'gateway' | SubgraphName;
export type ProcessStatus = 'starting' | 'up' | 'down';

export interface ProcessSpec {
  /** e.g. `fees-2`: unique in the cluster. */
  name: string;
  kind: ProcessKind;
  /** The argument of `serve`: a subgraph's name, `gateway` or `chain`. */
  target: string;
  /** The process's whole environment (nothing is inherited but what is given here). */
  environment: Record<string, string>;
  /** Where its stdout and stderr are appended. */
  logFile: string;
  startTimeoutMs: number;
}

/** One process of the cluster, started again after an exit it was not asked for. */
export interface ManagedProcess {
  readonly name: string;
  readonly kind: ProcessKind;
  status(): ProcessStatus;
  /** Its origin (http://127.0.0.1:port) once it listens. */
  url(): string | undefined;
  pid(): number | undefined;
  restarts(): number;
  /** What it printed while starting (its banner), from its latest start. */
  startLines(): readonly string[];
  /** Starts it; resolves once it printed `ready in`, rejects when it exits or times out first. */
  start(): Promise<void>;
  /** SIGKILL; it stays down until start() is called again. Resolves once it exited. */
  kill(): Promise<void>;
  /** SIGTERM (in-flight requests finish), SIGKILL after `graceMs`; stays down. */
  stop(graceMs: number): Promise<void>;
  /** Called on every change of status. */
  onChange(listener: () => void): void;
}

const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url));
/** Lines kept from a start, for the banner and for the message when the start fails. */
const KEPT_LINES = 200;
const RESTART_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/** Where one managed process stands. */
interface ProcessState {
  readonly spec: ProcessSpec;
  readonly listeners: Array<() => void>;
  child: ChildProcess | undefined;
  status: ProcessStatus;
  url: string | undefined;
  /**
   * The port of its first start, kept for every later one: the others were given its URL (the
   * chain's RPC_URL above all), so a restart listens where they look (CLUSTER-API: "on its own port").
   */
  port: string | undefined;
  lines: string[];
  restarts: number;
  crashesInARow: number;
  /** True while it should run: an exit then is a crash, and it is started again. */
  wanted: boolean;
  restartTimer: NodeJS.Timeout | undefined;
  log: WriteStream | undefined;
}

function setStatus(state: ProcessState, next: ProcessStatus): void {
  state.status = next;
  for (const listener of state.listeners) listener();
}

/** Reads what the process prints while it starts: its URL, then `ready in`. */
function watchStart(state: ProcessState, ready: () => void): (chunk: Buffer) => void {
  return (chunk) => {
    state.log?.write(chunk);
    if (state.status !== 'starting') return;
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      if (state.lines.length < KEPT_LINES) state.lines.push(line);
      const listening = /listening on (http:\/\/\S+)/.exec(line);
      if (listening?.[1]) state.url = listening[1].replace('localhost', '127.0.0.1');
      if (state.url) state.port ??= new URL(state.url).port;
      if (state.url && /^ready in /.test(line)) ready();
    }
  };
}

function spawnOnce(state: ProcessState): Promise<void> {
  const { spec } = state;
  state.log ??= createWriteStream(spec.logFile, { flags: 'a' });
  state.log.write(`--- ${new Date().toISOString()} starting ${spec.name}: serve ${spec.target}\n`);
  state.lines = [];
  state.url = undefined;
  setStatus(state, 'starting');
  const environment = state.port ? { ...spec.environment, PORT: state.port } : spec.environment;
  const started = spawn(process.execPath, ['--import', 'tsx', mainScript, 'serve', spec.target], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  state.child = started;
  const lastLines = () => state.lines.slice(-20).join('\n');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      started.kill('SIGKILL');
      reject(new Error(`${spec.name} did not start within ${spec.startTimeoutMs / 1000} s (log: ${spec.logFile})\n${lastLines()}`));
    }, spec.startTimeoutMs);
    const onChunk = watchStart(state, () => {
      clearTimeout(timer);
      state.crashesInARow = 0;
      setStatus(state, 'up');
      resolve();
    });
    started.stdout?.on('data', onChunk);
    started.stderr?.on('data', onChunk);
    started.once('exit', (code, signal) => {
      clearTimeout(timer);
      state.log?.write(`--- ${new Date().toISOString()} ${spec.name} exited (${signal ?? code})\n`);
      if (state.child === started) state.child = undefined;
      const wasStarting = state.status === 'starting';
      setStatus(state, 'down');
      if (wasStarting) reject(new Error(`${spec.name} exited with ${signal ?? code} while starting (log: ${spec.logFile})\n${lastLines()}`));
      if (state.wanted) scheduleRestart(state);
    });
  });
}

/** An exit nobody asked for: started again after a delay that grows while it keeps failing. */
function scheduleRestart(state: ProcessState): void {
  const delay = RESTART_DELAYS_MS[Math.min(state.crashesInARow, RESTART_DELAYS_MS.length - 1)] ?? 30_000;
  state.crashesInARow += 1;
  state.restartTimer = setTimeout(() => {
    state.restartTimer = undefined;
    if (!state.wanted) return;
    state.restarts += 1;
    spawnOnce(state).catch(() => undefined);
  }, delay);
}

function exited(state: ProcessState): Promise<void> {
  const running = state.child;
  if (!running || running.exitCode !== null || running.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => running.once('exit', () => resolve()));
}

/** No restart after the next exit. */
function giveUp(state: ProcessState): void {
  state.wanted = false;
  if (state.restartTimer) clearTimeout(state.restartTimer);
  state.restartTimer = undefined;
}

export function manageProcess(spec: ProcessSpec): ManagedProcess {
  const state: ProcessState = {
    spec,
    listeners: [],
    child: undefined,
    status: 'down',
    url: undefined,
    port: undefined,
    lines: [],
    restarts: 0,
    crashesInARow: 0,
    wanted: false,
    restartTimer: undefined,
    log: undefined,
  };
  return {
    name: spec.name,
    kind: spec.kind,
    status: () => state.status,
    url: () => (state.status === 'up' ? state.url : undefined),
    pid: () => state.child?.pid,
    restarts: () => state.restarts,
    startLines: () => state.lines,
    async start() {
      if (state.child) throw new Error(`${spec.name} is already running`);
      giveUp(state);
      if (state.log) state.restarts += 1;
      await spawnOnce(state);
      state.wanted = true;
    },
    async kill() {
      giveUp(state);
      const done = exited(state);
      state.child?.kill('SIGKILL');
      await done;
    },
    async stop(graceMs) {
      giveUp(state);
      const done = exited(state);
      state.child?.kill('SIGTERM');
      const force = setTimeout(() => state.child?.kill('SIGKILL'), graceMs);
      await done;
      clearTimeout(force);
      const log = state.log;
      state.log = undefined;
      await new Promise<void>((resolve) => (log ? log.end(resolve) : resolve()));
    },
    onChange: (listener) => void state.listeners.push(listener),
  };
}

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isAlive } from './data-dir.js';

/**
 * A server that holds the embedded data folder says where it listens, in `DATA_DIR/server.json`
 * (owner-only, like the folder), so that a CLI refused the folder (PGlite is one process) can ask
 * that server instead: `npm run keys` while `npm start` runs (decision 0058). Written once the
 * server listens, removed when it has stopped; a file left by a killed server names a pid that is
 * gone and is ignored.
 */
export const RUNNING_SERVER_FILE = 'server.json';

export interface RunningServer {
  pid: number;
  host: string;
  /** Where a process on this host reaches it, e.g. `http://127.0.0.1:4000`. */
  url: string;
  startedAt: string;
}

/** The URL a local client reaches a server listening on `host`:`port` at (a wildcard address is reached on loopback). */
export function localUrlOf(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export function recordRunningServer(dataDir: string, url: string): void {
  const server: RunningServer = { pid: process.pid, host: hostname(), url, startedAt: new Date().toISOString() };
  writeFileSync(join(dataDir, RUNNING_SERVER_FILE), `${JSON.stringify(server)}\n`, { mode: 0o600 });
}

function readRunningServer(dataDir: string): RunningServer | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, RUNNING_SERVER_FILE), 'utf8')) as Partial<RunningServer>;
    if (typeof parsed.pid !== 'number' || typeof parsed.url !== 'string' || typeof parsed.host !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host, url: parsed.url, startedAt: String(parsed.startedAt) };
  } catch {
    return undefined;
  }
}

/** The server that says it holds the folder, when it is a live process of this host. */
export function findRunningServer(dataDir: string): RunningServer | undefined {
  const server = readRunningServer(dataDir);
  return server && server.host === hostname() && isAlive(server.pid) ? server : undefined;
}

/** Removes the file when it is this process's (never another server's that took the folder since). */
export function forgetRunningServer(dataDir: string): void {
  if (readRunningServer(dataDir)?.pid === process.pid) rmSync(join(dataDir, RUNNING_SERVER_FILE), { force: true });
}

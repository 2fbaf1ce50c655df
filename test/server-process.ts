import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Test support (not a test file): the all-in-one server (gateway/main.ts) as an OS process of its
// own, for the tests that need what one process cannot show (two processes, kill -9 and restart).

const mainScript = fileURLToPath(new URL('../gateway/main.ts', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Every line the process printed, stdout and stderr. */
  lines: string[];
}

/** Starts gateway/main.ts with exactly `env`; resolves once it printed where it listens and `ready in`. */
export function spawnServer(label: string, env: NodeJS.ProcessEnv, startTimeoutMs: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let base: string | undefined;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not start within ${startTimeoutMs / 1000} s:\n${lines.join('\n')}`));
    }, startTimeoutMs);
    const onChunk = (chunk: Buffer) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(line);
        const listening = /listening on (http:\/\/\S+)/.exec(line);
        if (listening?.[1]) base = listening[1].replace('localhost', '127.0.0.1');
        if (base && /^ready in /.test(line)) {
          clearTimeout(timer);
          resolve({ child, base, lines });
        }
      }
    };
    child.stdout.on('data', onChunk);
    child.stderr.on('data', onChunk);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code ?? signal}:\n${lines.join('\n')}`));
    });
  });
}

/** SIGTERM, then SIGKILL if it has not exited within 15 s. */
export function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
    server.child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.child.kill('SIGTERM');
  });
}

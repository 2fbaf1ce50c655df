/**
 * Runs npm scripts at the same time and fails if any of them failed: `npm test` runs typecheck and
 * lint together (each is one process on one core; CI has two, and they read the same files). Each
 * script's output is printed whole when it ends, so the two never interleave.
 *
 * Usage: tsx scripts/run-together.ts <npm script> [<npm script> ...]
 */
import { spawn } from 'node:child_process';
import { exitWithUsage, parseCommandLine, UsageError } from '../platform/cli.js';

const USAGE = 'Usage: tsx scripts/run-together.ts <npm script> [<npm script> ...]\n\nRuns the npm scripts at the same time; exits 1 if any of them failed.';

interface Outcome {
  script: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  seconds: number;
  output: string;
}

/** `npm run <script>`, its stdout and stderr gathered in the order they came. */
function runScript(script: string): Promise<Outcome> {
  const started = performance.now();
  const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null, extra = '') =>
      resolve({ script, code, signal, seconds: (performance.now() - started) / 1000, output: Buffer.concat(chunks).toString('utf8') + extra });
    child.once('error', (error) => finish(null, null, `\n${error.message}\n`));
    child.once('close', (code, signal) => finish(code, signal));
  });
}

const describeOutcome = ({ script, code, signal, seconds }: Outcome) => `npm run ${script}: ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code ?? 'none'}`})`} in ${seconds.toFixed(1)} s`;

async function main(): Promise<void> {
  const { positionals: scripts } = parseCommandLine({ usage: USAGE, allowPositionals: true });
  if (scripts.length === 0) exitWithUsage(USAGE, new UsageError('name at least one npm script'));
  const outcomes = await Promise.all(
    scripts.map(async (script) => {
      const outcome = await runScript(script);
      process.stdout.write(`\n=== ${describeOutcome(outcome)}\n${outcome.output}`);
      return outcome;
    }),
  );
  const failed = outcomes.filter((outcome) => outcome.code !== 0);
  process.stdout.write(`\n${outcomes.map(describeOutcome).join('\n')}\n`);
  process.exitCode = failed.length === 0 ? 0 : 1;
}

await main();

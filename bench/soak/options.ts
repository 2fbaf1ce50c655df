import { randomInt } from 'node:crypto';
import { parseCommandLine, UsageError } from '../../platform/cli.js';

/** What one soak run does (decision 0089). */
export interface SoakOptions {
  /** Minutes of load; the run also lasts until every planned fault has happened (bounded, see faults.ts). */
  minutes: number;
  gateways: number;
  replicas: number;
  /** Requests started per second (open loop). */
  rate: number;
  /** Most requests in flight at once; a request due while that many are waiting is not sent and is counted as shed. */
  maxInFlight: number;
  /** Seeds the mix and the fault schedule: the same seed, the same plan. */
  seed: number;
  /** PostgreSQL: the run uses a schema of its own there, dropped at the end unless `keep`. */
  databaseUrl: string;
  redisUrl: string;
  keep: boolean;
  /** Write the Soak section of docs/benchmarks.md. */
  write: boolean;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** At least this many minutes of load make a long run, whose figures are always written. */
export const LONG_RUN_MINUTES = 10;

export const SOAK_USAGE = `usage: npm run soak -- --minutes K [--gateways M] [--replicas N] [--rate R] [--in-flight F] [--seed S] [--keep] [--write]

Starts a cluster (gateway/cluster) on this machine behind local TCP proxies to PostgreSQL
(DATABASE_URL, required; a schema of its own, dropped at the end unless --keep) and Redis
(REDIS_URL, default ${DEFAULT_REDIS_URL}), drives a mix of reads, paid calls (API key and x402) and
payments with callbacks at R requests a second (at most F in flight) for K minutes, while it kills
(SIGKILL) and restarts a process of every kind and stops the database and Redis connections for a
few seconds; then reconciles the database and the chain with what the clients saw, and prints the
figures per phase and per kind. Exits 1 when the reconciliation finds anything wrong.

  --minutes K     minutes of load (required; 0.25 to 120)
  --gateways M    gateway processes (default 2)
  --replicas N    processes of each subgraph (default 2)
  --rate R        requests started per second (default 10)
  --in-flight F   most requests in flight (default 64)
  --seed S        the seed of the mix and the faults (default: random, printed)
  --keep          keep the database schema and the cluster's data folder
  --write         write the Soak section of docs/benchmarks.md (always for ${LONG_RUN_MINUTES} minutes or more)`;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The host and port of a URL on this machine; anything else is refused (the soak loads and cuts 127.0.0.1 only). */
export function loopbackTarget(url: string, defaultPort: number, name: string): { host: string; port: number } {
  const parsed = URL.parse(url);
  if (!parsed) throw new UsageError(`${name} is not a URL`);
  if (!LOOPBACK_HOSTS.has(parsed.hostname)) throw new UsageError(`${name} must point at this machine (127.0.0.1), not ${parsed.hostname}: the soak loads it and cuts its connections`);
  return { host: parsed.hostname === '[::1]' ? '::1' : parsed.hostname, port: parsed.port ? Number(parsed.port) : defaultPort };
}

function numberOption(name: string, text: string | undefined, fallback: number, min: number, max: number, integer: boolean): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

/** The command line and the environment of `npm run soak`; a usage error exits 2 (platform/cli.ts). */
export function parseSoakArguments(args: readonly string[], environment: NodeJS.ProcessEnv): SoakOptions {
  const { values } = parseCommandLine({
    usage: SOAK_USAGE,
    args,
    options: {
      minutes: { type: 'string' },
      gateways: { type: 'string' },
      replicas: { type: 'string' },
      rate: { type: 'string' },
      'in-flight': { type: 'string' },
      seed: { type: 'string' },
      keep: { type: 'boolean', default: false },
      write: { type: 'boolean', default: false },
    },
  });
  if (values.minutes === undefined) throw new UsageError('--minutes is required');
  const databaseUrl = environment.DATABASE_URL;
  if (!databaseUrl) throw new UsageError('DATABASE_URL is required: the cluster runs on PostgreSQL');
  const minutes = numberOption('minutes', values.minutes, 1, 0.25, 120, false);
  const redisUrl = environment.REDIS_URL || DEFAULT_REDIS_URL;
  loopbackTarget(databaseUrl, 5432, 'DATABASE_URL');
  loopbackTarget(redisUrl, 6379, 'REDIS_URL');
  return {
    minutes,
    gateways: numberOption('gateways', values.gateways, 2, 1, 8, true),
    replicas: numberOption('replicas', values.replicas, 2, 1, 8, true),
    rate: numberOption('rate', values.rate, 10, 0.5, 500, false),
    maxInFlight: numberOption('in-flight', values['in-flight'], 64, 1, 1_000, true),
    seed: numberOption('seed', values.seed, randomInt(1, 2 ** 31), 0, 2 ** 32 - 1, true),
    databaseUrl,
    redisUrl,
    keep: values.keep ?? false,
    write: (values.write ?? false) || minutes >= LONG_RUN_MINUTES,
  };
}

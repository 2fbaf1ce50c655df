import { resolve } from 'node:path';
import { exitWithUsage, parseCommandLine, UsageError } from '../../platform/cli.js';
import { configVariableNames } from '../../platform/config.js';
import { type Cluster, startCluster } from './cluster.js';
import { CLUSTER_SECRETS_FILE } from './secrets.js';

const USAGE = `usage: npm run cluster -- [--gateways M] [--replicas N] [--port P] [--data-dir D]

Starts on this machine M gateway processes (default 2) and N processes of each subgraph (default 2)
behind one port (default PORT or 4000), one process holding the embedded chain that every other
reaches at its /rpc (or the node RPC_URL names, with CONTRACT_* and RAIL_SETTLER_KEY), on the
PostgreSQL of DATABASE_URL (required) and the Redis of REDIS_URL (optional).
  --data-dir D   the chain's journal, the cluster's secrets (${CLUSTER_SECRETS_FILE}, mode 0600) and one
                 log per process in D/logs (default ./data/cluster)
Every other variable of docs/configuration.md set here is given to every process.
GET /health on the port names each process. Ctrl-C stops them all.`;

/** Set by the cluster for each process, never passed through. */
const OWN_VARIABLES = new Set(['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'DATABASE_SCHEMA', 'REDIS_URL']);

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 16) throw new UsageError(`--${name} must be a whole number from 1 to 16`);
  return parsed;
}

function passedThrough(): Record<string, string> {
  return Object.fromEntries(configVariableNames().flatMap((name) => (OWN_VARIABLES.has(name) || process.env[name] === undefined ? [] : [[name, process.env[name]!]])));
}

function describe(cluster: Cluster): string {
  const processes = cluster.processes().map((entry) => `    ${entry.name.padEnd(16)} pid ${String(entry.pid).padEnd(8)} ${entry.url}`);
  const subgraphs = Object.entries(cluster.subgraphUrls).map(([name, url]) => `    ${name.padEnd(16)} ${url}`);
  return [
    `cluster listening on ${cluster.url}`,
    `  gateway      ${cluster.url}/graphql (and every REST path)`,
    `  health       ${cluster.url}/health (names each process)`,
    `  chain        ${cluster.rpcUrl}`,
    '  subgraphs (each balanced over its replicas):',
    ...subgraphs,
    '  processes:',
    ...processes,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseCommandLine({
    usage: USAGE,
    options: { gateways: { type: 'string' }, replicas: { type: 'string' }, port: { type: 'string' }, 'data-dir': { type: 'string' } },
  });
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new UsageError('DATABASE_URL is required: every process of the cluster shares one PostgreSQL (the embedded PGlite is one process by design)');
  const port = Number(values.port ?? process.env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError('--port must be a port number');
  const startedAt = Date.now();
  const cluster = await startCluster({
    gateways: count(values.gateways, 'gateways', 2),
    replicas: count(values.replicas, 'replicas', 2),
    databaseUrl,
    ...(process.env.DATABASE_SCHEMA ? { databaseSchema: process.env.DATABASE_SCHEMA } : {}),
    ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
    port,
    host: process.env.HOST ?? '127.0.0.1',
    dataDir: resolve(values['data-dir'] ?? './data/cluster'),
    environment: passedThrough(),
    log: (line) => console.log(`starting: ${line}`),
  });
  console.log(`${describe(cluster)}\nready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping every process`);
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('could not stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) exitWithUsage(USAGE, error);
  console.error(`could not start the cluster: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

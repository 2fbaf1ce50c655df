import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Address, getAddress, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { SUBGRAPH_NAMES, type SubgraphName } from '../subgraph-names.js';
import { createBalancer, routeFor, type RouteTable } from './balancer.js';
import { clusterHealth } from './health.js';
import { type ClusterSecrets, loadOrCreateClusterSecrets } from './secrets.js';
import { type ManagedProcess, manageProcess, type ProcessKind, type ProcessStatus } from './supervisor.js';

export type { ProcessKind } from './supervisor.js';

export interface ClusterOptions {
  gateways: number;
  replicas: number;
  /** PostgreSQL: required, the embedded PGlite is one process by design. */
  databaseUrl: string;
  databaseSchema?: string;
  redisUrl?: string;
  /** The one public port; 0 picks a free one. */
  port?: number;
  host?: string;
  /** The chain's journal, the cluster's secrets, one log file per process (logs/<name>.log). */
  dataDir: string;
  /** Variables for every process (LOG_LEVEL, timeouts, RPC_URL with CONTRACT_* for an external node ...); they win over the cluster's own. */
  environment?: Record<string, string>;
  /** Progress lines. */
  log?: (line: string) => void;
  startTimeoutMs?: number;
}

export interface ClusterProcess {
  name: string;
  kind: ProcessKind;
  url: string | undefined;
  pid: number | undefined;
  status: ProcessStatus;
  restarts: number;
}

export interface RailContracts {
  token: Address;
  router: Address;
  esgOracle: Address;
  redistribution: Address;
  stabilityPID: Address;
  basketPeg: Address;
}

export interface Cluster {
  /** The public port: /graphql, every REST path, /rpc, and /health of the cluster. */
  url: string;
  /** Each subgraph's own balanced port (what the gateways and the other subgraphs reach). */
  subgraphUrls: Record<SubgraphName, string>;
  /** The chain's JSON-RPC (the chain process's /rpc, or RPC_URL when an external node was given). */
  rpcUrl: string;
  /** The mnemonic of the embedded chain's accounts; undefined on an external node. */
  mnemonic: string | undefined;
  contracts: RailContracts;
  secrets: Pick<ClusterSecrets, 'internalKey' | 'adminKey' | 'webhookSigningKey'>;
  processes(): ClusterProcess[];
  /** SIGKILL; it stays down until restart(). */
  kill(name: string): Promise<void>;
  /** Starts it again on its own port (supervisor.ts keeps it: the others were given its URL); resolves once it is ready. */
  restart(name: string): Promise<void>;
  /** SIGTERM every process (in-flight requests finish), SIGKILL after a grace; closes the ports. */
  stop(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 15_000;
/** The rail's accounts on the embedded chain (contracts/deploy.ts): #0 settles and feeds the oracles, the last (#9) is paid. */
const SETTLER_ACCOUNT = 0;
const OPERATOR_ACCOUNT = 9;
const CONTRACT_NAMES = ['token', 'router', 'esgOracle', 'redistribution', 'stabilityPID', 'basketPeg'] as const;
const CONTRACT_VARIABLES: Record<(typeof CONTRACT_NAMES)[number], string> = {
  token: 'CONTRACT_TOKEN',
  router: 'CONTRACT_ROUTER',
  esgOracle: 'CONTRACT_ESG_ORACLE',
  redistribution: 'CONTRACT_REDISTRIBUTION',
  stabilityPID: 'CONTRACT_STABILITY_PID',
  basketPeg: 'CONTRACT_BASKET_PEG',
};

/** The addresses a chain process prints when it is ready (`token 0x…, router 0x…` and `esgOracle 0x…, …`). */
export function contractsFromBanner(lines: readonly string[]): RailContracts {
  const found = new Map<string, Address>();
  for (const line of lines) for (const match of line.matchAll(/\b(\w+) (0x[0-9a-fA-F]{40})\b/g)) found.set(match[1]!, getAddress(match[2]!));
  const missing = CONTRACT_NAMES.filter((name) => !found.has(name));
  if (missing.length > 0) throw new Error(`the chain process did not name its ${missing.join(', ')} contract(s):\n${lines.join('\n')}`);
  return Object.fromEntries(CONTRACT_NAMES.map((name) => [name, found.get(name)!])) as unknown as RailContracts;
}

/** The REST prefixes a subgraph process prints (`subgraph … REST http://…/stability  http://…/esg`). */
export function restPrefixesFromBanner(lines: readonly string[]): string[] {
  const line = lines.find((candidate) => /^\s+subgraph\s.*\sREST\s/.test(candidate));
  if (!line) return [];
  return [...line.split(/\sREST\s/)[1]!.matchAll(/https?:\/\/[^/\s]+(\/\S*)/g)].map((match) => match[1]!);
}

/**
 * The cluster on one machine (decision 0088): one chain process (unless RPC_URL names a node),
 * N processes of each subgraph and M gateways, every one on the same PostgreSQL and Redis, behind
 * one public port and one port per subgraph.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => {});
  const host = options.host ?? '127.0.0.1';
  mkdirSync(join(options.dataDir, 'logs'), { recursive: true });
  const secrets = loadOrCreateClusterSecrets(options.dataDir);
  const all: ManagedProcess[] = [];
  const closers: Array<() => Promise<void>> = [];
  const make = (name: string, kind: ProcessKind, target: string, environment: Record<string, string>) => {
    const managed = manageProcess({
      name,
      kind,
      target,
      environment: { ...baseEnvironment(), DATA_DIR: join(options.dataDir, 'processes', name), ...environment, ...options.environment, HOST: '127.0.0.1', PORT: '0' },
      logFile: join(options.dataDir, 'logs', `${name}.log`),
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    });
    all.push(managed);
    return managed;
  };
  const stopAll = async () => {
    await Promise.all(all.map((managed) => managed.stop(STOP_GRACE_MS)));
    for (const close of closers.splice(0)) await close();
  };
  try {
    // The public port first: every process is told the origin its clients see (PUBLIC_BASE_URL, which x402 resources name).
    const table = new Map<string, ProcessKind>();
    const pick = roundRobin(all);
    const publicBalancer = await createBalancer({ route: (url) => routeFor(table, url, 'gateway'), pick, health: (reply) => clusterHealth(all, reply) });
    closers.push(() => publicBalancer.close());
    const url = (await publicBalancer.listen({ port: options.port ?? 0, host })).replace('localhost', '127.0.0.1');
    const chain = await startChain(options, secrets, make, log);
    const subgraphUrls = {} as Record<SubgraphName, string>;
    for (const name of SUBGRAPH_NAMES) {
      const balancer = await createBalancer({ route: () => name, pick });
      closers.push(() => balancer.close());
      subgraphUrls[name] = await balancer.listen({ port: 0, host: '127.0.0.1' });
    }
    const shared: Record<string, string> = { PUBLIC_BASE_URL: url, ...sharedEnvironment(options, secrets, chain, subgraphUrls) };
    const subgraphProcesses = SUBGRAPH_NAMES.flatMap((name) => range(options.replicas).map((index) => make(`${name}-${index}`, name, name, shared)));
    const gatewayProcesses = range(options.gateways).map((index) =>
      make(`gateway-${index}`, 'gateway', 'gateway', { ...shared, SUBGRAPH_URLS: SUBGRAPH_NAMES.map((name) => `${name}=${subgraphUrls[name]}/subgraphs/${name}/graphql`).join(',') }),
    );
    log(`starting ${subgraphProcesses.length} subgraph processes and ${gatewayProcesses.length} gateways (logs in ${join(options.dataDir, 'logs')})`);
    await Promise.all([...subgraphProcesses, ...gatewayProcesses].map((managed) => managed.start().then(() => log(`${managed.name} is up at ${managed.url()}`))));
    for (const [prefix, kind] of routeTableOf(subgraphProcesses, chain.process !== undefined)) table.set(prefix, kind);
    return {
      url,
      subgraphUrls,
      rpcUrl: chain.rpcUrl,
      mnemonic: chain.process ? secrets.chainMnemonic : undefined,
      contracts: chain.contracts,
      secrets: { internalKey: shared.INTERNAL_KEY ?? secrets.internalKey, adminKey: shared.ADMIN_KEY ?? secrets.adminKey, webhookSigningKey: shared.WEBHOOK_SIGNING_KEY ?? secrets.webhookSigningKey },
      processes: () => all.map((managed) => ({ name: managed.name, kind: managed.kind, url: managed.url(), pid: managed.pid(), status: managed.status(), restarts: managed.restarts() })),
      kill: (name) => processNamed(all, name).kill(),
      restart: async (name) => {
        const managed = processNamed(all, name);
        if (managed.status() !== 'down') await managed.kill();
        await managed.start();
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

type Make = (name: string, kind: ProcessKind, target: string, environment: Record<string, string>) => ManagedProcess;

interface ChainEndpoint {
  /** The chain process; undefined when RPC_URL names an external node. */
  process: ManagedProcess | undefined;
  rpcUrl: string;
  contracts: RailContracts;
}

/** The embedded chain in a process of its own, or the external node RPC_URL names (with CONTRACT_* given). */
async function startChain(options: ClusterOptions, secrets: ClusterSecrets, make: Make, log: (line: string) => void): Promise<ChainEndpoint> {
  const external = options.environment?.RPC_URL;
  if (external) {
    const contracts = Object.fromEntries(CONTRACT_NAMES.map((name) => [name, options.environment?.[CONTRACT_VARIABLES[name]]]));
    const missing = CONTRACT_NAMES.filter((name) => !contracts[name]);
    if (missing.length > 0) throw new Error(`with RPC_URL the cluster needs ${missing.map((name) => CONTRACT_VARIABLES[name]).join(', ')}`);
    return { process: undefined, rpcUrl: external, contracts: contracts as unknown as RailContracts };
  }
  log('starting the chain (the embedded EVM in a process of its own)');
  const chain = make('chain', 'chain', 'chain', { EMBEDDED_CHAIN_MNEMONIC: secrets.chainMnemonic, INTERNAL_KEY: secrets.internalKey, DATA_DIR: options.dataDir });
  await chain.start();
  log(`chain is up at ${chain.url()}`);
  return { process: chain, rpcUrl: `${chain.url()}/rpc`, contracts: contractsFromBanner(chain.startLines()) };
}

/** What every subgraph process and gateway is given: the shared database, Redis, chain and secrets. */
function sharedEnvironment(options: ClusterOptions, secrets: ClusterSecrets, chain: ChainEndpoint, subgraphUrls: Record<SubgraphName, string>): Record<string, string> {
  const own: Record<string, string> = {
    DATABASE_URL: options.databaseUrl,
    ...(options.databaseSchema ? { DATABASE_SCHEMA: options.databaseSchema } : {}),
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    RPC_URL: chain.rpcUrl,
    ...Object.fromEntries(CONTRACT_NAMES.map((name) => [CONTRACT_VARIABLES[name], chain.contracts[name]])),
    INTERNAL_KEY: secrets.internalKey,
    ADMIN_KEY: secrets.adminKey,
    QUOTE_SIGNING_KEY: secrets.quoteSigningKey,
    WEBHOOK_SIGNING_KEY: secrets.webhookSigningKey,
    ISSUER_SIGNING_JWK: secrets.issuerSigningJwk,
    SERVICE_URLS: SUBGRAPH_NAMES.map((name) => `${name}=${subgraphUrls[name]}`).join(','),
  };
  if (chain.process) {
    // One settling key for every replica: the shared send queue keeps its nonces apart (decision 0087).
    const settler = mnemonicToAccount(secrets.chainMnemonic, { addressIndex: SETTLER_ACCOUNT });
    own.RAIL_SETTLER_KEY = toHex(settler.getHdKey().privateKey!);
    own.PAY_TO = mnemonicToAccount(secrets.chainMnemonic, { addressIndex: OPERATOR_ACCOUNT }).address;
  }
  return { ...own, ...options.environment };
}

/** Nothing is inherited from the launcher but where programs and home are, and NODE_ENV. */
function baseEnvironment(): Record<string, string> {
  const { PATH, HOME, NODE_ENV } = process.env;
  return { PATH: PATH ?? '', HOME: HOME ?? '', ...(NODE_ENV ? { NODE_ENV } : {}) };
}

/**
 * Which kind answers a path on the public port: each subgraph's endpoint and REST prefixes (as its
 * processes print them), /rpc for the chain, the key administration (any subgraph process holds
 * the keys), x402 discovery at the root (intelligence's); the gateways answer the rest.
 */
function routeTableOf(subgraphProcesses: readonly ManagedProcess[], hasChain: boolean): RouteTable {
  const table = new Map<string, ProcessKind>();
  for (const managed of subgraphProcesses) {
    table.set(`/subgraphs/${managed.kind}`, managed.kind);
    for (const prefix of restPrefixesFromBanner(managed.startLines())) table.set(prefix, managed.kind);
  }
  if (hasChain) table.set('/rpc', 'chain');
  table.set('/admin', 'payments');
  table.set('/.well-known/x402', 'intelligence');
  return table;
}

/** The next process of a kind that is up, in turn. */
function roundRobin(all: readonly ManagedProcess[]): (kind: ProcessKind) => string | undefined {
  const turns = new Map<ProcessKind, number>();
  return (kind) => {
    const up = all.filter((managed) => managed.kind === kind && managed.status() === 'up');
    if (up.length === 0) return undefined;
    const turn = (turns.get(kind) ?? 0) % up.length;
    turns.set(kind, turn + 1);
    return up[turn]!.url();
  };
}

function processNamed(all: readonly ManagedProcess[], name: string): ManagedProcess {
  const found = all.find((managed) => managed.name === name);
  if (!found) throw new Error(`no process named ${name} (${all.map((managed) => managed.name).join(', ')})`);
  return found;
}

const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

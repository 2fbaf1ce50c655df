import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exitWithUsage, parseCommandLine, UsageError } from '../platform/cli.js';
import type { Config } from '../platform/config.js';
import type { BuiltServer, ServerOptions } from './server.js';
import { isSubgraphName, SUBGRAPH_NAMES } from './subgraph-names.js';

/** The rest of the rail, imported once the command line is read: --help and a usage error load no subgraph. */
async function loadRail() {
  const [chainMnemonic, chain, log, runningServer, payments, server] = await Promise.all([
    import('../platform/chain/chain-mnemonic.js'),
    import('../platform/chain/index.js'),
    import('../platform/log.js'),
    import('../platform/running-server.js'),
    import('../subgraphs/payments/index.js'),
    import('./server.js'),
  ]);
  return {
    MNEMONIC_FILE: chainMnemonic.MNEMONIC_FILE,
    EMBEDDED_CHAIN_FOLDER: chain.EMBEDDED_CHAIN_FOLDER,
    describeErrorForLog: log.describeErrorForLog,
    forgetRunningServer: runningServer.forgetRunningServer,
    localUrlOf: runningServer.localUrlOf,
    recordRunningServer: runningServer.recordRunningServer,
    EMBEDDED_TREASURY_ACCOUNT_INDEX: payments.EMBEDDED_TREASURY_ACCOUNT_INDEX,
    buildServer: server.buildServer,
  };
}
type Rail = Awaited<ReturnType<typeof loadRail>>;

/**
 * Entry point.
 *   tsx gateway/main.ts                 all-in-one: every subgraph, the gateway, REST, health, metrics
 *   tsx gateway/main.ts serve <name>    one subgraph alone (distributed layout); `a,b` serves several
 *   tsx gateway/main.ts serve gateway   the gateway alone, reaching every subgraph at SUBGRAPH_URLS
 *   tsx gateway/main.ts serve chain     the embedded EVM alone, for processes on RPC_URL=<it>/rpc
 */
const USAGE = `usage:
  npm start                            the all-in-one server: every subgraph, the gateway at /graphql,
                                       their REST paths, /health and /metrics
  npm run serve -- <subgraph>[,<...>]  one subgraph alone (its REST paths and /subgraphs/<name>/graphql),
                                       or several in one process
  npm run serve -- gateway             the gateway alone, reaching every subgraph at SUBGRAPH_URLS
  npm run serve -- chain               the embedded EVM alone (its JSON-RPC at /rpc), for processes
                                       started with RPC_URL=<its address>/rpc
  npm run cluster -- --gateways M --replicas N
                                       M gateways and N processes of each subgraph on this machine
                                       behind one port, on DATABASE_URL (npm run cluster -- --help)
  npm run dev                          npm start, restarted when a source file changes
subgraphs: ${SUBGRAPH_NAMES.join(', ')}
Configured by environment variables (PORT, HOST, DATA_DIR, DATABASE_URL, ...): docs/configuration.md.
SIGINT or SIGTERM stops it: in-flight requests finish (at most SHUTDOWN_GRACE_MS), then the database closes.`;

function optionsFromArguments(argv: string[]): Omit<ServerOptions, 'config'> {
  const [command, target, ...rest] = parseCommandLine({ usage: USAGE, args: argv, allowPositionals: true }).positionals;
  if (command === undefined) return {};
  if (command !== 'serve') throw new UsageError(`unknown command "${command}"`);
  if (!target) throw new UsageError('serve needs a subgraph, several (a,b), gateway or chain');
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest.join(' ')}"`);
  if (target === 'gateway') return { subgraphs: [], gateway: true };
  if (target === 'chain') return { subgraphs: [], gateway: false, chainAlone: true };
  const names = target.split(',');
  const unknown = names.filter((name) => !isSubgraphName(name));
  if (unknown.length > 0) throw new UsageError(`unknown subgraph "${unknown.join(', ')}"; one of: ${SUBGRAPH_NAMES.join(', ')}, gateway, chain`);
  return { subgraphs: names.filter(isSubgraphName), gateway: false };
}

function banner(server: BuiltServer, address: string): string {
  const base = address.replace('127.0.0.1', 'localhost');
  const driver = server.platform ? `database: ${server.platform.database.driver}` : `${server.chain ? 'chain' : 'gateway'} alone, no database`;
  const hasGateway = server.app.hasRoute({ method: 'POST', url: '/graphql' });
  return [
    `settlement-rail-graph listening on ${base} (${driver})`,
    ...(hasGateway ? [`  gateway      ${base}/graphql`] : []),
    ...server.subgraphs.map((subgraph) => `  subgraph     ${base}/subgraphs/${subgraph.name}/graphql   REST ${subgraph.restPrefixes.map((prefix) => base + prefix).join('  ')}`),
    `  health       ${base}/health`,
    `  metrics      ${base}/metrics`,
  ].join('\n');
}

/** Prints an error with its causes (never SQL parameters: the log serializer withholds them). */
function describeFailure({ describeErrorForLog }: Rail, error: unknown, what = 'could not start'): string {
  const lines: string[] = [];
  let current: Record<string, unknown> | undefined = describeErrorForLog(error);
  while (current) {
    lines.push(`${lines.length === 0 ? what : '  caused by'}: ${String(current.message)}${current.code ? ` (${String(current.code)})` : ''}`);
    current = current.cause as Record<string, unknown> | undefined;
  }
  return lines.join('\n');
}

/** What the rail does with each of its accounts (contracts/deploy.ts, decisions 0008 and 0049); index 0 and the last are fixed there. */
function accountRole({ EMBEDDED_TREASURY_ACCOUNT_INDEX }: Rail, index: number, count: number): string {
  if (index === 0) return 'owns the token and the contracts, feeds the oracles, settles x402 payments';
  if (index === EMBEDDED_TREASURY_ACCOUNT_INDEX) return "the payments treasury (agent owners' and AP2 issuers' deposits)";
  if (index === count - 1) return 'the operator: x402 payTo and the fee share';
  return 'held by the rail';
}

/** Where the accounts' secret comes from: never the secret itself. */
function mnemonicSource({ EMBEDDED_CHAIN_FOLDER, MNEMONIC_FILE }: Rail, config: Config): string {
  if (config.chain.embeddedMnemonic !== undefined) return 'the mnemonic in EMBEDDED_CHAIN_MNEMONIC';
  return `the secret mnemonic generated in ${join(config.database.dataDir, EMBEDDED_CHAIN_FOLDER, MNEMONIC_FILE)} (mode 0600; whoever reads it can sign for them)`;
}

/**
 * With no RPC_URL, a process serving subgraphs starts the embedded EVM and deploys the contracts
 * before it listens, and prints what an outside wallet needs: the addresses and the rail's
 * accounts with their roles. Never their keys nor their mnemonic (decision 0052).
 */
async function connectEmbeddedRail(rail: Rail, server: BuiltServer, config: Config, progress: (message: string) => void): Promise<string> {
  const chain = server.chain;
  if (!chain || chain.mode !== 'embedded') return '';
  // Serving subgraphs, buildServer began it beside their starts; serving the chain alone, it begins here.
  if (!server.chainStarted) progress('starting the embedded EVM (chainId 8453) and deploying the token and the settlement router');
  const { contracts, embedded } = await (server.chainStarted ?? chain.connect());
  const count = embedded?.accounts.length ?? 0;
  const accounts = (embedded?.accounts ?? []).map((account, index) => `    #${index} ${account.address}  ${accountRole(rail, index, count)}`);
  return [
    '',
    `  rail         embedded EVM, chainId 8453, JSON-RPC at /rpc: token ${contracts.token}, router ${contracts.router}`,
    `  contracts    esgOracle ${contracts.esgOracle}, redistribution ${contracts.redistribution}, stabilityPID ${contracts.stabilityPID}, basketPeg ${contracts.basketPeg}`,
    `  accounts     the rail's own, funded with 1,000,000 rUSD each, derived from ${mnemonicSource(rail, config)}:`,
    ...accounts,
  ].join('\n');
}

/**
 * A process that holds the embedded data folder (PGlite: one process) says where it listens, so
 * that `npm run keys` reaches it instead of the folder (decision 0058). Returns the cleanup.
 */
function announceEmbeddedServer({ recordRunningServer, localUrlOf, forgetRunningServer }: Rail, server: BuiltServer, config: Config): () => void {
  if (!server.platform || config.database.url !== undefined) return () => {};
  const { dataDir } = config.database;
  recordRunningServer(dataDir, localUrlOf(config.server.host, (server.app.server.address() as AddressInfo).port));
  return () => forgetRunningServer(dataDir);
}

/** SIGINT and SIGTERM: stop accepting, let in-flight requests finish (bounded), close, say so. */
function stopOnSignals(rail: Rail, server: BuiltServer, config: Config, cleanup: () => void): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests (at most ${config.server.shutdownGraceMs} ms), then stopping`);
    const deadline = setTimeout(() => {
      console.error('in-flight requests did not finish in time; stopping anyway');
      process.exit(1);
    }, config.server.shutdownGraceMs);
    deadline.unref();
    server.close().then(
      () => {
        cleanup();
        console.log(`stopped (${signal}): every in-flight request was answered${server.platform ? ', the database is closed and the data folder released' : ''}`);
        process.exit(0);
      },
      (error: unknown) => {
        console.error(describeFailure(rail, error, 'could not stop cleanly'));
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

let rail: Rail | undefined;

/**
 * Serving subgraphs opens the database (the gateway alone and the chain alone open none): main
 * begins claiming the data folder and opening it (PGlite created and migrated at the first start)
 * while the rest of the rail is imported; buildServer then owns it (decision 0098).
 */
function opensDatabase(options: Omit<ServerOptions, 'config'>): boolean {
  return !options.chainAlone && options.subgraphs?.length !== 0;
}

/** Seconds since this process started (performance.timeOrigin), not since main() began: what a caller waited. */
function secondsSinceProcessStart(): string {
  return (performance.now() / 1000).toFixed(1);
}

async function main(): Promise<void> {
  // The command line first: --help and a usage error need no configuration, and no subgraph loaded.
  const options = optionsFromArguments(process.argv.slice(2));
  const progress = (message: string) => console.log(`starting: ${message}`);
  progress('loading the subgraphs and the supergraph');
  // The configuration and the storage's few modules are imported side by side, before the rest.
  const [{ loadConfig }, { openPlatformStorage }] = await Promise.all([import('../platform/config.js'), import('./platform-storage.js')]);
  const config = loadConfig();
  const storage = opensDatabase(options) ? openPlatformStorage(config, progress) : undefined;
  // Until buildServer owns it, a failed start releases it here.
  storage?.catch(() => undefined);
  try {
    rail = await loadRail();
  } catch (error) {
    await storage?.then((opened) => opened.close()).catch(() => undefined);
    throw error;
  }
  const server = await rail.buildServer({ config, progress, startChain: true, ...(storage ? { storage } : {}), ...options });
  const embedded = await connectEmbeddedRail(rail, server, config, progress);
  const address = await server.app.listen({ port: config.server.port, host: config.server.host });
  const cleanup = announceEmbeddedServer(rail, server, config);
  console.log(`${banner(server, address)}${embedded}\nready in ${secondsSinceProcessStart()} s`);
  stopOnSignals(rail, server, config, cleanup);
}

main().catch(async (error: unknown) => {
  if (error instanceof UsageError) exitWithUsage(USAGE, error);
  console.error(describeFailure(rail ?? (await loadRail()), error));
  process.exit(1);
});

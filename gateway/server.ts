import { registerAdminKeyRoutes } from '../platform/access/keys-route.js';
import type { ChainConnection, RailChain } from '../platform/chain/index.js';
import type { Config } from '../platform/config.js';
import { createHttpServer, type HttpServer } from '../platform/http.js';
import type { BaseServices, PlatformServices, Subgraph } from '../platform/subgraph.js';
import { registerWebApp } from '../web/serve.js';
import { mountGateway, mountSubgraphEndpoint } from './graphql-endpoints.js';
import { mountMcpServer } from './mcp/server.js';
import { registerOperationsRoutes } from './operations-routes.js';
import { createBaseServices, createConfiguredRailChain, createPlatformServices, type PlatformOverrides } from './platform-services.js';
import { registerPrefixHealthRoutes } from './prefix-health.js';
import { registerEmbeddedRpcRoute } from './rpc-route.js';
import { buildSubgraphs, SUBGRAPH_NAMES, type SubgraphName } from './subgraphs.js';

export interface ServerOptions extends PlatformOverrides {
  config: Config;
  /** Serve these subgraphs only (distributed layout); default: every registered one. */
  subgraphs?: readonly SubgraphName[];
  /** Mount the gateway at /graphql; default true when every subgraph is served. */
  gateway?: boolean;
  /**
   * Serve the embedded chain alone (`serve chain`): its JSON-RPC at /rpc for the processes of a
   * cluster on RPC_URL, /health and /metrics; no subgraph, no database.
   */
  chainAlone?: boolean;
  /**
   * Start the embedded chain (the EVM and the contracts' deployment) while the subgraphs start,
   * rather than on first use: `npm start` prints the contracts before it listens.
   */
  startChain?: boolean;
}

export interface BuiltServer {
  app: HttpServer;
  base: BaseServices;
  /** Undefined for the gateway alone and the chain alone, which open no database. */
  platform: PlatformServices | undefined;
  /** The rail's chain this process holds or reaches: undefined for the gateway alone. */
  chain: RailChain | undefined;
  /** The embedded chain's start begun by `startChain`, if it was. */
  chainStarted: Promise<ChainConnection> | undefined;
  subgraphs: Subgraph[];
  /** Stops accepting, lets in-flight requests finish, then closes the database and the data folder. */
  close(): Promise<void>;
}

/**
 * The all-in-one server of DESIGN.md §2 (or one slice of it): REST prefixes (each with its
 * <prefix>/health), each subgraph at /subgraphs/<name>/graphql, the gateway at /graphql, /health,
 * /metrics and, with ADMIN_KEY, /admin/keys. Not listening.
 */
export async function buildServer(options: ServerOptions): Promise<BuiltServer> {
  if (options.chainAlone) return buildChainServer(options);
  const base = createBaseServices(options.config, options);
  const names = options.subgraphs ?? SUBGRAPH_NAMES;
  const owned = names.length > 0 ? await createPlatformServices(base, options) : undefined;
  try {
    const chainStarted = owned && options.startChain ? startEmbeddedChain(owned.services.chain, options.progress) : undefined;
    const subgraphs = owned ? buildSubgraphs(owned.services, names) : [];
    await startSubgraphs(subgraphs);
    const app = createHttpServer({
      logger: base.logger,
      metrics: base.metrics,
      clock: base.clock,
      handlerTimeoutMs: options.config.server.requestTimeoutMs,
      publicBaseUrl: options.config.server.publicBaseUrl,
    });
    for (const subgraph of subgraphs) {
      await app.register(subgraph.routes);
      await mountSubgraphEndpoint(app, base, subgraph, `/subgraphs/${subgraph.name}/graphql`);
    }
    // Calls between subgraphs without SERVICE_URLS go through this server's own routes.
    owned?.attachUpstream(app);
    if (options.gateway ?? options.subgraphs === undefined) await mountGateway(app, base, subgraphs);
    if (options.gateway ?? options.subgraphs === undefined)
      registerWebApp(app, { name: 'dashboard', entry: 'web/dashboard/main.tsx', title: 'Settlement rail risk dashboard', pagePaths: ['/'], jsxImportSource: 'preact', buildWhenListening: true });
    registerOperationsRoutes(app, base, owned?.services.database.driver);
    registerPrefixHealthRoutes(app, base, subgraphs);
    // Key administration over HTTP, while ADMIN_KEY is set (decision 0058): `npm run keys` beside a running server.
    if (owned) registerAdminKeyRoutes(app, owned.services.access.keys, options.config.access.adminKey);
    if (owned?.services.chain.mode === 'embedded') registerEmbeddedRpcRoute(app, owned.services.chain, options.config.embeddedRpc, base.clock, options.config.access.internalKey);
    mountMcpServer(app, options.config);
    const closeApp = closeGracefully(app);
    return {
      app,
      base,
      platform: owned?.services,
      chain: owned?.services.chain,
      chainStarted,
      subgraphs,
      async close() {
        await closeApp();
        await Promise.all(subgraphs.map((subgraph) => subgraph.close?.()));
        await owned?.close();
      },
    };
  } catch (error) {
    await owned?.close();
    throw error;
  }
}

/**
 * The embedded chain's start, begun now so that it runs beside the subgraphs' starts (the reference
 * data's import, the oracles' first run); awaited through `chainStarted` before listening.
 */
function startEmbeddedChain(chain: RailChain, progress: ((message: string) => void) | undefined): Promise<ChainConnection> | undefined {
  if (chain.mode !== 'embedded') return undefined;
  progress?.('starting the embedded EVM (chainId 8453) and deploying the token and the settlement router');
  const started = chain.connect();
  // Its failure is reported where it is awaited; until then it is not an unhandled rejection.
  started.catch(() => undefined);
  return started;
}

/** Every subgraph's start at once (each its own data and runs); if one fails, every one is closed. */
async function startSubgraphs(subgraphs: readonly Subgraph[]): Promise<void> {
  const outcomes = await Promise.allSettled(subgraphs.map((subgraph) => subgraph.start?.()));
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (!failure) return;
  await Promise.all(subgraphs.map((subgraph) => subgraph.close?.()));
  throw failure.reason;
}

/**
 * Stops accepting and lets in-flight requests finish. A response sent while stopping closes its
 * connection, so a keep-alive client does not hold the server open (or send its next request into
 * a closed socket).
 */
function closeGracefully(app: HttpServer): () => Promise<void> {
  let closing = false;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  return async () => {
    closing = true;
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearInterval(sweep);
    }
  };
}

/**
 * `serve chain`: the embedded EVM alone (decision 0088), for the processes of a cluster that reach it
 * at RPC_URL=<this>/rpc. It keeps its journal in DATA_DIR/chain and opens no database.
 */
async function buildChainServer(options: ServerOptions): Promise<BuiltServer> {
  const { config } = options;
  if (config.chain.rpcUrl) throw new Error('serve chain runs the embedded EVM; RPC_URL is set, so there is no chain here to serve');
  const base = createBaseServices(config, options);
  const chain = options.chain ?? createConfiguredRailChain(config);
  base.health.register({ name: 'rail', check: async () => void (await (await chain.connect()).publicClient.getBlockNumber()) });
  const app = createHttpServer({ logger: base.logger, metrics: base.metrics, clock: base.clock, handlerTimeoutMs: config.server.requestTimeoutMs, publicBaseUrl: config.server.publicBaseUrl });
  registerOperationsRoutes(app, base, undefined);
  registerEmbeddedRpcRoute(app, chain, config.embeddedRpc, base.clock, config.access.internalKey);
  const closeApp = closeGracefully(app);
  return {
    app,
    base,
    platform: undefined,
    chain,
    chainStarted: undefined,
    subgraphs: [],
    async close() {
      await closeApp();
      if (!options.chain) await chain.close();
    },
  };
}

import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { createFeesContext, createFeesResolvers } from './resolvers.js';
import { feesRoutes, type EndpointRegistry } from './routes.js';
import { BASE_NETWORK, createFeesService, STABILITY_ENDPOINTS } from './service.js';
import { withTimeout } from '../../platform/timeout.js';
import { createWriteBehind, type WriteBehind } from '../../platform/write-behind.js';
import type { Quote } from './domain/index.js';
import { createFeeStore, type FeeStore } from './store.js';
import { stabilityParameters } from './data/signals.js';
import { feeParameters } from './data/index.js';
import type { ContractParameters } from '../../contracts/parameters.js';
import { createFeesOracleJobs } from './oracle-jobs.js';
import { createOraclePublisher } from './oracle-publication.js';
import { createOracleRunStore } from './oracle-run-store.js';
import { createOracleService } from './oracle-service.js';
import { COMPLIANCE_SERVICE, createEntityEsgClient } from './upstream/compliance.js';
import { createFeesOracles } from './oracles.js';

export const name = 'fees';
export const typeDefs = loadSubgraphTypeDefs(name);

/** What the rail's contracts are deployed with: the router's fees and the oracle contracts' stability figures, from this subgraph's parameters (one source for both). */
export const contractParameters: ContractParameters = { fees: feeParameters, stability: stabilityParameters };

/** Fee model, stability and ESG oracle quotes (DESIGN.md §1). */
export function build(platform: PlatformServices): Subgraph {
  const { contracts } = platform.config;
  const store = createFeeStore(platform.database.db, { timeoutMs: platform.config.database.statementTimeoutMs });
  const issuedQuotes = createIssuedQuoteQueue(platform, store);
  const endpointRegistry: EndpointRegistry = {};
  const { oracles: oracleConfig, forecast } = platform.config;
  const runStore = createOracleRunStore(platform.database.db, platform.config.database.statementTimeoutMs);
  // Each recorded run's figures copied to the rail's oracle contracts, never failing the run (decision 0057).
  const publisher = createOraclePublisher({ chain: platform.chain, settlerKey: platform.config.access.settlerKey, timeoutMs: platform.config.chain.timeoutMs, logger: platform.logger, health: platform.health });
  const oracles = createFeesOracles(
    platform,
    runStore,
    createFeesOracleJobs({
      store: runStore,
      synthesiser: platform.synthesiser,
      feeds: { live: oracleConfig.live, fredApiKey: forecast.fredApiKey, baseUrls: { fred: oracleConfig.fredUrl, defillama: oracleConfig.defillamaUrl }, timeoutMs: oracleConfig.liveTimeoutMs },
      publisher,
    }),
  );
  const service = createFeesService({
    clock: platform.clock,
    signer: platform.signer,
    ids: platform.ids,
    store,
    ledger: { record: (quote) => issuedQuotes.enqueue(quote) },
    oracleReadings: () => oracles.readings(),
    endpoints: { stability: () => endpointRegistry.stability?.() ?? STABILITY_ENDPOINTS, esg: () => endpointRegistry.esg?.() ?? {} },
    chain: platform.chain,
    chainTimeoutMs: platform.config.chain.timeoutMs,
    contracts: {
      token: contracts.token ?? null,
      esgOracle: contracts.esgOracle ?? null,
      redistribution: contracts.redistribution ?? null,
      stabilityPID: contracts.stabilityPID ?? null,
      basketPeg: contracts.basketPeg ?? null,
    },
  });
  const oracleService = createOracleService({ oracles, clock: platform.clock, network: BASE_NETWORK, parameters: stabilityParameters });
  const resolvers = createFeesResolvers(service, oracleService);
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, resolvers),
    restPrefixes: ['/stability', '/esg'],
    routes: feesRoutes(service, oracleService, {
      registry: endpointRegistry,
      publicBaseUrl: platform.config.server.publicBaseUrl,
      readings: () => oracles.readings(),
      entityEsg: platform.access.internalKey ? createEntityEsgClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey: platform.access.internalKey }) : undefined,
    }),
    createContext: (request) => ({ request, ...createFeesContext(service) }),
    start: () => oracles.start(),
    close: async () => {
      await oracles.close();
      // Publications under way end before the chain closes; one the chain does not answer is given up.
      await withTimeout(publisher.idle(), platform.config.chain.timeoutMs, 'oracle publications').catch(() => undefined);
      await issuedQuotes.close();
    },
  };
}

const ISSUED_QUOTES_QUEUE = 'fee_quotes';

/** Issued quotes on their way to the ledger: batched off the request path, bounded, flushed at shutdown. */
function createIssuedQuoteQueue(platform: PlatformServices, store: FeeStore): WriteBehind<Quote> {
  const { database } = platform.config;
  const queue = createWriteBehind<Quote>({
    name: ISSUED_QUOTES_QUEUE,
    write: (quotes) => store.insertQuotes(quotes),
    flushDelayMs: database.writeBehindFlushMs,
    retryDelayMs: 1000,
    maxQueued: database.writeBehindMaxQueued,
    maxBatch: 500,
    closeTimeoutMs: database.statementTimeoutMs,
    logger: platform.logger,
    onDrop: (count) => platform.metrics.writeBehindDropped.inc({ queue: ISSUED_QUOTES_QUEUE }, count),
    onWriteOutcome: (ok, error) => platform.health.reportOutcome('database writes (fees)', ok, error),
  });
  platform.metrics.watchWriteBehind(ISSUED_QUOTES_QUEUE, () => queue.pending);
  return queue;
}

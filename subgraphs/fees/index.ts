import type { ContractParameters } from '../../contracts/parameters.js';
import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { withTimeout } from '../../platform/timeout.js';
import { createWriteBehind, type WriteBehind } from '../../platform/write-behind.js';
import { feeParameters } from './data/index.js';
import { stabilityParameters } from './data/signals.js';
import { createEsgJob, type EsgOutput, esgReading } from './esg/job.js';
import { createEsgOracleService } from './esg/service.js';
import type { Quote } from './quotes/domain/index.js';
import { createFeesContext } from './quotes/resolvers.js';
import { createFeesService, STABILITY_ENDPOINTS } from './quotes/service.js';
import { createFeeStore, type FeeStore } from './quotes/store.js';
import { createFeesResolvers } from './resolvers.js';
import { feesRoutes } from './routes.js';
import { createFeesOracles, type FeesOracles } from './runs/oracles.js';
import { createOraclePublisher, type OraclePublisher } from './runs/publication.js';
import { createOracleRunStore } from './runs/store.js';
import { BASE_NETWORK, ESG_PREFIX, STABILITY_PREFIX } from './shared/constants.js';
import type { EndpointRegistry } from './shared/service-routes.js';
import { createStabilityJob, type StabilityOutput, stabilityReading } from './stability/job.js';
import { createStabilityService } from './stability/service.js';
import { COMPLIANCE_SERVICE, createEntityEsgClient } from './upstream/compliance.js';

// The fees subgraph: its families are quotes/ (fee quotes, schedules, manifests, verifications, FX
// rates), stability/ and esg/ (the two oracles), runs/ (the oracles' scheduled runs, their record
// and their publication on chain) and widgets/; this file builds them and composes their routes
// and resolvers (routes.ts, resolvers.ts).

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
  const { oracles, publisher } = createOracles(platform);
  const quotes = createFeesService({
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
  const { intervalSeconds } = oracles;
  const stability = createStabilityService({ runs: oracles.stability, intervalSeconds, clock: platform.clock, network: BASE_NETWORK, parameters: stabilityParameters });
  const esg = createEsgOracleService({ runs: oracles.esg, intervalSeconds, clock: platform.clock });
  const { internalKey } = platform.access;
  const entityEsg = internalKey ? createEntityEsgClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey }) : undefined;
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, createFeesResolvers({ quotes, stability, esg })),
    restPrefixes: [STABILITY_PREFIX, ESG_PREFIX],
    routes: feesRoutes({ quotes, stability, esg, readings: () => oracles.readings(), entityEsg, registry: endpointRegistry, publicBaseUrl: platform.config.server.publicBaseUrl }),
    createContext: (request) => ({ request, ...createFeesContext(quotes) }),
    start: () => oracles.start(),
    close: async () => {
      await oracles.close();
      // Publications under way end before the chain closes; one the chain does not answer is given up.
      await withTimeout(publisher.idle(), platform.config.chain.timeoutMs, 'oracle publications').catch(() => undefined);
      await issuedQuotes.close();
    },
  };
}

/** The stability and ESG oracles' jobs on one scheduler, their record, and the publisher of their runs. */
function createOracles(platform: PlatformServices): { oracles: FeesOracles<StabilityOutput, EsgOutput>; publisher: OraclePublisher } {
  const { oracles: oracleConfig, forecast } = platform.config;
  const store = createOracleRunStore(platform.database.db, platform.config.database.statementTimeoutMs);
  // Each recorded run's figures copied to the rail's oracle contracts, never failing the run (decision 0057).
  const publisher = createOraclePublisher({
    chain: platform.chain,
    settlerKey: platform.config.access.settlerKey,
    timeoutMs: platform.config.chain.timeoutMs,
    logger: platform.logger,
    health: platform.health,
  });
  const sources = { store, synthesiser: platform.synthesiser, publisher };
  const feeds = { live: oracleConfig.live, fredApiKey: forecast.fredApiKey, baseUrls: { fred: oracleConfig.fredUrl, defillama: oracleConfig.defillamaUrl }, timeoutMs: oracleConfig.liveTimeoutMs };
  const oracles = createFeesOracles<StabilityOutput, EsgOutput>(platform, store, {
    stability: createStabilityJob({ ...sources, feeds }),
    esg: createEsgJob(sources),
    readings: (stability, esg, runAt) => ({ stability: stabilityReading(stability, runAt.stability), esg: esgReading(esg, runAt.esg) }),
  });
  return { oracles, publisher };
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

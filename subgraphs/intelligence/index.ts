import { publicOrigin } from '../../platform/credentials.js';
import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { createDashboardService } from './dashboard/service.js';
import { snapshotSeries } from './data/dataset.js';
import { datasetEndpoints, signalEndpoints } from './endpoints.js';
import { createLedgerStore } from './predictive/ledger-store.js';
import { createReportsService } from './reports/service.js';
import { createIntelligenceResolvers } from './resolvers.js';
import { intelligenceRoutes } from './routes.js';
import { AnswerCache } from './shared/answer-cache.js';
import { createAnswerStore } from './shared/answer-store.js';
import { catalogEntry } from './shared/catalog.js';
import { type SignalComputation, timeSignalComputations } from './shared/computation-timing.js';
import { createSignalService } from './shared/signal-service.js';
import { createDatasetSource } from './sources/dataset-source.js';
import { COMPLIANCE_SERVICE, createComplianceClient } from './upstream/compliance.js';
import { createClimateSource } from './upstream/forecast.js';
import { createOracleReportSources } from './upstream/oracles.js';
import { createTreasurySource, PAYMENTS_SERVICE } from './upstream/payments.js';

export const name = 'intelligence';
export const typeDefs = loadSubgraphTypeDefs(name);

/**
 * Paid intelligence: the reports of Document 1 under /reports and the signals of Document 3 under
 * /v1/intelligence (the server root is `{intelligence_url}`, decision 0062).
 */
export function build(platform: PlatformServices): Subgraph {
  const compliance = createComplianceClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey: platform.access.internalKey });
  const cache = new AnswerCache(platform.clock, createAnswerStore(platform.database.db));
  const reports = createReportsService({
    clock: platform.clock,
    synthesiser: platform.synthesiser,
    access: platform.access,
    cache,
    climate: createClimateSource(platform.upstream.transport('forecast')),
    oracles: createOracleReportSources({ fees: platform.upstream.transport('fees'), compliance: platform.upstream.transport('compliance'), internalKey: platform.access.internalKey }),
    compliance,
    treasury: createTreasurySource({ transport: platform.upstream.transport(PAYMENTS_SERVICE), internalKey: platform.access.internalKey }),
  });
  const signals = createSignalService({ clock: platform.clock, access: platform.access, cache, dataset: createDatasetSource(platform) });
  const endpoints = signalEndpoints({ compliance, ledger: createLedgerStore(platform.database.db) });
  const dashboard = createDashboardService({ access: platform.access, signals, endpoints });
  const graphqlUrl = `${publicOrigin(platform.config.server)}/graphql`;
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, createIntelligenceResolvers({ reports, signals, endpoints, dashboard }, graphqlUrl)),
    restPrefixes: ['/reports', '/v1/intelligence', '/intelligence'],
    routes: intelligenceRoutes({ reports, signals, endpoints, dashboard }, { access: platform.access, facilitatorUrl: platform.config.access.facilitatorUrl }),
    createContext: (request) => ({ request }),
  };
}

export type { SignalComputation };

/** npm run bench (section 8): what a cache miss of each signal costs, computed over the shipped snapshot up to `runs` times within `budgetMs` each. */
export function measureSignalComputation(runs: number, budgetMs?: number): Promise<SignalComputation[]> {
  return timeSignalComputations(datasetEndpoints(), { series: snapshotSeries() }, new Date(), runs, budgetMs);
}

/** npm run bench (section 8): the example body of each POST endpoint (the simulations), by path. */
export function signalExamples(): Map<string, unknown> {
  return new Map(datasetEndpoints().flatMap((endpoint) => (endpoint.example === undefined ? [] : [[catalogEntry(endpoint.id, endpoint.summary).path, endpoint.example] as const])));
}

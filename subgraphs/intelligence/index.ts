import { publicOrigin } from '../../platform/credentials.js';
import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { createIntelligenceResolvers } from './resolvers.js';
import { reportsRoutes } from './routes.js';
import { createIntelligenceService } from './service.js';
import { createReportStore } from './store.js';
import { createClimateSource } from './upstream/forecast.js';
import { createOracleReportSources } from './upstream/oracles.js';

export const name = 'intelligence';
export const typeDefs = loadSubgraphTypeDefs(name);

/** Paid intelligence (Document 1 reports; Document 3 §5 later), REST under /reports. */
export function build(platform: PlatformServices): Subgraph {
  const service = createIntelligenceService({
    clock: platform.clock,
    synthesiser: platform.synthesiser,
    access: platform.access,
    store: createReportStore(platform.database.db),
    climate: createClimateSource(platform.upstream.transport('forecast')),
    oracles: createOracleReportSources({ fees: platform.upstream.transport('fees'), compliance: platform.upstream.transport('compliance'), internalKey: platform.access.internalKey }),
  });
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, createIntelligenceResolvers(service, `${publicOrigin(platform.config.server)}/graphql`)),
    restPrefixes: ['/reports'],
    routes: reportsRoutes(service, { access: platform.access, facilitatorUrl: platform.config.access.facilitatorUrl }),
    createContext: (request) => ({ request }),
  };
}

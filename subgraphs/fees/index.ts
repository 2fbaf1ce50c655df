import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { createFeesContext, createFeesResolvers } from './resolvers.js';
import { feesRoutes } from './routes.js';
import { createFeesService } from './service.js';
import { createFeeStore } from './store.js';

export const name = 'fees';
export const typeDefs = loadSubgraphTypeDefs(name);

/** Fee model, stability and ESG oracle quotes (DESIGN.md §1). */
export function build(platform: PlatformServices): Subgraph {
  const { contracts } = platform.config;
  const service = createFeesService({
    clock: platform.clock,
    signer: platform.signer,
    ids: platform.ids,
    store: createFeeStore(platform.database.db, {
      timeoutMs: platform.config.database.statementTimeoutMs,
      onWriteOutcome: (ok, error) => platform.health.reportOutcome('database writes (fees)', ok, error),
    }),
    contracts: {
      token: contracts.token ?? null,
      esgOracle: contracts.esgOracle ?? null,
      redistribution: contracts.redistribution ?? null,
      stabilityPID: contracts.stabilityPID ?? null,
      basketPeg: contracts.basketPeg ?? null,
    },
  });
  const resolvers = createFeesResolvers(service);
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, resolvers),
    restPrefixes: ['/stability', '/esg'],
    routes: feesRoutes(service),
    createContext: (request) => ({ request, ...createFeesContext(service) }),
  };
}

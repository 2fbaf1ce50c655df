import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { withSettlementAgent } from './agent/index.js';
import { createCallbackDelivery } from './callbacks/index.js';
import { createCallbackStore } from './callbacks/store.js';
import { createPaymentGraphStore } from './integration/graph-store.js';
import { createIntegrationHealth } from './integration/health.js';
import { createInitiation } from './integration/initiation.js';
import { createRailSettlement } from './rail/settlement.js';
import { createPaymentsContext, createPaymentsResolvers } from './integration/resolvers.js';
import { paymentsRoutes } from './integration/routes.js';
import { INTEGRATION_PREFIX } from './shared/api.js';
import { createPaymentRecovery, recoveryDelaysFor, withPaymentRecovery } from './recovery/service.js';
import { createRailLookup } from './rail/lookup.js';
import { createPaymentsService, SETTLEMENT_AGENT_TENANT } from './integration/service.js';
import { createPaymentStore } from './integration/store.js';
import { COMPLIANCE_SERVICE, createComplianceClient } from './upstream/compliance.js';
import { createFeesClient, FEES_SERVICE } from './upstream/fees.js';

export const name = 'payments';
export const typeDefs = loadSubgraphTypeDefs(name);

/** The payment integration API (Document 2; DESIGN.md §1): payments in, screened through compliance, priced by fees, settled on the rail. */
export function build(platform: PlatformServices): Subgraph {
  const { config } = platform;
  const timeoutMs = config.database.statementTimeoutMs;
  const callbacks = createCallbackStore(platform.database.db, { timeoutMs });
  // The callback worker, woken by this process's own commits of a callback (decision 0024 §12).
  const delivery = createCallbackDelivery(platform, callbacks);
  const { internalKey } = platform.access;
  const store = createPaymentStore(platform.database.db, callbacks, { timeoutMs, onCallbackQueued: delivery.wake });
  const rail = createRailSettlement({ chain: platform.chain, timeoutMs: config.chain.timeoutMs, settlerKey: config.access.settlerKey });
  // Payments a stopped process left PENDING, ended from what they recorded and the chain (decision 0039).
  const recovery = createPaymentRecovery({
    store,
    lookup: createRailLookup({ chain: platform.chain, timeoutMs: config.chain.timeoutMs }),
    clock: platform.clock,
    network: () => rail.network(),
    delays: recoveryDelaysFor(config.chain.timeoutMs),
    logger: platform.logger,
  });
  const payments = createPaymentsService({
    store,
    compliance: internalKey ? createComplianceClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey }) : undefined,
    fees: createFeesClient({ transport: platform.upstream.transport(FEES_SERVICE) }),
    rail,
    clock: platform.clock,
    ids: platform.ids,
    logger: platform.logger,
  });
  const initiation = createInitiation({ payments, ids: platform.ids });
  const graphStore = createPaymentGraphStore(platform.database.db, { timeoutMs });
  const resolvers = createPaymentsResolvers(payments, initiation);
  // Every caller of the integration API acts as its institution or as the admin (decision 0050).
  const access = { keys: platform.access.keys, adminKey: config.access.adminKey };
  // The settlement agent's own settlements (decision 0050): the lead wires each agent's owner here.
  return withPaymentRecovery(platform, recovery, delivery.mount(withSettlementAgent(platform, payments.for(SETTLEMENT_AGENT_TENANT), {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, resolvers),
    restPrefixes: [INTEGRATION_PREFIX],
    routes: paymentsRoutes(payments, {
      ...access,
      initiation,
      health: createIntegrationHealth({
        compliance: platform.upstream.transport(COMPLIANCE_SERVICE),
        stability: platform.upstream.transport(FEES_SERVICE),
        pingDatabase: () => platform.database.ping(),
      }),
    }),
    createContext: (request) => createPaymentsContext(graphStore, access, request),
  })));
}

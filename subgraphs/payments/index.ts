import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { httpRoutes } from '../../platform/http.js';
import { buildSettlementAgent } from './agent/index.js';
import { buildCallbacks } from './callbacks/index.js';
import { buildIntegration } from './integration/index.js';
import { SETTLEMENT_AGENT_TENANT } from './integration/service.js';
import { createRailSettlement } from './rail/settlement.js';
import { buildRecovery } from './recovery/index.js';
import { AGENT_PREFIX, INTEGRATION_PREFIX } from './shared/api.js';

export const name = 'payments';
export const typeDefs = loadSubgraphTypeDefs(name);

/** The development account the embedded rail's treasury is (its deposits and settlements), as the gateway's banner names it. */
export { EMBEDDED_TREASURY_ACCOUNT_INDEX } from './rail/settlement.js';

/**
 * The payments subgraph (Document 2; DESIGN.md §1), its families composed:
 * - integration: the payment integration API under /integration and the payments graph;
 * - agent: the settlement agent under /agent, settling through the integration's payments;
 * - callbacks: the callback outbox, and its worker from start() to close();
 * - recovery: payments a stopped process left PENDING, ended from start() to close();
 * all settling on the one rail. Its routes are the union of the families' (the integration
 * API's first, as before), its resolvers the integration's (the only family with GraphQL fields).
 */
export function build(platform: PlatformServices): Subgraph {
  const { config } = platform;
  // The callback worker, woken by this process's own commits of a callback (decision 0024 §12).
  const callbacks = buildCallbacks(platform);
  const rail = createRailSettlement({ chain: platform.chain, timeoutMs: config.chain.timeoutMs, settlerKey: config.access.settlerKey });
  const integration = buildIntegration(platform, { callbacks: callbacks.store, onCallbackQueued: callbacks.wake, rail });
  // Payments a stopped process left PENDING, ended from what they recorded and the chain (decision 0039).
  const recovery = buildRecovery(platform, { store: integration.store, network: () => rail.network() });
  // The settlement agent's own settlements (decision 0050): the lead wires each agent's owner here.
  const agent = buildSettlementAgent(platform, integration.payments.for(SETTLEMENT_AGENT_TENANT));
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, integration.resolvers),
    restPrefixes: [INTEGRATION_PREFIX, AGENT_PREFIX],
    routes: httpRoutes(async (app) => {
      await app.register(integration.routes);
      await app.register(agent.routes);
    }),
    createContext: integration.createContext,
    // The worker starts before the recovery's first run is scheduled; the recovery stops first at close (after the last request, before the database closes).
    async start() {
      callbacks.start();
      recovery.start();
    },
    async close() {
      await recovery.stop();
      await callbacks.stop();
    },
  };
}

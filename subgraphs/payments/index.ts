import { createDatabaseRateLimitStore } from '../../platform/access/rate-limit.js';
import { createIdempotency } from '../../platform/idempotency.js';
import type { PlatformServices, Subgraph } from '../../platform/subgraph.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../platform/subgraph.js';
import { createAp2MandateVerifier } from './agent/ap2-verifier.js';
import { ap2CapabilityData } from './agent/data/ap2-capabilities.js';
import { buildAp2Capabilities } from './agent/domain/index.js';
import { createAgentFunds } from './agent/funds.js';
import { createAgentFundsStore } from './agent/funds-store.js';
import { createHeldSettlements } from './agent/holds.js';
import { createSettlementAgent } from './agent/service.js';
import { createAgentSettlementStore } from './agent/store.js';
import { fundsRail, treasuryWallet } from './agent/treasury.js';
import { type CallbackDelivery, createCallbackDelivery } from './callbacks/delivery.js';
import { createPaymentGraphStore } from './integration/graph-store.js';
import { createIntegrationHealth } from './integration/health.js';
import { createInitiation } from './integration/initiation.js';
import { createPaymentsContext } from './integration/resolvers.js';
import { createPaymentsService, type PaymentsService, SETTLEMENT_AGENT_TENANT } from './integration/service.js';
import { createPaymentStore } from './integration/store.js';
import { createTreasurySummary } from './integration/treasury-summary.js';
import { createRailLookup } from './rail/lookup.js';
import { createRailSettlement, type RailSettlement } from './rail/settlement.js';
import { createPaymentRecovery, createRecoveryLoop, recoveryDelaysFor } from './recovery/service.js';
import { createPaymentsResolvers } from './resolvers.js';
import { type PaymentsRouteDeps, paymentsRoutes } from './routes.js';
import { AGENT_PREFIX, INTEGRATION_PREFIX } from './shared/api.js';
import { COMPLIANCE_SERVICE, createComplianceClient } from './upstream/compliance.js';
import { createFeesClient, FEES_SERVICE } from './upstream/fees.js';

// The payments subgraph: its families are integration/ (the payment integration API and the
// payments graph), agent/ (the settlement agent), callbacks/ (the callback outbox and its worker)
// and recovery/ (payments a stopped process left PENDING), all settling on the one rail (rail/);
// this file builds them and composes their routes and resolvers (routes.ts, resolvers.ts).

export const name = 'payments';
export const typeDefs = loadSubgraphTypeDefs(name);

/** The development account the embedded rail's treasury is (its deposits and settlements), as the gateway's banner names it. */
export { EMBEDDED_TREASURY_ACCOUNT_INDEX } from './rail/settlement.js';

/** The payment integration API and the settlement agent (Document 2; DESIGN.md §1): payments in, screened through compliance, priced by fees, settled on the rail. */
export function build(platform: PlatformServices): Subgraph {
  const { config } = platform;
  // The callback worker, woken by this process's own commits of a callback (decision 0024 §12).
  const callbacks = createCallbackDelivery(platform);
  const rail = createRailSettlement({ chain: platform.chain, timeoutMs: config.chain.timeoutMs, settlerKey: config.access.settlerKey });
  const integration = buildIntegration(platform, callbacks, rail);
  // Payments a stopped process left PENDING, ended from what they recorded and the chain (decision 0039).
  const recovery = createRecoveryLoop(
    createPaymentRecovery({
      store: integration.store,
      lookup: createRailLookup({ chain: platform.chain, timeoutMs: config.chain.timeoutMs }),
      clock: platform.clock,
      network: () => rail.network(),
      delays: recoveryDelaysFor(config.chain),
      logger: platform.logger,
    }),
    platform.logger,
  );
  // The settlement agent's own settlements (decision 0050): the lead wires each agent's owner here.
  const agent = buildSettlementAgent(platform, integration.payments.for(SETTLEMENT_AGENT_TENANT));
  // Every caller of the integration API acts as its institution or as the admin (decision 0050).
  const access = { keys: platform.access.keys, adminKey: config.access.adminKey };
  const internalKey = platform.access.internalKey;
  const resolvers = createPaymentsResolvers({ ...integration, internalKey, agent: { ...agent, adminKey: config.access.adminKey } });
  return {
    name,
    typeDefs,
    schema: buildFederatedSchema(typeDefs, resolvers),
    restPrefixes: [INTEGRATION_PREFIX, AGENT_PREFIX],
    routes: paymentsRoutes({ integration, agent, ...access, internalKey }),
    createContext: (request) => createPaymentsContext(integration.graphStore, access, request),
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

/** The integration family: the payments table and its service (the flow every payment runs), the body readers, the graph's reads, the health. */
function buildIntegration(platform: PlatformServices, callbacks: CallbackDelivery, rail: RailSettlement) {
  const { config } = platform;
  const timeoutMs = config.database.statementTimeoutMs;
  const { internalKey } = platform.access;
  const store = createPaymentStore(platform.database.db, callbacks.store, { timeoutMs, onCallbackQueued: callbacks.wake });
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
  const health = createIntegrationHealth({
    compliance: platform.upstream.transport(COMPLIANCE_SERVICE),
    stability: platform.upstream.transport(FEES_SERVICE),
    pingDatabase: () => platform.database.ping(),
  });
  // The month's aggregate for the treasury report (decision 0066).
  const treasury = createTreasurySummary(platform.database.db, { timeoutMs });
  return { store, payments, initiation, graphStore, health, treasury };
}

/**
 * The settlement agent family under /agent (decision 0027): its settlements go through `service`,
 * the payments of the settlement agent's tenant (decision 0050), paid from its owners' or its AP2
 * issuers' funds (decision 0049); held settlements wait for an operator (decision 0047).
 */
function buildSettlementAgent(platform: PlatformServices, service: PaymentsService): PaymentsRouteDeps['agent'] {
  const { config } = platform;
  const { internalKey } = platform.access;
  const trustedIssuers = config.agent.ap2TrustedIssuers;
  const { db } = platform.database;
  const authority = {
    compliance: internalKey ? createComplianceClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey }) : undefined,
    rateLimits: platform.access.rateLimits ?? createDatabaseRateLimitStore(db),
    clock: platform.clock,
  };
  const { adminKey } = config.access;
  const funds = createAgentFunds({
    ...authority,
    store: createAgentFundsStore(db, { timeoutMs: config.database.statementTimeoutMs }),
    rail: () => fundsRail(platform),
    issuers: trustedIssuers,
    adminKey,
  });
  const deps = {
    ...authority,
    payments: service,
    store: createAgentSettlementStore(db, { timeoutMs: config.database.statementTimeoutMs }),
    payerWallet: () => treasuryWallet(platform),
    ids: platform.ids,
    funds,
  };
  const agent = createSettlementAgent({
    ...deps,
    fees: createFeesClient({ transport: platform.upstream.transport(FEES_SERVICE) }),
    verifier: createAp2MandateVerifier({ trustedIssuers: new Map([...trustedIssuers].map(([issuer, trusted]) => [issuer, trusted.jwk])), clock: platform.clock }),
    idempotency: createIdempotency(db, { clock: platform.clock }),
  });
  const holds = createHeldSettlements({ ...deps, adminKey });
  const data = ap2CapabilityData();
  return { agent, holds, funds, capabilities: (agentUrl) => buildAp2Capabilities(data, { agentUrl, trustedIssuers: trustedIssuers.keys() }) };
}

import type { FastifyPluginAsync } from 'fastify';
import type { PlatformServices, SubgraphContext } from '../../../platform/subgraph.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { CallbackStore } from '../callbacks/store.js';
import type { RailSettlement } from '../rail/settlement.js';
import { COMPLIANCE_SERVICE, createComplianceClient } from '../upstream/compliance.js';
import { createFeesClient, FEES_SERVICE } from '../upstream/fees.js';
import { createPaymentGraphStore } from './graph-store.js';
import { createIntegrationHealth } from './health.js';
import { createInitiation } from './initiation.js';
import { createPaymentsContext, createPaymentsResolvers } from './resolvers.js';
import { paymentsRoutes } from './routes.js';
import { createPaymentsService, type Payments } from './service.js';
import { createPaymentStore, type PaymentStore } from './store.js';

/** The integration family as the payments subgraph composes it. */
export interface Integration {
  /** Every tenant's payments: the flow the settlement agent settles through too. */
  payments: Payments;
  /** The payments table: the recovery ends what a stopped process left PENDING in it. */
  store: PaymentStore;
  /** The payments graph (the subgraph's only GraphQL fields). */
  resolvers: ReturnType<typeof createPaymentsResolvers>;
  /** The integration API under /integration. */
  routes: FastifyPluginAsync;
  createContext(request: RequestContext): SubgraphContext;
}

export interface IntegrationDeps {
  /** The callback outbox: a final result's callback is written in the same transaction. */
  callbacks: Pick<CallbackStore, 'enqueue'>;
  /** Wakes this process's callback worker after a callback was committed (decision 0024 §12). */
  onCallbackQueued: () => void;
  rail: RailSettlement;
}

/** The payment integration API (Document 2; DESIGN.md §1): payments in, screened through compliance, priced by fees, settled on the rail. */
export function buildIntegration(platform: PlatformServices, deps: IntegrationDeps): Integration {
  const { config } = platform;
  const timeoutMs = config.database.statementTimeoutMs;
  const { internalKey } = platform.access;
  const store = createPaymentStore(platform.database.db, deps.callbacks, { timeoutMs, onCallbackQueued: deps.onCallbackQueued });
  const payments = createPaymentsService({
    store,
    compliance: internalKey ? createComplianceClient({ transport: platform.upstream.transport(COMPLIANCE_SERVICE), internalKey }) : undefined,
    fees: createFeesClient({ transport: platform.upstream.transport(FEES_SERVICE) }),
    rail: deps.rail,
    clock: platform.clock,
    ids: platform.ids,
    logger: platform.logger,
  });
  const initiation = createInitiation({ payments, ids: platform.ids });
  const graphStore = createPaymentGraphStore(platform.database.db, { timeoutMs });
  // Every caller of the integration API acts as its institution or as the admin (decision 0050).
  const access = { keys: platform.access.keys, adminKey: config.access.adminKey };
  const health = createIntegrationHealth({
    compliance: platform.upstream.transport(COMPLIANCE_SERVICE),
    stability: platform.upstream.transport(FEES_SERVICE),
    pingDatabase: () => platform.database.ping(),
  });
  return {
    payments,
    store,
    resolvers: createPaymentsResolvers(payments, initiation),
    routes: paymentsRoutes(payments, { ...access, initiation, health }),
    createContext: (request) => createPaymentsContext(graphStore, access, request),
  };
}

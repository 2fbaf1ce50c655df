import type { FastifyPluginAsync } from 'fastify';
import type { ApiKeys } from '../../platform/access/api-keys.js';
import { httpRoutes } from '../../platform/http.js';
import type { Ap2CapabilityDocument } from './agent/domain/index.js';
import type { AgentFundsService } from './agent/funds.js';
import type { HeldSettlements } from './agent/holds.js';
import { agentManifestRoutes } from './agent/manifest.js';
import { agentRoutes } from './agent/routes.js';
import type { SettlementAgent } from './agent/service.js';
import type { IntegrationHealth } from './integration/health.js';
import type { Initiations } from './integration/initiation.js';
import { integrationRoutes } from './integration/routes.js';
import type { Payments } from './integration/service.js';
import type { TreasurySummaryService } from './integration/treasury-summary.js';

export interface PaymentsRouteDeps {
  integration: {
    payments: Payments;
    initiation: Initiations;
    health: IntegrationHealth;
    treasury: TreasurySummaryService;
  };
  agent: {
    agent: SettlementAgent;
    holds: HeldSettlements;
    funds: AgentFundsService;
    /** The capability document for the agent URL (`<origin>/agent`). */
    capabilities(agentUrl: string): Ap2CapabilityDocument;
  };
  /** Institution keys (Authorization: Bearer): every caller of the integration API acts as its institution (decision 0050). */
  keys: ApiKeys;
  /** ADMIN_KEY: reads every institution's payments, operates the held settlements and the issuers' funds. */
  adminKey: string | undefined;
  /** INTERNAL_KEY: the internal paths (the treasury summary). */
  internalKey: string | undefined;
}

/**
 * The subgraph's two REST services, each one family's: {integration_url} (the integration API, its
 * OpenAPI document and error shape), then {agent_url} (the settlement agent with its OpenAPI document
 * and error shape, then its manifest, outside that document), registered in that order.
 */
export function paymentsRoutes(deps: PaymentsRouteDeps): FastifyPluginAsync {
  const { integration, agent, keys, adminKey, internalKey } = deps;
  return httpRoutes(async (app) => {
    await app.register(integrationRoutes(integration.payments, { keys, adminKey, initiation: integration.initiation, health: integration.health, treasury: integration.treasury, internalKey }));
    await app.register(agentRoutes(agent.agent, { capabilities: agent.capabilities, holds: agent.holds, adminKey, funds: agent.funds }));
    await app.register(agentManifestRoutes());
  });
}

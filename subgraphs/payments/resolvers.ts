import { JSONObjectResolver } from 'graphql-scalars';
import { DecimalScalar } from '../../platform/scalars.js';
import { type AgentGraphDeps, createAgentResolvers } from './agent/resolvers.js';
import { createIntegrationResolvers, type IntegrationGraphDeps } from './integration/resolvers.js';
import type { Payments } from './integration/service.js';

/**
 * The subgraph's resolvers: its scalars and the union of its families' fields: the integration's
 * (the payments, their parties and callbacks, the lists of the entities compliance owns, the
 * manifest and the treasury summary) and the settlement agent's (settle, its funds, the held
 * settlements). The callbacks and the recovery have none of their own.
 */
export function createPaymentsResolvers(services: IntegrationGraphDeps & { payments: Payments; agent: AgentGraphDeps }) {
  const integration = createIntegrationResolvers(services.payments, services);
  const agent = createAgentResolvers(services.agent);
  return {
    Decimal: DecimalScalar,
    JSONObject: JSONObjectResolver,
    ...integration,
    Query: { ...integration.Query, ...agent.Query },
    Mutation: { ...integration.Mutation, ...agent.Mutation },
  };
}

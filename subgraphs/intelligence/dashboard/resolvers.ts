import type { SubgraphContext } from '../../../platform/subgraph.js';
import type { DashboardService, RiskDashboardParent } from './service.js';

/** Query.riskDashboard and the parts of RiskDashboard this subgraph answers; fees and forecast add theirs by the entity's id. */
export function createDashboardResolvers(service: DashboardService, graphqlUrl: string) {
  const parts = Object.fromEntries(service.fields.map((field) => [field, (parent: RiskDashboardParent) => service.part(parent, field)]));
  return {
    Query: { riskDashboard: (_: unknown, __: unknown, context: SubgraphContext) => service.open(context.request, `${graphqlUrl}#riskDashboard`) },
    RiskDashboard: parts,
  };
}

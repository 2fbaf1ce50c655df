import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import { createDashboardResolvers } from './dashboard/resolvers.js';
import { createReportsResolvers } from './reports/resolvers.js';
import type { IntelligenceServices } from './routes.js';
import { signalResolvers } from './shared/signal-resolvers.js';

/** The subgraph's scalars, the reports' fields and one field per signal. */
export function createIntelligenceResolvers(services: IntelligenceServices, graphqlUrl: string) {
  const dashboard = createDashboardResolvers(services.dashboard, graphqlUrl);
  return {
    DateTime: DateTimeResolver,
    JSONObject: JSONObjectResolver,
    Query: { ...createReportsResolvers(services.reports, graphqlUrl), ...signalResolvers(services.signals, services.endpoints, graphqlUrl), ...dashboard.Query },
    RiskDashboard: dashboard.RiskDashboard,
  };
}

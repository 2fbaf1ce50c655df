import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import type { SubgraphContext } from '../../platform/subgraph.js';
import type { IntelligenceService } from './service.js';

/** The graph's reports: paid like their REST paths, the resource named by the public GraphQL URL. */
export function createIntelligenceResolvers(service: IntelligenceService, graphqlUrl: string) {
  return {
    DateTime: DateTimeResolver,
    JSONObject: JSONObjectResolver,
    Query: {
      climateReport: (_: unknown, __: unknown, context: SubgraphContext) => service.climateReport(context.request, `${graphqlUrl}#climateReport`),
    },
  };
}

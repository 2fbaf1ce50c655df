import { parseGraphQLInput } from '../../../platform/graphql.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import { complianceReportQuerySchema, complianceSubjectOf, esgReportQuerySchema, esgSubjectOf, treasuryReportQuerySchema } from './inputs.js';
import type { ReportsService } from './service.js';

/** The graph's reports: paid like their REST paths, the resource named by the public GraphQL URL. */
export function createReportsResolvers(service: ReportsService, graphqlUrl: string) {
  return {
    climateReport: (_: unknown, __: unknown, context: SubgraphContext) => service.climateReport(context.request, `${graphqlUrl}#climateReport`),
    macroReport: (_: unknown, __: unknown, context: SubgraphContext) => service.macroReport(context.request, `${graphqlUrl}#macroReport`),
    esgReport: (_: unknown, args: { lei?: string | null; address?: string | null }, context: SubgraphContext) =>
      service.esgReport(
        context.request,
        `${graphqlUrl}#esgReport`,
        esgSubjectOf(parseGraphQLInput(esgReportQuerySchema, { ...(args.lei ? { lei: args.lei } : {}), ...(args.address ? { address: args.address } : {}) }, 'GEN_ERR_BAD_REQUEST')),
      ),
    complianceReport: (_: unknown, args: { lei?: string | null; name?: string | null }, context: SubgraphContext) =>
      service.complianceReport(context.request, `${graphqlUrl}#complianceReport`, complianceSubjectOf(parseGraphQLInput(complianceReportQuerySchema, args, 'GEN_ERR_BAD_REQUEST'))),
    treasuryReport: (_: unknown, args: { period?: string | null }, context: SubgraphContext) =>
      service.treasuryReport(context.request, `${graphqlUrl}#treasuryReport`, parseGraphQLInput(treasuryReportQuerySchema, args, 'GEN_ERR_BAD_REQUEST').period),
  };
}

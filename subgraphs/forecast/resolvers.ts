import { DateTimeResolver } from 'graphql-scalars';
import { parseGraphQLInput } from '../../platform/graphql.js';
import { DecimalScalar } from '../../platform/scalars.js';
import type { CommoditySymbol } from './domain/index.js';
import { portfolioBodySchema, scenarioBodySchema, tcfdBodySchema } from './inputs.js';
import { type ForecastService, parseSupportedSymbol } from './service.js';

interface CommodityParent {
  symbol: CommoditySymbol;
}

export function createForecastResolvers(service: ForecastService) {
  return {
    DateTime: DateTimeResolver,
    Decimal: DecimalScalar,
    Query: {
      heatCheck: () => service.heatCheck(),
      commodity: (_: unknown, args: { symbol: string }): CommodityParent => ({ symbol: parseSupportedSymbol(args.symbol) }),
      commodities: async (): Promise<CommodityParent[]> => (await service.heatCheck()).commodities.map(({ symbol }) => ({ symbol })),
      climateRegions: () => service.regions(),
      riskCalendar: () => service.calendar(),
      portfolioStress: (_: unknown, args: { input: Record<string, unknown> }) => service.portfolio(parseGraphQLInput(portfolioBodySchema, args.input, 'FCT_ERR_INVALID_BODY')),
      scenarioAnalysis: (_: unknown, args: { input: Record<string, unknown> }) => service.scenario(parseGraphQLInput(scenarioBodySchema, args.input, 'FCT_ERR_INVALID_BODY')),
      tcfdReport: (_: unknown, args: { input: Record<string, unknown> }) => service.tcfdReport(parseGraphQLInput(tcfdBodySchema, args.input, 'FCT_ERR_INVALID_BODY')),
    },
    /** The forecast part of the intelligence service's risk dashboard (free, like GET /forecast/heat-check). */
    RiskDashboard: {
      __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
      heatCheck: () => service.heatCheck(),
    },
    Commodity: {
      // A representation is the caller's JSON (a subgraph endpoint's _entities): its symbol may be no string.
      __resolveReference: (reference: { symbol: unknown }): CommodityParent => ({ symbol: parseSupportedSymbol(typeof reference.symbol === 'string' ? reference.symbol : '') }),
      outlook: (parent: CommodityParent) => service.commodityOutlook(parent.symbol),
      calendar: async (parent: CommodityParent) => (await service.calendar()).filter((entry) => (entry.commoditiesAtRisk as readonly string[]).includes(parent.symbol)),
    },
  };
}

import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import { DecimalScalar } from '../../platform/scalars.js';
import { createEsgResolvers } from './esg/resolvers.js';
import type { EsgOracleService } from './esg/service.js';
import { createQuoteResolvers } from './quotes/resolvers.js';
import type { FeesService } from './quotes/service.js';
import { createStabilityResolvers } from './stability/resolvers.js';
import type { StabilityService } from './stability/service.js';

/** The subgraph's resolvers: its scalars and the union of its families' fields (each field is one family's). */
export function createFeesResolvers(services: { quotes: FeesService; stability: StabilityService; esg: EsgOracleService }) {
  const quotes = createQuoteResolvers(services.quotes);
  const stability = createStabilityResolvers(services.stability);
  const esg = createEsgResolvers(services.esg);
  return {
    DateTime: DateTimeResolver,
    Decimal: DecimalScalar,
    JSONObject: JSONObjectResolver,
    PegState: stability.PegState,
    Query: { ...quotes.Query, ...stability.Query, ...esg.Query },
    LegalEntity: quotes.LegalEntity,
    Quote: quotes.Quote,
    RiskDashboard: stability.RiskDashboard,
  };
}

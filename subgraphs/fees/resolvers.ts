import DataLoader from 'dataloader';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { parseGraphQLInput } from '../../platform/graphql.js';
import { DecimalScalar } from '../../platform/scalars.js';
import type { Quote } from './domain/index.js';
import { esgQuoteBodySchema, quoteBodySchema } from './inputs.js';
import type { FeesService } from './service.js';

export interface FeesContext {
  quoteById: DataLoader<string, Quote | null>;
}

export function createFeesContext(service: FeesService): FeesContext {
  return {
    quoteById: new DataLoader(async (ids) => {
      const found = await service.findQuotes(ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}

export function createFeesResolvers(service: FeesService) {
  return {
    DateTime: DateTimeResolver,
    JSON: JSONResolver,
    Decimal: DecimalScalar,
    Query: {
      stabilityManifest: () => service.manifest(),
      feeSchedule: () => service.feeSchedule(),
      feeQuote: (_: unknown, args: { input: Record<string, unknown> }) => service.issueQuote(parseGraphQLInput(quoteBodySchema, args.input, 'FEE_ERR_INVALID_QUOTE_PARAMS')),
      quote: (_: unknown, args: { quoteId: string }, context: FeesContext) => context.quoteById.load(args.quoteId),
      esgFeeQuote: (_: unknown, args: { input: Record<string, unknown> }) => service.esgQuote(parseGraphQLInput(esgQuoteBodySchema, args.input, 'FEE_ERR_INVALID_QUOTE_PARAMS')),
      esgFeeSchedule: () => service.esgFeeSchedule(),
    },
    Quote: {
      __resolveReference: (reference: { quoteId: string }, context: FeesContext) => context.quoteById.load(reference.quoteId),
    },
  };
}

import DataLoader from 'dataloader';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { AppError } from '../../platform/errors.js';
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

/** GraphQL inputs go through the same zod schema as the REST body; nulls mean "omitted". */
function parseInput<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } }, input: Record<string, unknown>): T {
  const withoutNulls = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
  const result = schema.safeParse(withoutNulls);
  if (result.success) return result.data;
  const message = result.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`).join('; ');
  throw new AppError('FEE_ERR_INVALID_QUOTE_PARAMS', { message: `Invalid input: ${message}` });
}

export function createFeesResolvers(service: FeesService) {
  return {
    DateTime: DateTimeResolver,
    JSON: JSONResolver,
    Decimal: DecimalScalar,
    Query: {
      stabilityManifest: () => service.manifest(),
      feeSchedule: () => service.feeSchedule(),
      feeQuote: (_: unknown, args: { input: Record<string, unknown> }) => service.issueQuote(parseInput(quoteBodySchema, args.input)),
      quote: (_: unknown, args: { quoteId: string }, context: FeesContext) => context.quoteById.load(args.quoteId),
      esgFeeQuote: (_: unknown, args: { input: Record<string, unknown> }) => service.esgQuote(parseInput(esgQuoteBodySchema, args.input)),
      esgFeeSchedule: () => service.esgFeeSchedule(),
    },
    Quote: {
      __resolveReference: (reference: { quoteId: string }, context: FeesContext) => context.quoteById.load(reference.quoteId),
    },
  };
}

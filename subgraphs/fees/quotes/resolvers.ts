import DataLoader from 'dataloader';
import { AppError } from '../../../platform/errors.js';
import { parseGraphQLInput } from '../../../platform/graphql.js';
import { looksLikeQuoteId, type Quote } from './domain/index.js';
import { esgQuoteBodySchema, quoteBodySchema, quoteVerifyBodySchema, verifyFeesBodySchema } from './inputs.js';
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

/**
 * A quoteId argument that does not have the documented form is bad input (400), refused before
 * any database call: a NUL byte or a megabyte of text would otherwise reach the query and fail
 * there as if the database were down. The message never repeats the argument.
 */
function checkedQuoteId(quoteId: string): string {
  if (!looksLikeQuoteId(quoteId)) throw new AppError('FEE_ERR_INVALID_QUOTE_PARAMS', { message: 'quoteId must look like srq-<digits>-<hex>' });
  return quoteId;
}

/** The quotes' fields of the graph: Query's quote, schedule, manifest and verification fields, a LegalEntity's payment fee, and the Quote entity. */
export function createQuoteResolvers(service: FeesService) {
  return {
    Query: {
      stabilityManifest: () => service.manifest(),
      feeSchedule: () => service.feeSchedule(),
      feeQuote: (_: unknown, args: { input: Record<string, unknown> }) => service.issueQuote(parseGraphQLInput(quoteBodySchema, args.input, 'FEE_ERR_INVALID_QUOTE_PARAMS')),
      quote: (_: unknown, args: { quoteId: string }, context: FeesContext) => context.quoteById.load(checkedQuoteId(args.quoteId)),
      esgManifest: () => service.esgManifest(),
      esgFeeQuote: (_: unknown, args: { input: Record<string, unknown> }) => service.esgQuote(parseGraphQLInput(esgQuoteBodySchema, args.input, 'FEE_ERR_INVALID_QUOTE_PARAMS')),
      esgFeeSchedule: () => service.esgFeeSchedule(),
      feeVerification: (_: unknown, args: { input: Record<string, unknown> }) => service.verifyFees(parseGraphQLInput(verifyFeesBodySchema, args.input, 'FEE_ERR_INVALID_QUOTE_PARAMS')),
      usdFxRate: (_: unknown, args: { currency: string }) => service.fxRate(args.currency),
      quoteVerification: (_: unknown, args: { input: Record<string, unknown> }) => service.verifyQuoteForTerms(parseGraphQLInput(quoteVerifyBodySchema, args.input, 'FEE_ERR_INVALID_QUOTE_PARAMS')),
    },
    LegalEntity: {
      /** Compliance gives the entity's ESG score (@requires); the fee is the quote at that score, the rail's oracle default when it has none (decision 0036). */
      paymentFee: (entity: { lei: string; esgScore?: number | null }, args: { amountUsd: number; hasFx?: boolean | null; monthlyVolumeUsd?: number | null }) =>
        service.issueQuote(
          parseGraphQLInput(quoteBodySchema, { amountUsd: args.amountUsd, hasFx: args.hasFx, monthlyVolumeUsd: args.monthlyVolumeUsd, esgScore: entity.esgScore }, 'FEE_ERR_INVALID_QUOTE_PARAMS'),
        ),
    },
    Quote: {
      /** A reference from another subgraph with a malformed id resolves to no quote, without a query. */
      __resolveReference: (reference: { quoteId: string }, context: FeesContext) =>
        typeof reference.quoteId === 'string' && looksLikeQuoteId(reference.quoteId) ? context.quoteById.load(reference.quoteId) : null,
      verification: (quote: Quote) => service.verifyQuote(quote),
    },
  };
}

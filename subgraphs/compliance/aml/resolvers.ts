import { requireInternalKey } from '../../../platform/access/shared-secret.js';
import { parseGraphQLInput } from '../../../platform/graphql.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import { amlScreenBodySchema, amlWalletParamsSchema } from './inputs.js';
import type { AmlService } from './service.js';

/**
 * AML in the graph (internal, decision 0082): as on REST, the request's X-Internal-Key is checked
 * before its arguments are read, so an outsider learns nothing about the fields; then the same zod
 * validation and the same service.
 */
export function amlResolvers(aml: AmlService, internalKey: string | undefined) {
  const wallet = (args: { wallet: string }) => parseGraphQLInput(amlWalletParamsSchema, args, 'CMP_ERR_INVALID_REQUEST').wallet;
  return {
    Query: {
      amlProfile: (_: unknown, args: { wallet: string }, context: SubgraphContext) => {
        requireInternalKey(context.request, internalKey);
        return aml.profile(wallet(args));
      },
      amlEvents: (_: unknown, args: { wallet: string }, context: SubgraphContext) => {
        requireInternalKey(context.request, internalKey);
        return aml.events(wallet(args));
      },
    },
    Mutation: {
      amlScreen: (_: unknown, args: { input: Record<string, unknown> }, context: SubgraphContext) => {
        requireInternalKey(context.request, internalKey);
        return aml.screen(parseGraphQLInput(amlScreenBodySchema, args.input, 'CMP_ERR_INVALID_REQUEST'));
      },
    },
  };
}

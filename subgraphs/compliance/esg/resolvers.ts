import { parseGraphQLInput } from '../../../platform/graphql.js';
import { leiParamsSchema } from '../shared/inputs.js';
import { entityEsgQuerySchema } from './inputs.js';
import type { EntityEsgService } from './service.js';

interface EsgArgs {
  narrate?: boolean | null;
  refresh?: boolean | null;
}

interface EntityEsgScoreArgs extends EsgArgs {
  lei: string;
  name?: string | null;
  country?: string | null;
  leiStatus?: string | null;
}

/** GraphQL's booleans in the REST query string's form ("true" or "false"), so one zod schema validates both. */
const booleanText = (value: boolean | null | undefined) => (value == null ? null : String(value));

const esgOptions = (args: EsgArgs) => ({ narrate: args.narrate ?? undefined, refresh: args.refresh ?? undefined });

/**
 * The entity ESG score of GET /esg/score/:lei and /esg/score/wallet/:wallet, through the same service:
 * Query.entityEsgScore (any well-formed LEI, with the declared name, country and status REST takes),
 * LegalEntity.esg and LegalEntity.esgScore, and Wallet.esg.
 */
export function esgResolvers(esg: EntityEsgService) {
  return {
    Query: {
      entityEsgScore: (_: unknown, args: EntityEsgScoreArgs) => {
        const { lei } = parseGraphQLInput(leiParamsSchema, { lei: args.lei }, 'CMP_ERR_INVALID_REQUEST');
        const query = { name: args.name, country: args.country, leiStatus: args.leiStatus, narrate: booleanText(args.narrate), refresh: booleanText(args.refresh) };
        return esg.entityEsg(lei, parseGraphQLInput(entityEsgQuerySchema, query, 'CMP_ERR_INVALID_REQUEST'));
      },
    },
    LegalEntity: {
      esg: (parent: { lei: string }, args: EsgArgs) => esg.entityEsg(parent.lei, esgOptions(args)),
      esgScore: async (parent: { lei: string }) => (await esg.entityEsg(parent.lei)).composite,
    },
    Wallet: {
      esg: (parent: { address: string }, args: EsgArgs) => esg.entityEsgForWallet(parent.address, esgOptions(args)),
    },
  };
}

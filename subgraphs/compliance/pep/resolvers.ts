import { parseGraphQLInput } from '../../../platform/graphql.js';
import { pepScreenBodySchema } from './inputs.js';
import type { PepScreenService } from './service.js';

/** Query.pepScreen: POST /compliance/pep-screen in the graph, with the same zod validation. */
export function pepResolvers(pep: PepScreenService) {
  return {
    Query: {
      pepScreen: (_: unknown, args: { name: string; country?: string | null; position?: string | null }) =>
        pep.pepScreen(parseGraphQLInput(pepScreenBodySchema, { name: args.name, country: args.country ?? undefined, position: args.position ?? undefined }, 'CMP_ERR_INVALID_REQUEST')),
    },
  };
}

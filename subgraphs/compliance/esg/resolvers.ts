import type { EntityEsgService } from './service.js';

/** LegalEntity.esg and LegalEntity.esgScore: the entity ESG score of GET /esg/score/:lei, through the same service. */
export function esgResolvers(esg: EntityEsgService) {
  return {
    LegalEntity: {
      esg: (parent: { lei: string }, args: { narrate?: boolean | null; refresh?: boolean | null }) =>
        esg.entityEsg(parent.lei, { narrate: args.narrate ?? undefined, refresh: args.refresh ?? undefined }),
      esgScore: async (parent: { lei: string }) => (await esg.entityEsg(parent.lei)).composite,
    },
  };
}

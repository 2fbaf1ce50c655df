import type { EsgOracleService } from './service.js';

/** The ESG oracle's fields of the graph. */
export function createEsgResolvers(service: EsgOracleService) {
  return {
    Query: {
      railEsgScore: () => service.esgScore(),
      esgReliability: () => service.esgReliability(),
    },
  };
}

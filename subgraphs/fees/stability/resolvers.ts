import type { StabilityService } from './service.js';

/** basketWeights as a list, for the graph. */
function weightsList(weights: Record<string, number>): Array<{ asset: string; weight: number }> {
  return Object.entries(weights).map(([asset, weight]) => ({ asset, weight }));
}

/** The stability oracle's fields of the graph. */
export function createStabilityResolvers(service: StabilityService) {
  return {
    PegState: { basketWeights: (peg: { basketWeights: Record<string, number> }) => weightsList(peg.basketWeights) },
    Query: {
      stabilityReliability: () => service.reliabilityWithDecision(),
      stabilityStatus: () => service.status(),
      stabilityHistory: () => service.history(),
      usdHealth: () => service.usdHealth(),
    },
    /** The stability part of the intelligence service's risk dashboard (free, like GET /stability/reliability). */
    RiskDashboard: {
      __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
      stability: () => service.reliabilityWithDecision(),
    },
  };
}

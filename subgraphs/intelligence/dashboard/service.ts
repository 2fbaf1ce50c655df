import { type Access, type Offer, paidWork } from '../../../platform/access/admission.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { catalogEntry } from '../shared/catalog.js';
import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { graphQLShape } from '../shared/signal-resolvers.js';
import type { SignalService } from '../shared/signal-service.js';

/** The parts of the dashboard this subgraph answers: GraphQL field of RiskDashboard -> catalog id of its signal. */
export const DASHBOARD_PARTS = {
  macroStress: 'macro-stress',
  commodityStress: 'commodity',
  currencyStress: 'currency-stress',
  sovereignDebt: 'sovereign-debt',
  supplyChain: 'supply-chain',
  cascade: 'cascade',
} as const;

export type DashboardPart = keyof typeof DASHBOARD_PARTS;

/** The one dashboard there is: the current view. Other subgraphs add their parts to it by this id. */
export const DASHBOARD_ID = 'current';

export interface RiskDashboardParent {
  id: string;
}

/**
 * riskDashboard (decision 0062): one admission for the whole view, priced at the sum of the paid
 * signals it holds, then each part served from the signals' cache. A part that fails is null with its
 * error; the others stand.
 */
export function createDashboardService(deps: { access: Access; signals: SignalService; endpoints: readonly AnySignalEndpoint[] }) {
  const parts = (Object.entries(DASHBOARD_PARTS) as Array<[DashboardPart, string]>).flatMap(([field, id]) => {
    const endpoint = deps.endpoints.find((candidate) => candidate.id === id);
    return endpoint ? [[field, endpoint] as const] : [];
  });
  const offer = dashboardOffer(parts.map(([, endpoint]) => endpoint));
  // Parents this process admitted: a RiskDashboard reached any other way (an _entities call straight to the subgraph) has paid for nothing.
  const admitted = new WeakSet<RiskDashboardParent>();

  return {
    offer,
    /** The part fields served: those whose signal this version has. */
    fields: parts.map(([field]) => field),
    async open(request: RequestContext, resource: string): Promise<RiskDashboardParent> {
      const parent = await paidWork(deps.access, request, offer, resource, async () => ({ id: DASHBOARD_ID }));
      admitted.add(parent);
      return parent;
    },
    async part(parent: RiskDashboardParent, field: DashboardPart) {
      if (!admitted.has(parent)) throw new AppError('GEN_ERR_PAYMENT_REQUIRED', { message: 'Open the dashboard through Query.riskDashboard: its parts are paid there.' });
      const endpoint = parts.find(([name]) => name === field)?.[1];
      if (!endpoint) throw new AppError('GEN_ERR_UNAVAILABLE', { message: `The ${field} part is not served by this version.` });
      return graphQLShape(endpoint, await deps.signals.serve(endpoint, {}));
    },
  };
}

function dashboardOffer(endpoints: readonly AnySignalEndpoint[]): Offer {
  const entries = endpoints.map((endpoint) => catalogEntry(endpoint.id, endpoint.summary));
  const amount = entries.reduce((sum, entry) => sum + entry.offer.price.amount, 0n);
  return { price: { amount, description: `Risk dashboard: ${entries.map((entry) => entry.id).join(', ')} in one view (the sum of their prices)` } };
}

export type DashboardService = ReturnType<typeof createDashboardService>;

import { DecimalScalar } from '../../platform/scalars.js';
import type { Initiations } from './integration/initiation.js';
import { createIntegrationResolvers } from './integration/resolvers.js';
import type { Payments } from './integration/service.js';

/**
 * The subgraph's resolvers: its scalar and the union of its families' fields. Every field is the
 * integration family's (the payments, their parties, and the lists of the entities compliance
 * owns); the settlement agent, the callbacks and the recovery have none.
 */
export function createPaymentsResolvers(services: { payments: Payments; initiation: Initiations }) {
  return {
    Decimal: DecimalScalar,
    ...createIntegrationResolvers(services.payments, services.initiation),
  };
}

import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import type { ComplianceClient } from '../upstream/compliance.js';
import { esgEndpoint } from './esg.js';

/** What the entity family reads besides the dataset: the compliance oracle. */
export interface EntityUpstreams {
  compliance: ComplianceClient;
}

/** The entity family: signals about one counterparty, from the compliance oracle's public records (Document 3 §2). */
export function entityEndpoints(upstreams: EntityUpstreams): AnySignalEndpoint[] {
  return [esgEndpoint(upstreams.compliance)];
}

import { entityEndpoints, type EntityUpstreams } from './entity/endpoints.js';
import { marketEndpoints } from './market/endpoints.js';
import { physicalEndpoints } from './physical/endpoints.js';
import { planetaryEndpoints } from './planetary/endpoints.js';
import { predictiveEndpoints, type PredictiveUpstreams, transitionRiskEndpoint } from './predictive/endpoints.js';
import type { AnySignalEndpoint } from './shared/signal-endpoint.js';

/** The other subgraphs the signals read, through their public interfaces (upstream/). */
export type SignalUpstreams = EntityUpstreams & PredictiveUpstreams;

/** The signals computed from the dataset alone (no other subgraph is read). */
export function datasetEndpoints(): AnySignalEndpoint[] {
  return [...marketEndpoints, ...physicalEndpoints, ...planetaryEndpoints, transitionRiskEndpoint];
}

/** Every paid signal of the service, family by family. */
export function signalEndpoints(upstreams: SignalUpstreams): AnySignalEndpoint[] {
  return [...marketEndpoints, ...physicalEndpoints, ...planetaryEndpoints, ...entityEndpoints(upstreams), ...predictiveEndpoints(upstreams)];
}

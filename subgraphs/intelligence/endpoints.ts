import { entityEndpoints, type EntityUpstreams } from './entity/endpoints.js';
import { marketEndpoints } from './market/endpoints.js';
import { physicalEndpoints } from './physical/endpoints.js';
import { planetaryEndpoints } from './planetary/endpoints.js';
import { causalGraphEndpoint, type PredictiveUpstreams, recordingEndpoints, transitionRiskEndpoint } from './predictive/endpoints.js';
import type { AnySignalEndpoint } from './shared/signal-endpoint.js';
import { simulationEndpoints } from './simulation/endpoints.js';
import { socialEndpoints } from './social/endpoints.js';
import { structuralEndpoints } from './structural/endpoints.js';
import { systemicEndpoints } from './systemic/endpoints.js';

/** The other subgraphs the signals read, through their public interfaces (upstream/). */
export type SignalUpstreams = EntityUpstreams & PredictiveUpstreams;

/** The signals computed from the dataset and the shipped catalogues alone (no other subgraph is read). */
export function datasetEndpoints(): AnySignalEndpoint[] {
  return [
    ...marketEndpoints,
    ...physicalEndpoints,
    ...planetaryEndpoints,
    ...systemicEndpoints,
    ...structuralEndpoints,
    ...socialEndpoints,
    ...simulationEndpoints,
    transitionRiskEndpoint,
    causalGraphEndpoint,
  ];
}

/** Every paid signal of the service, family by family. */
export function signalEndpoints(upstreams: SignalUpstreams): AnySignalEndpoint[] {
  return [...datasetEndpoints(), ...entityEndpoints(upstreams), ...recordingEndpoints(upstreams)];
}

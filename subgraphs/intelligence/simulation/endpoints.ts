import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { aftershockEndpoint } from './aftershock.js';
import { butterflyEndpoint } from './butterfly.js';
import { contagionEndpoint } from './contagion.js';

export { aftershockEndpoint } from './aftershock.js';
export { butterflyEndpoint } from './butterfly.js';
export { catalogueNodes, contagionNetworkSchema, loadButterflyNetwork, loadContagionNetwork, shockNetworkSchema } from './catalogue.js';
export { contagionEndpoint } from './contagion.js';

/** The simulation family (Document 3 §4): POST simulations over the shipped node and edge catalogues, no cache. */
export const simulationEndpoints: readonly AnySignalEndpoint[] = [butterflyEndpoint, aftershockEndpoint, contagionEndpoint];

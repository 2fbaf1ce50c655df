import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { resonanceEndpoint } from './resonance.js';
import { tectonicEndpoint } from './tectonic.js';

export { cycleCatalogue, faultLineCatalogue } from './catalogues.js';
export { resonanceEndpoint } from './resonance.js';
export { tectonicEndpoint } from './tectonic.js';

/** The structural family: tectonic fault lines and cycle resonance (spec §4; decision 0073). */
export const structuralEndpoints: readonly AnySignalEndpoint[] = [tectonicEndpoint, resonanceEndpoint];

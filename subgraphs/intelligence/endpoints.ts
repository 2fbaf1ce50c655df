import { marketEndpoints } from './market/endpoints.js';
import { physicalEndpoints } from './physical/endpoints.js';
import { planetaryEndpoints } from './planetary/endpoints.js';
import type { AnySignalEndpoint } from './shared/signal-endpoint.js';

/** Every paid signal of the service, family by family. */
export function signalEndpoints(): AnySignalEndpoint[] {
  return [...marketEndpoints, ...physicalEndpoints, ...planetaryEndpoints];
}
